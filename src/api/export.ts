import { EXPORTED_FIELDS } from '../kinds/client/index.js';
import { ProvisionError } from '../errors.js';
import { adopt } from '../export/adopt.js';
import { exportedSections, exportHeader, LiveModel, type ZoneCounts } from '../export/model.js';
import { checkRewritableVersion, rewrite } from '../export/rewrite.js';
import { editsByPart } from '../export/parts.js';
import { manifestText } from '../export/write.js';
import { listAsks } from '../export/item-lists.js';
import { EXPORT_WORDS, EXPORTS } from '../export/table.js';
import type { RunAsk } from '../kinds/ask.js';
import { quote } from '../escape.js';
import { validateManifest } from '../manifest/load.js';
import { parseManifestParts } from '../manifest/parts.js';
import type { Desired } from '../manifest/types.js';
import { globMatcher } from '../names.js';
import { DEFAULT_LOOKUP_CONCURRENCY, type Live, type PanelClient, readLive } from '../panel/index.js';
import { readZone, type ZoneDomain, zoneDomains } from '../kinds/zone/read.js';
import type { LiveZone } from '../kinds/zone/record.js';
import { readEach } from '../panel/object-reads.js';
import type { OnEvent } from '../plan/events.js';
import { KIND_NAMES, KINDS, type KindName, liveDomainsComplete, SECTION_KINDS, withLiveZones } from '../kinds/index.js';
import type { KindNoun } from '../kinds/common.js';

/**
 * `provision export` over a connected panel: the manifest of the live panel (export/model.ts,
 * write.ts), or an existing manifest's text rewritten so that it describes the panel for what
 * it manages (export/adopt.ts, rewrite.ts). Reads the panel, never writes to it; writes no
 * file and prints nothing: the caller shows the result, warnings and the diff.
 */

/**
 * What export may write beside clients and domains: each kind's `--with` word (Kind.export.with),
 * in the table's order: `dns` (the records of custom zones), `hosting-plans` (the
 * `hosting_plans` section, each plan whole), and the words of the kinds' lists under a client or
 * a domain item.
 */
export const EXPORT_WITH: readonly string[] = EXPORT_WORDS;
export type ExportWith = string;

/** The `--with` words of the kinds' lists under an item, each with what it writes (Kind.export.header), for export's help. */
export const EXPORT_WITH_HELP: readonly string[] = EXPORTS.flatMap(({ export: part }) =>
  part.list !== undefined && part.with !== undefined
    ? [`--with ${part.with}: ${part.header?.replace(/^[^:]*: /, `${part.list.key}, `) ?? part.list.key}`]
    : [],
);

export type { RunAsk };

export type { ZoneCounts };

/** The key of a typed `prune.keep` entry that matches plan names, as export's help names it. */
export { KEEP_PLAN_KEY } from '../kinds/hosting-plan/manifest.js';

/** Which zones to read, chosen from the panel as read (export --with dns, export --into). */
export type ZonePick = (model: LiveModel) => readonly ZoneDomain[];

/** What export writes beyond its default: the sections `--with` names. */
export interface ExportOptions {
  readonly with?: ReadonlySet<ExportWith>;
}

/**
 * Reads the panel as plan does, plus GET /clients/{id} for the clients `details` accepts
 * whose managed fields the list leaves out (told as a `note`), plus GET /dns/{id} of the
 * domains `zones` picks from what was read (DEFAULT_LOOKUP_CONCURRENCY at a time; none when it
 * picks none, or is not given), plus the kinds' lists `asks` asks for (exportAsks, IntoScope.asks).
 * A panel without a domain list is refused: export would not see its domains.
 */
export async function readForExport(
  panel: PanelClient,
  domainNames: readonly string[],
  details: (username: string) => boolean,
  onEvent?: OnEvent,
  zones?: (model: LiveModel) => readonly ZoneDomain[],
  asks: RunAsk = {},
): Promise<Live> {
  const live = await readLive(panel, {
    ...asks,
    domainNames,
    // The managed fields export writes (the client's field table says which), and so must know of each client.
    details: { usernames: details, fields: EXPORTED_FIELDS },
    ...(onEvent === undefined ? {} : { onEvent }),
  });
  if (!liveDomainsComplete(live)) {
    throw new ProvisionError(
      'panel_contract',
      `${panel.describe('GET', '/domains')} is not available: ` +
        'export cannot see which domains the panel has: nothing was written',
      {
        hint: 'export needs a panel that lists its domains (GET /domains); write the domains into the manifest by hand',
      },
    );
  }
  const picked = zones?.(new LiveModel(live)) ?? [];
  if (picked.length === 0) return live;
  // A zone that cannot be read whole is left out (its dns block with it), told as a note: export writes nothing to the panel.
  const read = (domain: ZoneDomain): Promise<LiveZone> => readZone(panel, domain);
  const zoneMap = await readEach(zoneDomains(picked), DEFAULT_LOOKUP_CONCURRENCY, read, (domain, error) =>
    onEvent?.({
      type: 'note',
      message: `warning: the zone of ${quote(domain)} cannot be read whole: its dns block is left out (${error.message})`,
    }),
  );
  return withLiveZones(live, zoneMap);
}

