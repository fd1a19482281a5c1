/** The domain as a kind of the table (../index.ts): what the stages ask of a domain's change. */
import { DOMAIN_READ } from './read.js';
import { DOMAIN_DOCTOR } from './doctor.js';
import { quote } from '../../escape.js';
import { changeId } from '../common.js';
import { DOMAIN_APPLY } from './apply.js';
import { type Kind, kindWeight } from '../kind.js';
import { takenTotal, takesProblems } from '../takes.js';
import {
  type CreateDomain,
  DOMAIN_DELETE_TAKES,
  DOMAIN_NOUN,
  type DomainChange,
  domainConflictText,
  domainCreatedParts,
  domainDetails,
  domainGoesWith,
  domainRequest,
  domainSubject,
  isDomainConflict,
  settingsText,
  settingUnknownLine,
} from './changes.js';
import { type DomainChangeJson, domainFromJson, domainProblems, domainToJson } from './document.js';
import { type DomainFactIndex, domainFacts } from './facts.js';
import { unicodeForm } from './record.js';
import type { DomainSetting } from './settings.js';
import { SETTINGS_EXPORT } from './export-edits.js';

export const DOMAIN_KIND: Kind<'domain', DomainChange, DomainFactIndex, DomainChangeJson, typeof DOMAIN_READ> = {
  name: 'domain',
  noun: DOMAIN_NOUN,

  request: domainRequest,
  facts: domainFacts,
  // A delete counts what it takes of other kinds too (../takes.ts).
  weight: (change) =>
    change.action === 'delete' ? { creates: 0, deletes: 1 + takenTotal(change.takes) } : kindWeight(change),
  waitsForCreatesBelow: false,
  // A subdomain's parent on the panel too: the fingerprint checks it is still the one the plan names.
  readsAgain: (change) => ({
    domainNames:
      change.action === 'create' && change.parentDomain?.id != null
        ? [change.name, change.parentDomain.name]
        : [change.name],
  }),
  // The manifest's domains, looked up one by one on a panel without GET /domains: of the scope's
  // clients, or of every client when the run may delete one (diff sees a domain it would take).
  readsForManifest: (manifest) => ({
    domainNames: (manifest.deletes ? manifest.all : manifest.clients).flatMap((c) => c.domains.map((d) => d.name)),
  }),
  // A domain belongs to a client, walked at its entry in the client's list.
  order: { after: ['client'], at: 'domain' },

  toJson: domainToJson,
  fromJson: domainFromJson,
  problems: (change, item, path, earlier) => [
    ...domainProblems(change, path, (name) => {
      const before = earlier(changeId('domain', name));
      return before?.type === 'domain' && before.action === 'create' ? (before as CreateDomain).client : undefined;
    }),
    ...takesProblems(item, path),
  ],

  subject: domainSubject,
  lineSubject: (change) => `domain ${quote(change.name)}${unicodeForm(change.name)}`,
  clientOf: (change) => change.client,
  unicodeOf: (change) => unicodeForm(change.name),
  details: domainDetails,
  notes: () => [],
  createdParts: domainCreatedParts,
  updatedParts: (change) => change.fields.map((f) => settingsText([f])),
  // Its settings' values are JSON objects: a list under the domain reads better than one line.
  listsParts: true,
  goesWith: domainGoesWith,
  deleteTakes: DOMAIN_DELETE_TAKES,
  createsRow: 'always',
  conflictLine: (c, nameOthers) => (isDomainConflict(c) ? domainConflictText(c, nameOthers) : undefined),
  // A domain's unknown names its domain (a client's does not).
  unknownLine: (u) => (isSettingUnknown(u) ? settingUnknownLine(u) : undefined),
  unmanaged: { key: 'domains', absent: 'uncounted' },

  // Its settings are the domain item's own keys; `hsts` and `redirect` each a flow mapping on one line.
  export: { style: { flowValues: ['hsts', 'redirect'] }, item: SETTINGS_EXPORT },
  secret: undefined,
  apply: DOMAIN_APPLY,

  // Doctor: its list (a panel may lack it), then the settings its records carry (docs/doctor.md).
  doctor: DOMAIN_DOCTOR,
  // List read: its records in one read of the panel, and its part of a snapshot.
  read: DOMAIN_READ,

  // Deletes that take data: a delete takes what stands on the domain (../takes.ts).
  takes: {
    scope: (change) =>
      change.action === 'delete' ? { parent: 'domain', clientId: change.clientId, domain: change.name } : undefined,
    of: (change) => (change.action === 'delete' ? change.takes : undefined),
    with: (change, takes) => (change.action === 'delete' ? { ...change, takes } : change),
  },
};

/** A plan's unknown of a domain's setting: it names its domain. */
function isSettingUnknown(u: object): u is Parameters<typeof settingUnknownLine>[0] & { field: DomainSetting } {
  return 'domain' in u && typeof u.domain === 'string';
}
