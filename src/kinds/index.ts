/**
 * The table of kinds: every resource kind the engine manages, by name, each its room's
 * descriptor (kind.ts). The stages loop over it and ask a change's kind (`kindOf`); a change's
 * type, its id and the kind names derive from it. A new kind is a room, its entry here, its
 * schema fragment and its simulator module (docs/architecture.md, "Adding a kind"). The order of
 * the entries is the order in which summaries list the kinds.
 */
import { CLIENT_KIND } from './client/kind.js';
import { DOMAIN_KIND } from './domain/kind.js';
import { HOSTING_PLAN_KIND } from './hosting-plan/kind.js';
import type { ChangeOf, FactIndexOf, Kind } from './kind.js';
import type { AnyKindSection, SectionDiff, SectionItemOf, SectionParent, SectionPlace } from './section.js';
import { MAILBOX_KIND } from './mailbox/kind.js';
import { DATABASE_KIND } from './database/kind.js';
import { FTP_USER_KIND } from './ftp-user/kind.js';
import { ZONE_KIND } from './zone/kind.js';

export const KINDS = {
  client: CLIENT_KIND,
  domain: DOMAIN_KIND,
  dns_zone: ZONE_KIND,
  mailbox: MAILBOX_KIND,
  database: DATABASE_KIND,
  ftp_user: FTP_USER_KIND,
  hosting_plan: HOSTING_PLAN_KIND,
} as const;

type Table = typeof KINDS;

/** The kinds' names, as a change's `type` says them. */
export type KindName = keyof Table;

/** The table's names in its order. */
export const KIND_NAMES = Object.keys(KINDS) as readonly KindName[];

/**
 * One change, a closed union on `type` × `action` derived from the table: every branch over it
 * ends in assertNever.
 */
export type Change = { [N in KindName]: ChangeOf<Table[N]> }[KindName];

/** A change's id: `<kind>:<name>` (each kind's changes narrow it to their kind: `Change['id']`). */
export type { ChangeId } from './common.js';

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The live panel as every kind's facts look it up (plan/live-index.ts implements it). */
export type FactIndex = Intersection<{ [N in KindName]: FactIndexOf<Table[N]> }[KindName]>;

/**
 * The descriptor of `change`'s kind, typed for that change: the one place the table is looked
 * up by a change, so that each stage calls a kind's member with a change of that kind.
 */
export function kindOf<C extends Change>(change: C): Kind<C['type'], C, FactIndex, unknown> {
  return KINDS[change.type] as unknown as Kind<C['type'], C, FactIndex, unknown>;
}

// --- Manifest sections, by kind (Kind.section) ---

/** A kind's manifest section; never for a kind without one. */
type SectionOf<K> = K extends { readonly section?: infer S } ? Exclude<S, undefined> : never;

/** The kinds with a manifest section under `P` (a client item, a domain item; either). */
export type SectionKindName<P extends SectionParent = SectionParent> = {
  [N in KindName]: [SectionOf<Table[N]>] extends [never]
    ? never
    : SectionOf<Table[N]> extends { readonly parent: P }
      ? N
      : never;
}[KindName];

/**
 * The sections' items a parent item of the manifest gives (manifest/types.ts DesiredClient and
 * DesiredDomain `sections`), each kind's by its name; a key only when the item gives its list.
 */
export type SectionLists<P extends SectionParent> = {
  readonly [N in SectionKindName<P>]?: readonly SectionItemOf<SectionOf<Table[N]>>[];
} & { readonly [kind: string]: readonly { readonly loc: SectionPlace }[] | undefined };

/** The parts of section `S`'s diff: its conflicts (`X`) and unknowns (`U`). */
type SectionDiffOf<S> = S extends { diff(...args: never[]): SectionDiff<unknown, infer X, infer U> }
  ? { x: X; u: U }
  : never;

/** A plan's conflict of a kind's section (plan/types.ts Conflict): never while no kind has one. */
export type SectionConflict = { [N in SectionKindName]: SectionDiffOf<SectionOf<Table[N]>>['x'] }[SectionKindName];

