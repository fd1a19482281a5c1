import { ProvisionError } from '../errors.js';
import { jsonText, quote } from '../escape.js';
import type { Desired } from '../manifest/types.js';
import type { Live, LiveClient, LiveDomain, LiveHostingPlan, ManagedField, PanelClient } from '../panel/index.js';
import { parseClientRecord, parseDomainRecord, parseHostingPlanRecord, readLive } from '../panel/index.js';
import { type PlanReads, readsForManifest } from '../plan/reads.js';
import type { Plan } from '../plan/types.js';
import { CLIENT_FIELDS, fieldsLacking, liveValue, managedFields } from '../kinds/client/index.js';
import { type LiveZone, parseZone } from '../kinds/zone/record.js';
import { isRecord, type JsonObject, type JsonValue, plural, sha256Hex } from '../util.js';
import { scopeMatcher } from '../names.js';

/**
 * A snapshot (schemas/snapshot.schema.json): the panel as plan reads it, saved as one JSON
 * document, so that `plan --from-snapshot` plans without the panel and without its key (a
 * pull request's job, forks included). Its records are kept in the panel's own shapes, reduced
 * to what the engine reads, and read back by the same parsers that read the panel: a plan from
 * a snapshot sees exactly what a plan made at the snapshot's time saw. Its emails are digests
 * (`sha256:` of the lowercase address) unless taken with `withEmails`: the manifest's are
 * hashed alike before planning (planSnapshot in prepare.ts), and given back to the plan after.
 *
 * Format "major.minor": a reader accepts any minor of its own major and refuses a newer major.
 */
export const SNAPSHOT_FORMAT_VERSION = '1.0';
const SUPPORTED_MAJOR = 1;

/** How an email the panel holds stands in an update's `before` when the snapshot holds only its digest. */
export const DIGEST_SHOWN = '(digest)';

/** What the snapshot read beside the four lists: what a manifest planned against it may rely on. */
export interface SnapshotReads {
  /** sha256 (hex) of the manifest it was taken for; null when taken without one. */
  readonly manifestSha256: string | null;
  /** The domains looked up by name (only when the panel has no domain list). */
  readonly domainNames: readonly string[];
  /** The clients whose managed fields were read one by one where GET /clients lacks them, and those fields. */
  readonly clientDetails: { readonly usernames: readonly string[]; readonly fields: readonly ManagedField[] };
  /** The domains whose DNS zones were asked for (those on the panel were read). */
  readonly zones: readonly string[];
}

export interface Snapshot {
  readonly formatVersion: string;
  readonly panelUrl: string;
  /** ISO 8601, UTC. */
  readonly takenAt: string;
  /** `digest`: each email is `sha256:<hex>` of the lowercase address; `address`: as the panel holds it. */
  readonly emails: 'digest' | 'address';
  readonly reads: SnapshotReads;
  readonly live: Live;
  /** The read's notes, as a live plan prints them. */
  readonly notes: readonly string[];
}

/** `sha256:<hex>` of the lowercase address: how a snapshot holds an email, and how a manifest's is compared. */
export function emailDigest(address: string): string {
  return `sha256:${sha256Hex(address.toLowerCase())}`;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

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
  const live = await readLive(panel, {
    ...reads,
    ...(options.concurrency === undefined ? {} : { zoneConcurrency: options.concurrency }),
    onEvent: (event) => {
      if (event.type === 'note') notes.push(event.message);
    },
  });
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
    },
    live: withEmails ? live : { ...live, clients: live.clients.map(digestEmail) },
    notes,
  };
}

function digestEmail(client: LiveClient): LiveClient {
  return typeof client.email === 'string' ? { ...client, email: emailDigest(client.email) } : client;
}

