/** The DNS zone as a kind of the table (../index.ts): what the stages ask of a zone's change. */
import { ZONE_READ } from './read.js';
import { ZONE_DOCTOR } from './doctor.js';
import { changeId } from '../common.js';
import { unicodeForm } from '../domain/record.js';
import { writeZone } from './write.js';
import type { Kind } from '../kind.js';
import { type UpdateZone, ZONE_NOUN, zoneDeletes, zoneRequest } from './changes.js';
import { isZoneConflict, zoneConflictText } from './conflicts.js';
import { type ZoneChangeJson, zoneFromJson, zoneProblems, zoneToJson } from './document.js';
import { type ZoneFactIndex, zoneFacts } from './facts.js';
import {
  recordSign,
  recordText,
  ZONE_REMOVALS,
  zoneDetails,
  zoneLineSubject,
  zoneNotes,
  zoneOutcome,
  zoneRequestLine,
  zoneSubject,
} from './phrases.js';
import { ZONE_EXPORT } from './export-edits.js';

export const ZONE_KIND: Kind<'dns_zone', UpdateZone, ZoneFactIndex, ZoneChangeJson, typeof ZONE_READ> = {
  name: 'dns_zone',
  noun: ZONE_NOUN,

  request: (change) => zoneRequest(change),
  facts: zoneFacts,
  // Its removed records count one each: a prune can empty a zone.
  weight: (change) => ({ creates: 0, deletes: zoneDeletes(change) }),
  // A subdomain's POST adds its records to the zone: the zone's PUT waits for it, failed or not.
  waitsForCreatesBelow: true,
  // A new domain's zone (no id yet) is not read: its domain's create is checked.
  readsAgain: (change) => ({ domainNames: [change.name], zones: change.domainId === null ? [] : [change.name] }),
  // The zones of the domains that manage DNS: one GET /dns/{id} each, for those on the panel.
  readsForManifest: (manifest) => ({
    zones: manifest.clients.flatMap((c) => c.domains.flatMap((d) => (d.dns === undefined ? [] : [d.name]))),
  }),
  // A zone belongs to its domain, and waits for the creates of the domains below it.
  order: { after: ['domain'], at: 'domain' },

  toJson: zoneToJson,
  fromJson: zoneFromJson,
  problems: (change, item, path) => zoneProblems(change, path, item),

  subject: zoneSubject,
  lineSubject: zoneLineSubject,
  clientOf: (change) => change.client,
  unicodeOf: (change) => unicodeForm(change.name),
  details: zoneDetails,
  notes: zoneNotes,
  // A zone is never created on its own: a domain's comes with it.
  createdParts: () => [],
  updatedParts: (change) => change.records.map(recordText),
  listsParts: true,
  // Each record is a change of its own: added, removed, or its TTL changed.
  markedParts: { marks: (change) => change.records.map(recordSign), item: 'record change' },
  // A zone's body is its whole record list: said in short (JSON keeps it whole).
  requestLine: zoneRequestLine,
  goesWith: () => '',
  removals: ZONE_REMOVALS,
  outcome: zoneOutcome,
  createsRow: 'never',
  // Its records read under their domain's own change.
  shownUnder: (change) => changeId('domain', change.name),
  conflictLine: (c) => (isZoneConflict(c) ? zoneConflictText(c) : undefined),

  // A domain item's `dns` block, written with --with dns; its records as one flow mapping a line.
  export: {
    with: 'dns',
    header: 'dns: the records of the zones the panel marks custom; without prune, so plan removes no record.',
    style: { flowItems: ['records'] },
    item: ZONE_EXPORT,
  },
  secret: undefined,
  // One change, an update: a whole-object write of its record list.
  apply: { update: writeZone },

  // Doctor: one zone read of a listed domain (docs/doctor.md).
  doctor: ZONE_DOCTOR,
  // List read: its records in one read of the panel, and its part of a snapshot.
  read: ZONE_READ,
};
