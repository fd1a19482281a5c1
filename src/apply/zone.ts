/**
 * A zone's change, carried out: the zone is read again just before its PUT. An existing domain's
 * zone must be as the plan read it (its digest): one changed since (an ACME hook, a person in the
 * panel) fails as stale, naming what changed, and sends nothing; the other changes go on. A new
 * domain's zone is read after its POST (the panel fills in its default records) and diffed then.
 * The PUT replaces the record list with the same body however often it is sent: the client
 * retries it as it retries every idempotent request, and when no answer came at all the zone is
 * read back (holding the records sent, the PUT is done).
 */
import { quote } from '../escape.js';
import {
  type DnsRecord,
  type LiveZone,
  newZoneWrite,
  plannedRecords,
  recordDrift,
  recordMultiset,
  recordsAfter,
  recordLine,
  type RecordOp,
  sentRecords,
  type UpdateZone,
  type ZoneBody,
  zoneRequest,
} from '../kinds/zone.js';
import type { PanelClient } from '../panel/client.js';
import { ambiguity } from '../panel/retry.js';
import { readZone } from '../panel/zones.js';
import { canonical, messageOf, plural } from '../util.js';
import type { Applied } from './execute.js';
import { send } from './send.js';
import type { Slot } from './walk.js';

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

/** Told a note (a read-back after a lost answer) in one sentence. */
type Tell = (message: string) => void;

/** Carries out zone changes; `domainIdOf` gives the id of a domain created in this run. */
export function zoneWriter(
  panel: PanelClient,
  domainIdOf: (name: string) => number | undefined,
  signal: AbortSignal | undefined,
  tell: Tell = () => undefined,
): (change: UpdateZone, slot: Slot) => Promise<Applied> {
  return async (change, slot) => {
    const id = change.domainId ?? domainIdOf(change.name);
    if (id === undefined)
      throw new Error(`the id of domain ${quote(change.name)} is unknown: it was not created in this run`);
    const zone = await slot.run(() => readZone(panel, { name: change.name, id }));
    let body: ZoneBody;
    let note: string | undefined;
    if (change.domainId === null) {
      const written = newZoneWrite(change, zone);
      if ('problem' in written) throw new Error(written.problem);
      ({ body, note } = written);
    } else {
      if (change.body === null)
        throw new Error(`the change of the zone of ${quote(change.name)} holds no records to send: make a new plan`);
      if (zone.digest !== change.zoneDigest) throw staleZone(change, zone);
      checkBody(change, change.body, zone);
      body = change.body;
    }
    const request = zoneRequest(change, { id, body });
    try {
      await slot.run(() => send(panel, request, signal));
    } catch (error) {
      const why = ambiguity(error);
      if (why === undefined) throw error;
      const described = panel.describe(request.method, request.path);
      tell(`${described} ${why}: reading the zone back to see whether it holds the records sent`);
      const now = await slot
        .run(() => readZone(panel, { name: change.name, id }))
        .catch((readError: unknown) => {
          throw new Error(
            `${described} ${why}, and reading the zone back failed too (${messageOf(readError)}): ` +
              'it may or may not hold the records sent; run plan again',
            { cause: error },
          );
        });
      const sent = sentRecords(change.name, body) ?? [];
      if (recordDrift(sent, now.records).length > 0) throw error;
      return {
        id,
        note: `the answer was lost (${why}), but the zone holds the records sent${note ? `; ${note}` : ''}`,
      };
    }
    const back = await readBack(change, id, body, slot);
    const notes = [note, back].filter((n) => n !== undefined);
    return notes.length === 0 ? { id } : { id, note: notes.join('; ') };
  };

  /**
   * The zone read again after its PUT: a note when the panel holds the records sent otherwise (it
   * rewrote a value: a trailing dot, the case of a name), or when it could not be read; undefined
   * when it holds them as sent.
   */
  async function readBack(change: UpdateZone, id: number, body: ZoneBody, slot: Slot): Promise<string | undefined> {
    let now: LiveZone;
    try {
      // Within the run's bound, like every request apply sends.
      now = await slot.run(() => readZone(panel, { name: change.name, id }));
    } catch (error) {
      return `the zone could not be read back to check it (${messageOf(error)})`;
    }
    const drift = recordDrift(sentRecords(change.name, body) ?? [], now.records);
    if (drift.length === 0) return undefined;
    const more = drift.length > NAMED_DRIFT ? `, and ${plural(drift.length - NAMED_DRIFT, 'more record')}` : '';
    return (
      `warning: the zone read back holds records otherwise than sent (${drift.slice(0, NAMED_DRIFT).map(recordLine).join('; ')}${more}): ` +
      'the panel rewrote them (or something wrote the zone since); write the values as the panel does, or the next apply sends them again'
    );
  }
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
  const body = change.body;
  if (body !== null) {
    if (canonical(body.records.soa) !== canonical(zone.soa)) other.push('its SOA record');
    if (canonical(body.dkim_record) !== canonical(zone.dkim)) other.push('its DKIM record');
  }
  if (drift.length === 0 && other.length === 0) other.push('fields of its records panel-provision does not compare');
  return new ZoneChanged(change.name, drift, other);
}