/** The snapshot as its JSON document (schemas/snapshot.schema.json), ending in a newline. */
export function snapshotDocument(snapshot: Snapshot): string {
  const { live, reads } = snapshot;
  const zones: Record<string, JsonObject> = {};
  for (const [name, zone] of [...(live.zones ?? new Map<string, LiveZone>())].sort(([a], [b]) => (a < b ? -1 : 1)))
    zones[name] = zoneRecord(zone);
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
    },
    hosting_plans: live.hostingPlans.map(planRecord),
    clients: live.clients.map(clientRecord),
    domains: live.domains.map(domainRecord),
    domains_complete: live.domainsComplete,
    zones,
    notes: snapshot.notes,
  };
  return `${jsonText(document, 2)}\n`;
}

/** A hosting plan in the panel's shape: id, name, its nested objects as read. */
function planRecord(plan: LiveHostingPlan): JsonObject {
  return { id: plan.id, name: plan.name, ...plan.objects };
}

/** A client in the panel's shape: id, username, each managed field the record carried under its panel key. */
function clientRecord(client: LiveClient): JsonObject {
  const record: Record<string, JsonValue> = { id: client.id, username: client.username };
  for (const row of CLIENT_FIELDS) {
    const value = liveValue(row, client);
    if (value !== undefined) record[row.panel[0]] = value;
  }
  return record;
}

/** A domain in the panel's shape: what parseDomainRecord reads, its settings as read. */
function domainRecord(domain: LiveDomain): JsonObject {
  return {
    id: domain.id,
    domain: domain.name,
    id_user: domain.idUser,
    is_system_domain: domain.isSystem ?? null,
    ...(domain.isSubdomain === undefined ? {} : { is_subdomain: domain.isSubdomain }),
    ...domain.settings,
  };
}

/** A zone as GET /dns/{id} answers it, reduced to what parseZone reads. */
function zoneRecord(zone: LiveZone): JsonObject {
  return {
    records: { soa: zone.soa, other: zone.records.map((r) => r.raw) },
    ...(zone.dkim === undefined ? {} : { dkim_record: zone.dkim }),
    ...(zone.isCustom === undefined ? {} : { is_custom_dns: zone.isCustom }),
    ...(zone.isDisabled === undefined ? {} : { is_dns_disabled: zone.isDisabled }),
  };
}

/**
 * A snapshot read back from its text: its format checked (a newer major refused), each record
 * read by the parser that reads the panel's. `file` names it in messages.
 */
