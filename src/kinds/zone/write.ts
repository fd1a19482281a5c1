/**
 * A zone's change, carried out as a whole-object write (apply/whole-write.ts): the zone is read again
 * just before its PUT, after every create this change waits for (the creates of its subdomains in
 * the same apply, which add their records to it: plan/order.ts), and the PUT's body is built from
 * that read. An existing domain's zone must be as the plan read it (its digest), apart from records
 * at the hosts of subdomains this apply created (the apply's own doing: carried); one changed
 * otherwise (an ACME hook, a person in the panel) fails as stale, naming what changed, and gets
 * nothing; the other changes go on. A new domain's zone is read after its POST (the panel fills in
 * its default records) and diffed then. A PUT that failed with no answer, 429 or a 5xx is never
 * resent as it was: the zone is read again; holding the records sent, it is done; as the change
 * saw it, the body is built again and sent; otherwise it is stale.
 */
import { quote } from '../../escape.js';
import { canonical, messageOf, plural } from '../../util.js';
import type { Applied, ApplyStage, WholeWrite } from '../apply.js';
import { changeId, type PanelRequest } from '../common.js';
import { plannedRecords, sentRecords, type UpdateZone, zoneBodyOf, zoneRequest } from './changes.js';
import { recordIdText } from './conflicts.js';
import { recordDrift, recordsAfter, type RecordOp, zoneBody } from './diff.js';
import { carriedProblem, newZoneWrite, splitCarried } from './new-zone.js';
import { recordLine } from './phrases.js';
import { readZone } from './read.js';
import {
  type DnsRecord,
  exactKey,
  type LiveRecord,
  type LiveZone,
  recordKey,
  recordMultiset,
  type ZoneBody,
  zoneDigest,
} from './record.js';

/** How many of a stale zone's changed records its message names; the rest are counted. */
const NAMED_DRIFT = 5;

/**
 * A zone that changed on the panel since the plan read it: its change fails (exit 1) and
 * nothing is sent to it; `drift` says what changed, seen from the panel (`add`: a record there
 * now that the plan did not see). Not a ProvisionError: no code of errors.ts is a failed change
 * of one resource while the others go on ('stale_plan' refuses a whole saved plan, exit 3).
 */
export class ZoneChanged extends Error {
  override readonly name = 'ZoneChanged';
  readonly code = 'zone_changed';
  constructor(
    readonly zone: string,
    readonly drift: readonly RecordOp[],
    other: readonly string[],
  ) {
    const named = [...drift.slice(0, NAMED_DRIFT).map(recordLine), ...other];
    const more = drift.length > NAMED_DRIFT ? `, and ${plural(drift.length - NAMED_DRIFT, 'more record')}` : '';
    super(
      `the zone of ${quote(zone)} changed on the panel since the plan read it (${named.join('; ')}${more}): ` +
        'nothing was sent to it; run plan again, it shows the zone as it is now',
    );
  }
}

/**
 * Carries out a zone's change (see the file's comment) through what the apply stage hands in: its
 * reads and its write go through the stage's slot, the write is stage.writeWhole.
 */
export async function writeZone(change: UpdateZone, stage: ApplyStage): Promise<Applied> {
  const domainIdOf = (name: string): number | undefined => stage.newIds.get(changeId('domain', name));
  const id = change.domainId ?? domainIdOf(change.name);
  if (id === undefined)
    throw new Error(`the id of domain ${quote(change.name)} is unknown: it was not created in this run`);
  const notes: string[] = [];
  const write: WholeWrite<LiveZone, ZoneBody> = {
    what: `the zone of ${quote(change.name)}`,
    read: () => readZone(stage.panel, { name: change.name, id }),
    build: zoneBuilder(change, id, createdHosts(change, domainIdOf), (note) => notes.splice(0, notes.length, note)),
    landed: (now, body, from) => zoneLanded(change.name, now, body, from),
  };
  const done = await stage.writeWhole(write);
  const back = await readBack(change, id, done.body, stage);
  const all = [...notes, done.note, back].filter((n) => n !== undefined);
  return all.length === 0 ? { id } : { id, note: all.join('; ') };
}

/**
 * The zone read again after its PUT: a note when the panel holds the records sent otherwise (it
 * rewrote a value: a trailing dot, the case of a name), or when it could not be read; undefined
 * when it holds them as sent.
 */
