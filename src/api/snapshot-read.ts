/** Reading a snapshot back (api/snapshot-format.ts): its format checked, each kind's part by its read (Kind.read), each record by the parser that reads the panel's. */
import { ProvisionError } from '../errors.js';
import type { Live, ManagedField } from '../panel/index.js';
import { CLIENT_FIELDS } from '../kinds/client/index.js';
import type { ReadKindName } from '../kinds/index.js';
import { KINDS_OF_FIRST_SNAPSHOTS, READ_ORDER, readOf } from '../kinds/reads.js';
import type { SnapshotReading } from '../kinds/read.js';
import { isRecord } from '../util.js';
import { DIGEST, type KindReading, type Snapshot, SUPPORTED_MAJOR } from './snapshot-format.js';

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
  const reading: SnapshotReading = {
    value: (key) => document[key],
    at,
    list: (key) => list(document[key], key),
    bad: (problem) => bad(file, problem),
    digests: emails === 'digest',
    isDigest: (text) => DIGEST.test(text),
  };
  const kinds = kindsRead(reads.kinds, version, (problem) => bad(file, problem));
  const parts: Partial<Record<ReadKindName, unknown>> = {};
  // A kind not read is held so in `kinds`; its part is its read's empty one, its keys not read.
  for (const name of READ_ORDER)
    parts[name] = kinds[name].read ? readOf(name).snapshot.read(reading) : readOf(name).empty;
  const live = parts as Live;
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
      kinds,
    },
    live,
    notes: strings(document.notes, 'notes'),
  };
}

/**
 * Which kinds the snapshot read, from its `reads.kinds`: each kind this version reads, read or
 * not (a kind it does not name: not read); kinds this version does not know are left aside. A
 * snapshot without `reads.kinds` (format 1.0) read the kinds of that time, and no other.
 */
function kindsRead(written: unknown, version: string, bad: (problem: string) => Error): Snapshot['reads']['kinds'] {
  const kinds: Partial<Record<ReadKindName, KindReading>> = {};
  if (written === undefined) {
    const first = new Set(KINDS_OF_FIRST_SNAPSHOTS);
    const reason = `the snapshot (format ${version}) was taken before panel-provision read them`;
    for (const name of READ_ORDER) kinds[name] = first.has(name) ? { read: true } : { read: false, reason };
    return kinds as Snapshot['reads']['kinds'];
  }
  if (!isRecord(written)) throw bad('needs "reads.kinds" as an object');
  for (const name of READ_ORDER) {
    const reading = written[name];
    if (reading === undefined) {
      kinds[name] = { read: false, reason: 'the snapshot does not say it read them' };
      continue;
    }
    const where = `"reads.kinds.${name}"`;
    if (!isRecord(reading) || typeof reading.read !== 'boolean') throw bad(`needs ${where} as {"read": true or false}`);
    if (reading.read) kinds[name] = { read: true };
    else if (typeof reading.reason === 'string' && reading.reason !== '')
      kinds[name] = { read: false, reason: reading.reason };
    else throw bad(`needs ${where} with a "reason" where "read" is false`);
  }
  return kinds as Snapshot['reads']['kinds'];
}

function bad(file: string, problem: string, options: { hint?: string } = {}): ProvisionError {
  return new ProvisionError('plan_file', `the snapshot ${file} ${problem}`, {
    hint: options.hint ?? 'take it again: provision snapshot MANIFEST --out FILE',
    meta: { file },
  });
}
