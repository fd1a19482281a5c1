/** Taking a snapshot (api/snapshot-format.ts): the panel read as plan reads it, and written as its JSON document. */
import { jsonText } from '../escape.js';
import type { Desired } from '../manifest/types.js';
import type { Live, PanelClient } from '../panel/index.js';
import { readLive } from '../panel/index.js';
import type { ReadKindName } from '../kinds/index.js';
import { READ_ORDER, readOf } from '../kinds/reads.js';
import { type PlanReads, readsForManifest } from '../plan/reads.js';
import { diffWithin } from '../plan/diff.js';
import { clientScope } from '../names.js';
import { countTaken } from './takes.js';
import type { JsonValue } from '../util.js';
import { emailDigest, type KindReading, SNAPSHOT_FORMAT_VERSION, type Snapshot } from './snapshot-format.js';

/** What taking a snapshot needs beside the panel. */
export interface SnapshotOptions {
  /**
   * The manifest it is taken for (its reads: client details, zones), with the digest a plan
   * records of it (loadManifest's LoadedManifest is one); none: the four lists.
   */
  readonly manifest?: { readonly desired: Desired; readonly sha256: string } | undefined;
  /** Keep the addresses instead of their digests. */
  readonly withEmails?: boolean | undefined;
  /** Zone reads in flight at once. */
  readonly concurrency?: number | undefined;
  /** The clock, for tests; default now. */
  readonly now?: Date | undefined;
}

/** Reads `panel` as plan would for the manifest (without one: the four lists) into a snapshot. Sends only GETs. */
export async function takeSnapshot(panel: PanelClient, options: SnapshotOptions = {}): Promise<Snapshot> {
  const reads: PlanReads =
    options.manifest === undefined
      ? { domainNames: [], details: { usernames: new Set(), fields: new Set() }, zones: [] }
      : readsForManifest(options.manifest.desired);
  const notes: string[] = [];
  const takenAt = (options.now ?? new Date()).toISOString();
  const first = await readLive(panel, {
    ...reads,
    ...(options.concurrency === undefined ? {} : { zoneConcurrency: options.concurrency }),
    onEvent: (event) => {
      if (event.type === 'note') notes.push(event.message);
    },
  });
  // The lists a delete the manifest plans takes things of, as plan reads them (api/takes.ts).
  const { live, read } =
    options.manifest === undefined
      ? { live: first, read: [] }
      : await countTaken(panel, diffWithin(options.manifest.desired, first, clientScope(undefined)), first);
  const details = reads.details;
  const usernames = details === undefined ? [] : typeof details.usernames === 'function' ? [] : [...details.usernames];
  const withEmails = options.withEmails === true;
  return {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    panelUrl: panel.baseUrl,
    takenAt,
    emails: withEmails ? 'address' : 'digest',
    reads: {
      manifestSha256: options.manifest?.sha256 ?? null,
      domainNames: [...new Set(reads.domainNames)].sort(),
      clientDetails: {
        usernames: usernames.map((u) => u.toLowerCase()).sort(),
        fields: details === undefined ? [] : [...details.fields].sort(),
      },
      zones: [...new Set(reads.zones ?? [])].sort(),
      kinds: kindsRead(reads, options.manifest !== undefined, read),
    },
    live: withEmails ? live : digested(live),
    notes,
  };
}

/**
 * Which kinds the take read, as readLive reads them: a kind whose read the ask needs (Kind.read
 * `needed`), and one whose snapshot names what it asked for thing by thing (`byThing`); any
 * other is not read, and says why.
 */
function kindsRead(
  ask: PlanReads,
  withManifest: boolean,
  /** The kinds read beside the ask, for what a planned delete takes. */
  taken: readonly string[],
): Snapshot['reads']['kinds'] {
  const reason = withManifest ? 'the manifest it was taken for needs none' : 'it was taken without a manifest';
  const kinds: Partial<Record<ReadKindName, KindReading>> = {};
  for (const name of READ_ORDER) {
    const read = readOf(name);
    kinds[name] =
      read.snapshot.byThing === true || read.needed(ask) || taken.includes(name)
        ? { read: true }
        : { read: false, reason };
  }
  return kinds as Snapshot['reads']['kinds'];
}

/** `live` with each kind's email addresses replaced by their digests (Kind.read's snapshot part). */
function digested(live: Live): Live {
  const parts: Partial<Record<ReadKindName, unknown>> = {};
  for (const name of READ_ORDER) parts[name] = readOf(name).snapshot.digested?.(live[name], emailDigest) ?? live[name];
  return parts as Live;
}

/** The snapshot as its JSON document (schemas/snapshot.schema.json), ending in a newline: each kind's part in the read order. */
export function snapshotDocument(snapshot: Snapshot): string {
  const { live, reads } = snapshot;
  const parts: Record<string, JsonValue> = {};
  // A kind not read writes no part: an empty list would say the panel has none.
  for (const name of READ_ORDER)
    if (reads.kinds[name].read) Object.assign(parts, readOf(name).snapshot.write(live[name]));
  const kinds: Record<string, JsonValue> = {};
  for (const name of READ_ORDER) kinds[name] = { ...reads.kinds[name] };
  const document = {
    format_version: SNAPSHOT_FORMAT_VERSION,
    panel_url: snapshot.panelUrl,
    taken_at: snapshot.takenAt,
    emails: snapshot.emails,
    reads: {
      manifest_sha256: reads.manifestSha256,
      domain_names: reads.domainNames,
      client_details: { usernames: reads.clientDetails.usernames, fields: reads.clientDetails.fields },
      zones: reads.zones,
      kinds,
    },
    ...parts,
    notes: snapshot.notes,
  };
  return `${jsonText(document, 2)}\n`;
}
