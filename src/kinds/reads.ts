/**
 * The kinds' list reads (Kind.read) as a table of their own, by kind name, in the order one read
 * of the panel starts them: what panel/read.ts readLive, the live index, snapshots and the
 * secrets look-ups loop over. A table apart from KINDS (./index.ts) so that what reads the panel
 * loads the rooms' reads, not the whole of each room (its export, its manifest words: the yaml
 * package): `provision doctor` reads the panel through panel/read.ts. Each entry is its room's
 * descriptor's `read` (test/kinds/list-reads.test.ts), typed so that a kind with a read that is
 * missing here fails to compile.
 */
import { CLIENT_READ } from './client/read.js';
import { DOMAIN_READ } from './domain/read.js';
import { HOSTING_PLAN_READ } from './hosting-plan/read.js';
import type { KINDS, Live, LiveIndexPart, LivePart, ReadAsk, ReadKindName } from './index.js';
import type { KindRead } from './read.js';
import { MAILBOX_READ } from './mailbox/read.js';
import { DATABASE_READ } from './database/read.js';
import { FTP_USER_READ } from './ftp-user/read.js';
import { ZONE_READ } from './zone/read.js';

/** Each kind's list read, its room's (KINDS[name].read). */
export const KIND_READS: { readonly [N in ReadKindName]: NonNullable<(typeof KINDS)[N]['read']> } = {
  hosting_plan: HOSTING_PLAN_READ,
  client: CLIENT_READ,
  domain: DOMAIN_READ,
  dns_zone: ZONE_READ,
  mailbox: MAILBOX_READ,
  database: DATABASE_READ,
  ftp_user: FTP_USER_READ,
};

/**
 * The kinds with a list read in the order the read starts them, and a snapshot writes their
 * parts: a kind is read after those its read names in `after`, its wave's reads started in this
 * order. Every kind with a read stands here, and Live holds every part a read takes of other
 * kinds (ReadsFromLive), else this fails to compile.
 */
export const READ_ORDER = readOrder([
  'hosting_plan',
  'client',
  'domain',
  'dns_zone',
  'mailbox',
  'database',
  'ftp_user',
]);

function readOrder<T extends readonly ReadKindName[]>(
  names: T &
    ([Exclude<ReadKindName, T[number]>] extends [never]
      ? [ReadsBeyondLive] extends [never]
        ? unknown
        : "a kind's read takes parts Live does not hold"
      : 'names every kind with a read'),
): readonly ReadKindName[] {
  return names;
}

/** The parts of other kinds list read `R`'s `list` takes (`Pick<E, B>`). */
type ListEarlier<R> = R extends { list(panel: never, ask: never, earlier: infer L): unknown } ? L : never;
/** The parts of other kinds list read `R`'s `check` takes (`E`; unknown when it has none). */
type CheckEarlier<R> = R extends { check?(part: never, panel: never, ask: never, earlier: infer E): unknown }
  ? E
  : never;

/**
 * Whether Live holds what list read `R` reads of other kinds (its `E`), each under its kind's
 * name and in the shape the read takes: readOf hands every read the whole Live, so a read that
 * names a part Live lacks (`domains` for `domain`) must fail to compile, not read undefined.
 */
export type ReadsFromLive<R> = Live extends ListEarlier<R> ? (Live extends CheckEarlier<R> ? true : false) : false;

/** The kinds whose list read takes parts Live does not hold (none, else READ_ORDER fails to compile). */
type ReadsBeyondLive = {
  [N in ReadKindName]: ReadsFromLive<(typeof KIND_READS)[N]> extends true ? never : N;
}[ReadKindName];

/**
 * The list read of the kind named `name`, typed for its part (the stages' loops take it so); the
 * parts it reads beside its own are Live's (READ_ORDER checks that Live holds them).
 */
export function readOf<N extends ReadKindName>(
  name: N,
): KindRead<LivePart<N>, ReadAsk, Live, LiveIndexPart<N>, ReadKindName> {
  return KIND_READS[name] as unknown as KindRead<LivePart<N>, ReadAsk, Live, LiveIndexPart<N>, ReadKindName>;
}

// --- Which kinds a snapshot read (api/snapshot-read.ts) ---
/**
 * The kinds whose parts every snapshot of format 1.0 holds, read: a snapshot that does not name
 * the kinds it read (`reads.kinds`, written since 1.1) is read as having read these, and no other.
 * Frozen: a kind that joins the table later is never among them.
 */
export const KINDS_OF_FIRST_SNAPSHOTS: readonly ReadKindName[] = ['hosting_plan', 'client', 'domain', 'dns_zone'];