/** The zones plain export reads: with `--with dns`, those of every domain it writes (LiveModel.zoneDomains); else none. */
export function exportZones(
  include: (username: string) => boolean,
  options: ExportOptions,
): ((model: LiveModel) => readonly ZoneDomain[]) | undefined {
  return options.with?.has('dns') === true ? (model) => model.zoneDomains(include) : undefined;
}

/** What plain export's read asks for the kinds' lists under an item (item-lists.ts listAsks): those whose word is given. */
export function exportAsks(options: ExportOptions): RunAsk {
  return listAsks(options.with ?? new Set());
}

/** The manifest of the panel: its text, how many clients and domains it lists, and what was left out. */
interface ExportedManifest {
  readonly text: string;
  readonly clients: number;
  readonly domains: number;
  /** A name or value the manifest would refuse, left out: one sentence each. */
  readonly warnings: readonly string[];
  /**
   * What else was left out, not for being refused (domain settings the panel's records do not
   * show), and plan keys written that panel-provision does not know.
   */
  readonly notes: readonly string[];
  /** How many hosting plans it lists (--with hosting-plans); undefined when none was asked for. */
  readonly plans?: number;
  /** The zones read and written (--with dns); undefined when none was asked for. */
  readonly zones?: ZoneCounts;
  /** How many things of each kind listed under an item it writes (the kinds asked for by --with), in the table's order. */
  readonly listed: readonly ListedCount[];
}

/** How many things of a kind listed under a parent item (a domain's, a client's) a manifest holds. */
export interface ListedCount {
  readonly noun: KindNoun;
  readonly count: number;
}

/**
 * How many things of each section kind `desired` lists (Kind.section: under each client or
 * domain item), for the kinds `asked` accepts, in the table's order.
 */
function listedCounts(desired: Desired, asked: (name: KindName) => boolean): ListedCount[] {
  return KIND_NAMES.flatMap((name) => {
    const section = SECTION_KINDS.find((kind) => kind.name === name)?.section;
    if (section === undefined || !asked(name)) return [];
    let count = 0;
    for (const client of desired.clients) {
      if (section.parent === 'client') count += client.sections?.[name]?.length ?? 0;
      else for (const domain of client.domains) count += domain.sections?.[name]?.length ?? 0;
    }
    return [{ noun: KINDS[name].noun, count }];
  });
}

/** The header lines of a manifest export for what `--with` asks for: a line for each kind it names (Kind.export.header). */
export function withHeader(options: ExportOptions): string[] {
  return exportHeader((word) => options.with?.has(word) === true);
}

/**
 * The manifest of `live` (every client `include` accepts), headed by `header`'s comment lines;
 * it validates (a manifest that does not is a bug, thrown as one).
 */
export function exportManifest(
  live: Live,
  include: (username: string) => boolean,
  header: readonly string[],
  options: ExportOptions = {},
): ExportedManifest {
  const warnings: string[] = [];
  const model = new LiveModel(live, options.with);
  const notes: string[] = [];
  const sections = exportedSections(
    model,
    (word) => options.with?.has(word) === true,
    (w) => warnings.push(w),
    (n) => notes.push(n),
  );
  const plans = sections.find((s) => s.with === 'hosting-plans')?.entries;
  const clients = model.entries((w) => warnings.push(w), include);
  const text = manifestText(clients, header, sections);
  const check = validateManifest(text, 'export');
  if (check.desired === undefined)
    throw new Error(
      `provision export wrote a manifest that does not validate (${check.diagnostics[0]?.message ?? 'no diagnostic'})`,
    );
  const domains = clients.reduce((n, c) => n + c.domains.length, 0);
  const unshown = model.unshownSettings(include);
  return {
    text,
    clients: clients.length,
    domains,
    warnings,
    notes: unshown === undefined ? notes : [unshown, ...notes],
    ...(options.with?.has('dns') === true ? { zones: model.zoneCounts(clients) } : {}),
    ...(plans === undefined ? {} : { plans: plans.length }),
    listed: listedCounts(check.desired, (name) => {
      const word = KINDS[name].export?.with;
      return word === undefined || options.with?.has(word) === true;
    }),
  };
}

