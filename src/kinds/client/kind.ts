/** The client as a kind of the table (../index.ts): what the stages ask of a client's change. */
import { CLIENT_READ } from './read.js';
import { CLIENT_DOCTOR } from './doctor.js';
import { USERNAME_PATTERN } from '../../names.js';
import { CLIENT_APPLY } from './apply.js';
import { type Kind, kindWeight } from '../kind.js';
import { takenTotal } from '../takes.js';
import {
  CLIENT_DELETE_TAKES,
  CLIENT_NOUN,
  type ClientChange,
  clientDetails,
  clientGoesWith,
  clientRequest,
  clientSubject,
  clientUnknownLine,
  fieldsText,
} from './changes.js';
import { CLIENT_EMAIL_DIGESTS } from './digests.js';
import { type ClientChangeJson, clientFromJson, clientProblems, clientToJson } from './document.js';
import { type ClientFactIndex, clientFacts } from './facts.js';
import type { ClientField } from './fields.js';
import { managedFields } from './record.js';

export const CLIENT_KIND: Kind<'client', ClientChange, ClientFactIndex, ClientChangeJson, typeof CLIENT_READ> = {
  name: 'client',
  noun: CLIENT_NOUN,

  request: clientRequest,
  facts: clientFacts,
  weight(change) {
    if (change.action !== 'delete') return kindWeight(change);
    // Its domains go with it: each counts; uncounted when the panel cannot list them.
    // What else it takes, counted (../takes.ts), counts too.
    const taken = takenTotal(change.takes);
    return change.domainNames === null
      ? { creates: 0, deletes: 1 + taken, unknown: true }
      : { creates: 0, deletes: 1 + change.domainNames.length + taken };
  },
  waitsForCreatesBelow: false,
  // A client's update reads the fields it compares (GET /clients/{id} where the list lacks them).
  readsAgain: (change) =>
    change.action === 'update'
      ? { details: { usernames: new Set([change.name]), fields: new Set(change.fields.map((f) => f.field)) } }
      : {},
  // The clients that manage a field, with those fields: what GET /clients must show, else GET /clients/{id}.
  readsForManifest: (manifest) => {
    const usernames = new Set<string>();
    const fields = new Set<ClientField>();
    for (const client of manifest.clients) {
      const managed = managedFields(client);
      if (managed.length === 0) continue;
      usernames.add(client.username);
      for (const field of managed) fields.add(field);
    }
    return { details: { usernames, fields } };
  },
  // A client may be on a hosting plan created or updated in the same run.
  order: { after: ['hosting_plan'], at: 'client' },

  toJson: clientToJson,
  fromJson: clientFromJson,
  problems: (change, item, path) => clientProblems(change, item, path),

  subject: clientSubject,
  lineSubject: clientSubject,
  clientOf: (change) => change.name,
  unicodeOf: () => '',
  details: clientDetails,
  notes: () => [],
  // Its create's request says each field as the manifest gives it.
  createdParts: () => [],
  updatedParts: (change) => change.fields.map((f) => fieldsText([f])),
  // Its fields are short: they stay on one line.
  listsParts: false,
  goesWith: clientGoesWith,
  deleteTakes: CLIENT_DELETE_TAKES,
  createsRow: 'always',
  unknownLine: (u) => (isClientUnknown(u) ? clientUnknownLine(u) : undefined),
  unmanaged: { key: 'clients', absent: 'uncounted' },

  // A digest snapshot holds its email as a digest.
  emailDigests: CLIENT_EMAIL_DIGESTS,

  secret: {
    journalKind: 'client',
    panelMakesOne: true,
    namePattern: USERNAME_PATTERN,
    nameRule: 'usernames start with a lowercase letter, then lowercase letters, digits, - and _ (at most 32)',
    withPassword: (request, password) => ({ ...request, body: { ...request.body, password } }),
    resetRequest: (id, password) => ({ method: 'PUT', path: `/clients/${id}`, body: { password } }),
  },
  apply: CLIENT_APPLY,

  // Doctor: its list, then which managed fields it carries (docs/doctor.md).
  doctor: CLIENT_DOCTOR,
  // List read: its records in one read of the panel, and its part of a snapshot.
  read: CLIENT_READ,

  // Deletes that take data: a delete takes what stands under the client and its domains (../takes.ts).
  takes: {
    scope: (change) =>
      change.action === 'delete'
        ? { parent: 'client', clientId: change.clientId, domains: change.domainNames }
        : undefined,
    of: (change) => (change.action === 'delete' ? change.takes : undefined),
    with: (change, takes) => (change.action === 'delete' ? { ...change, takes } : change),
  },
};

/** A plan's unknown of a client's field: it names a client and no domain (a domain's setting names its domain). */
function isClientUnknown(u: object): u is { readonly client: string; readonly field: ClientField } {
  // Only its two keys: another kind's unknown names its thing beside the client (`domain`, `mailbox`).
  return (
    'client' in u &&
    'field' in u &&
    Object.keys(u).every(
      (key) =>
        key === 'client' || key === 'field' || (key === 'domain' && (u as { domain?: unknown }).domain === undefined),
    )
  );
}