async function readBack(
  change: UpdateZone,
  id: number,
  body: ZoneBody,
  stage: ApplyStage,
): Promise<string | undefined> {
  let now: LiveZone;
  try {
    // Within the run's bound, like every request apply sends.
    now = await stage.run(() => readZone(stage.panel, { name: change.name, id }));
  } catch (error) {
    return `the zone could not be read back to check it (${messageOf(error)})`;
  }
  const drift = recordDrift(sentRecords(change.name, body) ?? [], now.records);
  if (drift.length === 0) return undefined;
  return (
    `warning: the zone read back holds records otherwise than sent (${driftText(drift)}): ` +
    'the panel rewrote them (or something wrote the zone since); write the values as the panel does, or the next apply sends them again'
  );
}

/** `+ A x 192.0.2.1 (ttl 60); ...`, the first NAMED_DRIFT named, the rest counted. */
function driftText(drift: readonly RecordOp[]): string {
  const more = drift.length > NAMED_DRIFT ? `, and ${plural(drift.length - NAMED_DRIFT, 'more record')}` : '';
  return `${drift.slice(0, NAMED_DRIFT).map(recordLine).join('; ')}${more}`;
}

/**
 * The hosts, relative to the zone, of the subdomains this apply created that the change waits
 * for: their POSTs added records there (the panel's defaults for a subdomain).
 */
function createdHosts(change: UpdateZone, domainIdOf: (name: string) => number | undefined): ReadonlySet<string> {
  const hosts = new Set<string>();
  const suffix = `.${change.name}`;
  for (const dep of change.dependsOn) {
    const name = dep.startsWith('domain:') ? dep.slice('domain:'.length) : '';
    if (name.endsWith(suffix) && domainIdOf(name) !== undefined) hosts.add(name.slice(0, -suffix.length));
  }
  return hosts;
}

/**
 * Builds the zone's PUT from a read (WholeWrite.build); throws ZoneChanged when the zone is not as
 * the change saw it: as the plan read it for an existing domain (the records the subdomains this
 * apply created added aside), as apply first read it after the POST for a new one.
 */
function zoneBuilder(
  change: UpdateZone,
  id: number,
  created: ReadonlySet<string>,
  note: (note: string) => void,
): (fresh: LiveZone) => { request: PanelRequest; body: ZoneBody } {
  let first: LiveZone | undefined;
  return (fresh) => {
    let body: ZoneBody;
    if (change.domainId === null) {
      first ??= fresh;
      if (fresh.digest !== first.digest)
        throw new ZoneChanged(change.name, recordDrift(first.records, fresh.records), []);
      // Its subdomains' records, from their POSTs in this run, are carried even under prune,
      // unless the manifest lists their host and type.
      const written = newZoneWrite(change, fresh, created);
      if ('problem' in written) throw new Error(written.problem);
      body = written.body;
      note(written.note);
    } else {
      const planned = zoneBodyOf(change);
      if (planned === null)
        throw new Error(`the change of the zone of ${quote(change.name)} holds no records to send: make a new plan`);
      const { base, carried } = withoutCreated(fresh, created, plannedRecords(change) ?? []);
      if (base.digest !== change.zoneDigest) throw staleZone(change, base);
      checkBody(change, planned, base);
      const { replaced, kept } = splitCarried(change, carried);
      const gone = new Set<LiveRecord>(replaced);
      const after = recordsAfter(
        gone.size === 0 ? fresh.records : fresh.records.filter((r) => !gone.has(r)),
        change.records,
      );
      // checkBody made the same changes of the same records: they apply.
      if ('problem' in after) throw new Error(`the changes of the zone of ${quote(change.name)}: ${after.problem}`);
      body = zoneBody(fresh, after.other);
      const broken = carriedProblem(change.name, kept, sentRecords(change.name, body) ?? []);
      if (broken !== undefined) throw new Error(broken);
      const told = [
        ...(kept.length === 0
          ? []
          : [
              `kept ${plural(kept.length, 'record')} the subdomains created in this run added to it ` +
                `(${kept
                  .slice(0, NAMED_DRIFT)
                  .map((r) => recordLine({ op: 'add', ...r }))
                  .join('; ')})`,
            ]),
        ...(replaced.length === 0
          ? []
          : [
              `replaced ${plural(replaced.length, 'record')} the subdomains created in this run added to it ` +
                `at the manifest's hosts and types (${carriedText(replaced)}; not counted for --max-deletes)`,
            ]),
      ];
      if (told.length > 0) note(told.join('; '));
    }
    // The body built here, never the plan's: zoneRequest sends the one it is given.
    return { body, request: zoneRequest(change, { id, body }) };
  };
}