/** A plan's unknown of a kind's section (plan/types.ts Unknown): never while no kind has one. */
export type SectionUnknown = { [N in SectionKindName]: SectionDiffOf<SectionOf<Table[N]>>['u'] }[SectionKindName];

/** A kind with a manifest section, as the stages loop over them. */
export interface SectionKind {
  /** The kind's name (SectionKindName; a test's kind may be none of the table's). */
  readonly name: string;
  readonly section: AnyKindSection;
}

/** The kinds with a manifest section, in the table's order: what the manifest stage, the walk and the ask loop over. */
export const SECTION_KINDS: readonly SectionKind[] = KIND_NAMES.flatMap((name) => {
  const section = (KINDS[name] as unknown as { readonly section?: AnyKindSection }).section;
  return section === undefined ? [] : [{ name, section }];
});

/** The section kind whose conflict `conflict` is (KindSection.conflicts), with its section; undefined: another kind's. */
export function sectionOfConflict(conflict: object): SectionKind | undefined {
  return SECTION_KINDS.find((kind) => kind.section.conflicts?.is(conflict) === true);
}

/** Whether a plan's conflict is a section kind's (a mailbox's, a database's, ...). */
export function isSectionConflict(conflict: object): conflict is SectionConflict {
  return sectionOfConflict(conflict) !== undefined;
}

// --- The live panel: one read's parts, by kind (Kind.read) ---

/** A kind's list read; never for a kind without one. */
type ReadOf<K> = K extends { readonly read?: infer R } ? Exclude<R, undefined> : never;

/** The kinds that have a list read. */
export type ReadKindName = { [N in KindName]: [ReadOf<Table[N]>] extends [never] ? never : N }[KindName];

/** A kind's part of the live panel. */
export type LivePart<N extends ReadKindName> = ReadOf<Table[N]> extends { readonly empty: infer P } ? P : never;

/** A kind's index of its part (KindRead.index); never for a kind without one. */
export type LiveIndexPart<N extends ReadKindName> =
  ReadOf<Table[N]> extends { index?(part: never): infer X } ? X : never;

/** The kinds whose list read indexes its part (KindRead.index). */
export type IndexedKindName = { [N in ReadKindName]: [LiveIndexPart<N>] extends [never] ? never : N }[ReadKindName];

/**
 * The live panel as the engine sees it after one read, each kind's part by its name: names
 * normalised (usernames and domains lowercase, domains in ASCII/punycode), ids as integers. A
 * kind the read was not asked for holds its read's `empty` part. The accessors below name the
 * parts most stages read.
 */
export type Live = { readonly [N in ReadKindName]: LivePart<N> };

/** What one read of the panel is asked: every kind's ask (panel/read.ts ReadLiveOptions is one). */
export type ReadAsk = Intersection<
  { [N in ReadKindName]: ReadOf<Table[N]> extends { needed(ask: infer A): boolean } ? A : never }[ReadKindName]
>;

/** The clients the panel listed. */
export const liveClients = (live: Live): Live['client'] => live.client;
/** The domains read (all the panel's, or only the manifest's: liveDomainsComplete). */
export const liveDomains = (live: Live): Live['domain']['records'] => live.domain.records;
/**
 * Whether the domains are the panel's whole list (GET /domains); false when the panel has no
 * list endpoint and only the manifest's domains were looked up one by one, so unmanaged
 * domains cannot be counted.
 */
export const liveDomainsComplete = (live: Live): boolean => live.domain.complete;
/** The hosting plans the panel listed. */
export const liveHostingPlans = (live: Live): Live['hosting_plan'] => live.hosting_plan;
/** The DNS zones read, by domain name: only those the ask named, of domains on the panel. */
export const liveZones = (live: Live): Live['dns_zone'] => live.dns_zone;
/** `live` with the zones `zones` (export reads its own: a zone it cannot read whole is left out). */
export const withLiveZones = (live: Live, zones: Live['dns_zone']): Live => ({ ...live, dns_zone: zones });
