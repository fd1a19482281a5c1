/** The DNS zone as a kind of the table (../index.ts): what the stages ask of a zone's change. */
import { quote } from '../../escape.js';
import { unicodeForm } from '../domain/record.js';
import { writeZone } from './write.js';
import type { Kind } from '../kind.js';
import { type UpdateZone, ZONE_NOUN, zoneDeletes, zoneRequest } from './changes.js';
import { type ZoneChangeJson, zoneFromJson, zoneProblems, zoneToJson } from './document.js';
import { type ZoneFactIndex, zoneFacts } from './facts.js';
import { recordText, zoneRequestLine, zoneSubject } from './phrases.js';

export const ZONE_KIND: Kind<'dns_zone', UpdateZone, ZoneFactIndex, ZoneChangeJson> = {
  name: 'dns_zone',
  noun: ZONE_NOUN,
  secret: false,
  request: (change) => zoneRequest(change),
  facts: zoneFacts,
  toJson: zoneToJson,
  fromJson: zoneFromJson,
  problems: (change, item, path) => zoneProblems(change, path, item),
  subject: zoneSubject,
  lineSubject: (change) => `dns ${quote(change.name)}${unicodeForm(change.name)}`,
  clientOf: (change) => change.client,
  goesWith: () => '',
  unicodeOf: (change) => unicodeForm(change.name),
  updatedFields: (change) => change.records.map(recordText),
  // A zone's body is its whole record list: said in short (JSON keeps it whole).
  requestLine: zoneRequestLine,
  // Its removed records count one each: a prune can empty a zone.
  weight: (change) => ({ creates: 0, deletes: zoneDeletes(change) }),
  // One change, an update: a whole-object write of its record list.
  apply: { update: writeZone },
};