/** Records carried from subdomains' creates, the first NAMED_DRIFT named. */
function carriedText(records: readonly LiveRecord[]): string {
  const more = records.length > NAMED_DRIFT ? `, and ${plural(records.length - NAMED_DRIFT, 'more')}` : '';
  return records.slice(0, NAMED_DRIFT).map(recordIdText).join('; ') + more;
}

/**
 * The zone without the records at `created` hosts that the plan did not see (`planned`): `base`,
 * the zone as the plan's digest covers it, and those `carried` records.
 */
function withoutCreated(
  fresh: LiveZone,
  created: ReadonlySet<string>,
  planned: readonly DnsRecord[],
): { base: LiveZone; carried: LiveRecord[] } {
  if (created.size === 0) return { base: fresh, carried: [] };
  const seen = new Map<string, number>();
  for (const r of planned) seen.set(exactKey(r), (seen.get(exactKey(r)) ?? 0) + 1);
  const records: LiveRecord[] = [];
  const carried: LiveRecord[] = [];
  for (const r of fresh.records) {
    const left = seen.get(exactKey(r)) ?? 0;
    if (left > 0) seen.set(exactKey(r), left - 1);
    if (left === 0 && created.has(r.host)) carried.push(r);
    else records.push(r);
  }
  const digest = zoneDigest(
    fresh.soa,
    fresh.dkim,
    records.map((r) => r.raw),
  );
  return { base: { ...fresh, records, digest }, carried };
}

/**
 * After a failed PUT: whether the zone read now holds the records sent (WholeWrite.landed). Records
 * beside them are someone else's since (an ACME client): kept, and named; but a record the PUT
 * removed or changed being there again says it may not have landed.
 */
function zoneLanded(
  zone: string,
  now: LiveZone,
  body: ZoneBody,
  from: LiveZone,
): { readonly note?: string } | undefined {
  const sent = sentRecords(zone, body) ?? [];
  const drift = recordDrift(sent, now.records);
  if (drift.length === 0) return {};
  if (drift.some((op) => op.op !== 'add')) return undefined;
  const undone = new Set(
    recordDrift(from.records, sent)
      .filter((op) => op.op !== 'add')
      .map(recordKey),
  );
  if (drift.some((op) => undone.has(recordKey(op)))) return undefined;
  return { note: `${plural(drift.length, 'record')} written beside them since, kept (${driftText(drift)})` };
}

/**
 * A saved plan's PUT body checked against the zone read just before it (its digest matched):
 * the SOA and DKIM record as read, and the records its record changes make of the zone as read.
 * A body that differs was edited after the plan was made: its change fails and nothing is sent.
 */
function checkBody(change: UpdateZone, body: ZoneBody, zone: LiveZone): void {
  const after = recordsAfter(zone.records, change.records);
  const why =
    canonical(body.records.soa) !== canonical(zone.soa)
      ? 'its SOA record is not the one read'
      : canonical(body.dkim_record) !== canonical(zone.dkim)
        ? 'its DKIM record is not the one read'
        : 'problem' in after
          ? after.problem
          : canonical(recordMultiset(after.other)) !== canonical(recordMultiset(body.records.other))
            ? 'its records are not the zone as read with the record changes applied'
            : undefined;
  if (why === undefined) return;
  throw new Error(
    `the request of the zone of ${quote(change.name)} does not match its record changes (${why}): ` +
      'the plan file was edited; nothing was sent to it; make a new plan',
  );
}

/** The failure of a zone that changed since the plan read it, naming what changed. */
function staleZone(change: UpdateZone, zone: LiveZone): ZoneChanged {
  const before: readonly DnsRecord[] = plannedRecords(change) ?? [];
  const drift = recordDrift(before, zone.records);
  const other: string[] = [];
  const body = zoneBodyOf(change);
  if (body !== null) {
    if (canonical(body.records.soa) !== canonical(zone.soa)) other.push('its SOA record');
    if (canonical(body.dkim_record) !== canonical(zone.dkim)) other.push('its DKIM record');
  }
  if (drift.length === 0 && other.length === 0) other.push('fields of its records panel-provision does not compare');
  return new ZoneChanged(change.name, drift, other);
}