/** What export --into reads of the panel for a manifest, and which of the panel's other clients it claims. */
interface IntoScope {
  /** The panel's clients (not listed in the manifest) that --clients patterns claim. */
  readonly claim: (username: string) => boolean;
  /** Clients whose managed fields must be known: the listed ones and those the manifest or the patterns claim. */
  readonly wanted: (username: string) => boolean;
  /** The manifest's domains (looked up by name on a panel without GET /domains). */
  readonly domainNames: readonly string[];
  /**
   * The zones to read: those of the listed domains whose entries have `dns` (on the panel, not
   * subdomains); with --with dns, those of every domain of the
   * clients `wanted` accepts too (a domain without `dns` then gets one when its zone is custom).
   */
  readonly zones: (model: LiveModel) => readonly ZoneDomain[];
  /** What the read asks for the kinds' lists under an item: those whose word is given, or that the manifest lists or prunes. */
  readonly asks: RunAsk;
}

/**
 * A manifest's text as export --into rewrites it: a file (one part), or a directory's parts in
 * name order (manifest/parts.ts), each with its path as messages name it.
 */
export interface IntoManifest {
  readonly name: string;
  readonly directory: boolean;
  readonly parts: readonly { readonly file: string; readonly text: string }[];
}

/**
 * The scope of export --into for `desired` and the --clients `patterns`: the manifest's present
 * clients, plus (unless a prune.keep pattern keeps them out) every other client when it prunes
 * clients, or those the patterns match. Refuses first a manifest text it cannot rewrite
 * (%YAML 1.1, in any part).
 */
export function intoScope(
  desired: Desired,
  manifest: IntoManifest,
  patterns: readonly string[],
  options: ExportOptions = {},
): IntoScope {
  for (const part of manifest.parts) checkRewritableVersion(part.text, part.file);
  const claim = patterns.length === 0 ? () => false : globMatcher(patterns);
  const keep = globMatcher(desired.prune.keep);
  const listed = new Set(desired.clients.filter((c) => c.state === 'present').map((c) => c.username));
  const wanted = (username: string): boolean =>
    listed.has(username) || ((desired.prune.clients || claim(username)) && !keep(username));
  const managed = desired.clients.flatMap((c) =>
    c.state === 'present'
      ? c.domains.flatMap((d) => (d.state === 'present' && d.dns !== undefined ? [d.name] : []))
      : [],
  );
  const zones = (model: LiveModel): ZoneDomain[] => {
    const all = options.with?.has('dns') === true ? model.zoneDomains(wanted) : [];
    const names = new Set(all.map((d) => d.name));
    for (const name of managed) {
      const domain = model.index.domains.get(name);
      if (domain === undefined || names.has(name) || model.isSubdomain(domain)) continue;
      names.add(name);
      all.push({ name, id: domain.id });
    }
    return all;
  };
  return {
    claim,
    wanted,
    domainNames: desired.clients.flatMap((c) => c.domains.map((d) => d.name)),
    zones,
    asks: listAsks(options.with ?? new Set(), desired),
  };
}

/**
 * The manifest's text rewritten to describe `live` for what it manages (only the changed
 * entries; comments and formatting kept): each part's, in the order of `manifest.parts`, with
 * the edits of the entries it holds, new entries in the part `newEntries` (default the first;
 * export/parts.ts); and what was left out. The parts rewritten validate together as one
 * manifest (else a bug). A part with edits that uses YAML aliases is refused (ProvisionError),
 * before the caller writes any.
 */
export function adoptInto(
  desired: Desired,
  manifest: IntoManifest,
  live: Live,
  options: {
    readonly claim: (username: string) => boolean;
    readonly dropMissing: boolean;
    /**
     * --with dns: a listed domain without `dns` whose zone is custom gets one; --with
     * hosting-plans: the panel's plans the manifest lacks are added (AdoptOptions.with).
     */
    readonly with?: ReadonlySet<ExportWith>;
    /** The index of the part that takes new entries (--new-entries). */
    readonly newEntries?: number;
  },
): { readonly rewritten: readonly string[]; readonly warnings: readonly string[] } {
  const { edits, warnings } = adopt(desired, new LiveModel(live, options.with), {
    claim: options.claim,
    dropMissing: options.dropMissing,
    ...(options.with === undefined ? {} : { with: options.with }),
  });
  const { parts } = manifest;
  const byPart =
    parts.length === 1
      ? [edits]
      : editsByPart(
          edits,
          desired,
          parts.map((p) => p.file),
          options.newEntries ?? 0,
        );
  const rewritten = parts.map((part, i) => rewrite(part.text, byPart[i] ?? [], part.file));
  const encoder = new TextEncoder();
  const check = manifest.directory
    ? parseManifestParts(
        parts.map((part, i) => ({ file: part.file, bytes: encoder.encode(rewritten[i]) })),
        manifest.name,
      )
    : validateManifest(rewritten[0] ?? '', manifest.name);
  if (check.desired === undefined)
    throw new Error(
      `export --into made a manifest that does not validate (${check.diagnostics[0]?.message ?? 'no diagnostic'})`,
    );
  return { rewritten, warnings };
}