export function parseSnapshot(text: string, file: string): Snapshot {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw bad(file, `is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(document)) throw bad(file, 'is not a JSON object');
  const version = document.format_version;
  if (typeof version !== 'string' || !/^[0-9]+\.[0-9]+$/.test(version))
    throw bad(file, 'has no "format_version": it is not a snapshot (provision snapshot writes one)');
  if (Number(version.split('.')[0]) !== SUPPORTED_MAJOR)
    throw bad(file, `has format ${version}; this version reads ${SUPPORTED_MAJOR}.x`, {
      hint:
        Number(version.split('.')[0]) > SUPPORTED_MAJOR
          ? 'upgrade panel-provision, or take the snapshot with the version that plans from it'
          : 'take the snapshot again with this version',
    });
  const at = (key: string): string => `${file}: "${key}"`;
  const string = (key: string): string => {
    const value = document[key];
    if (typeof value !== 'string' || value === '') throw bad(file, `needs "${key}" as a non-empty string`);
    return value;
  };
  const list = (value: unknown, key: string): unknown[] => {
    if (!Array.isArray(value)) throw bad(file, `needs "${key}" as a list`);
    return value;
  };
  const strings = (value: unknown, key: string): string[] =>
    list(value, key).map((item) => {
      if (typeof item !== 'string') throw bad(file, `needs "${key}" as a list of strings`);
      return item;
    });
  const panelUrl = string('panel_url');
  const takenAt = string('taken_at');
  if (Number.isNaN(Date.parse(takenAt))) throw bad(file, 'needs "taken_at" as a date and time (ISO 8601)');
  const emails = document.emails;
  if (emails !== 'digest' && emails !== 'address') throw bad(file, 'needs "emails" as "digest" or "address"');
  const reads = document.reads;
  if (!isRecord(reads) || !isRecord(reads.client_details)) throw bad(file, 'needs "reads" as written');
  const sha = reads.manifest_sha256;
  if (sha !== null && (typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha)))
    throw bad(file, 'needs "reads.manifest_sha256" as a sha256 (hex) or null');
  const fields = strings(reads.client_details.fields, 'reads.client_details.fields');
  const known = new Set<string>(CLIENT_FIELDS.map((row) => row.key));
  if (fields.some((f) => !known.has(f))) throw bad(file, 'names a client field this version does not know');
  const clients = list(document.clients, 'clients').map((r, i) => parseClientRecord(r, `${at('clients')}[${i}]`));
  if (emails === 'digest')
    clients.forEach((c, i) => {
      if (typeof c.email === 'string' && !DIGEST.test(c.email))
        throw bad(file, `holds "emails": "digest", but clients[${i}].email is no sha256 digest`);
    });
  if (typeof document.domains_complete !== 'boolean') throw bad(file, 'needs "domains_complete" as true or false');
  const zones = document.zones;
  if (!isRecord(zones)) throw bad(file, 'needs "zones" as an object');
  const read = new Map<string, LiveZone>();
  for (const [name, answer] of Object.entries(zones)) {
    const zone = parseZone(answer, name);
    if ('problem' in zone) throw bad(file, `cannot read the zone of ${quote(name)}: ${zone.problem}`);
    read.set(name, zone.zone);
  }
  const live: Live = {
    hostingPlans: list(document.hosting_plans, 'hosting_plans').map((r, i) =>
      parseHostingPlanRecord(r, `${at('hosting_plans')}[${i}]`),
    ),
    clients,
    domains: list(document.domains, 'domains').map((r, i) => parseDomainRecord(r, `${at('domains')}[${i}]`)),
    domainsComplete: document.domains_complete,
    ...(read.size === 0 ? {} : { zones: read }),
  };
  return {
    formatVersion: version,
    panelUrl,
    takenAt,
    emails,
    reads: {
      manifestSha256: sha,
      domainNames: strings(reads.domain_names, 'reads.domain_names'),
      clientDetails: {
        usernames: strings(reads.client_details.usernames, 'reads.client_details.usernames'),
        fields: fields as ManagedField[],
      },
      zones: strings(reads.zones, 'reads.zones'),
    },
    live,
    notes: strings(document.notes, 'notes'),
  };
}

function bad(file: string, problem: string, options: { hint?: string } = {}): ProvisionError {
  return new ProvisionError('plan_file', `the snapshot ${file} ${problem}`, {
    hint: options.hint ?? 'take it again: provision snapshot MANIFEST --out FILE',
    meta: { file },
  });
}

/**
 * What planning `desired` needs that the snapshot did not read, one sentence each; empty when
 * it holds everything a live plan would read: a domain looked up by name (a panel without a
 * domain list), a managed client field its record lacks and was not read one by one, a DNS zone
 * of a domain on the panel. With `scope` (`--clients`), of the matching clients only.
 */
export function snapshotGaps(snapshot: Snapshot, desired: Desired, scope?: readonly string[]): string[] {
  const { live, reads } = snapshot;
  const gaps: string[] = [];
  const needs = readsForManifest(desired, scope);
  const inScope = scopeMatcher(scope);
  if (!live.domainsComplete) {
    const looked = new Set(reads.domainNames);
    for (const name of new Set(needs.domainNames))
      if (!looked.has(name)) gaps.push(`domain ${quote(name)}: not looked up (the panel has no domain list)`);
  }
  const clients = new Map(live.clients.map((c) => [c.username, c]));
  const detailed = new Set(reads.clientDetails.usernames);
  const fieldsRead = new Set(reads.clientDetails.fields);
  for (const wanted of desired.clients) {
    if (!inScope(wanted.username)) continue;
    const client = clients.get(wanted.username.toLowerCase());
    if (client === undefined) continue;
    const lacking = fieldsLacking(client, new Set(managedFields(wanted)));
    const unread = lacking.filter((f) => !(detailed.has(client.username) && fieldsRead.has(f)));
    if (unread.length > 0)
      gaps.push(
        `client ${quote(client.username)}: ${unread.join(', ')} (GET /clients leaves it out; not read one by one)`,
      );
  }
  const domains = new Map(live.domains.map((d) => [d.name, d]));
  const asked = new Set(reads.zones);
  for (const name of new Set(needs.zones ?? [])) {
    const domain = domains.get(name);
    if (domain === undefined || domain.isSubdomain === true || asked.has(name)) continue;
    gaps.push(`the DNS zone of ${quote(name)}: not read`);
  }
  return gaps;
}

/** The manifest with each client's email as its digest, as a digest snapshot holds them. */
export function withEmailDigests(desired: Desired): Desired {
  return {
    ...desired,
    clients: desired.clients.map((c) => (c.email === undefined ? c : { ...c, email: emailDigest(c.email) })),
  };
}

/**
 * The plan of the hashed manifest with the manifest's addresses given back: what a create
 * sends and an update's `after`; an update's `before` (the panel's address, of which the
 * snapshot holds only the digest) as DIGEST_SHOWN.
 */
export function withEmailsRestored(plan: Plan, desired: Desired): Plan {
  const addresses = new Map(desired.clients.map((c) => [c.username.toLowerCase(), c.email]));
  const address = (name: string, digest: string): string => addresses.get(name) ?? digest;
  return {
    ...plan,
    changes: plan.changes.map((change) => {
      if (change.type !== 'client') return change;
      if (change.action === 'create' && change.email !== undefined)
        return { ...change, email: address(change.name, change.email) };
      if (change.action !== 'update') return change;
      return {
        ...change,
        fields: change.fields.map((f) =>
          f.field === 'email'
            ? { ...f, before: f.before === null ? null : DIGEST_SHOWN, after: address(change.name, f.after) }
            : f,
        ),
      };
    }),
  };
}

/** The clients whose email the plan updates from a digest: a saved plan of them would be stale at apply. */
export function digestUpdates(plan: Plan): string[] {
  return plan.changes.flatMap((c) =>
    c.type === 'client' &&
    c.action === 'update' &&
    c.fields.some((f) => f.field === 'email' && f.before === DIGEST_SHOWN)
      ? [c.name]
      : [],
  );
}

/** The note a plan from a snapshot carries: which snapshot, and its age at `now`. */
export function snapshotNote(snapshot: Snapshot, file: string, now: Date): string {
  const age = now.getTime() - Date.parse(snapshot.takenAt);
  const ago = age < 0 ? '' : ` (${ageText(age)} ago)`;
  return (
    `Planned against the snapshot ${file} taken at ${snapshot.takenAt}${ago}, not the panel itself: ` +
    'nothing was sent; apply reads the panel again' +
    (snapshot.emails === 'digest' ? `; emails are compared by digest, the panel's shown as ${DIGEST_SHOWN}.` : '.')
  );
}

/**
 * A warning for a snapshot dated later than `now` by more than a minute (clocks may differ that
 * much): its age is unknown, a wrong clock where it was taken or an edited file.
 */
export function snapshotFromFuture(snapshot: Snapshot, file: string, now: Date): string | undefined {
  const ahead = Date.parse(snapshot.takenAt) - now.getTime();
  if (!(ahead > 60_000)) return undefined;
  return (
    `the snapshot ${file} says it was taken at ${snapshot.takenAt}, ${ageText(ahead)} from now: its age is ` +
    'unknown (a wrong clock where it was taken, or an edited file); check that clock and take it again'
  );
}

function ageText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}
