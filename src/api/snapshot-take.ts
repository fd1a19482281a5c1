/** Taking a snapshot (api/snapshot-format.ts): the panel read as plan reads it, and written as its JSON document. */
import { jsonText } from '../escape.js';
import type { Desired } from '../manifest/types.js';
import type { LiveClient, LiveDomain, LiveHostingPlan, PanelClient } from '../panel/index.js';
import { readLive } from '../panel/index.js';
import { type PlanReads, readsForManifest } from '../plan/reads.js';
import { CLIENT_FIELDS, liveValue } from '../kinds/client/index.js';
import type { LiveZone } from '../kinds/zone/record.js';
import type { JsonObject, JsonValue } from '../util.js';
import { emailDigest, SNAPSHOT_FORMAT_VERSION, type Snapshot } from './snapshot-format.js';

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
