/** The client as a kind of the table (../index.ts): what the stages ask of a client's change. */
import { CLIENT_APPLY } from './apply.js';
import { type Kind, kindWeight } from '../kind.js';
import { CLIENT_NOUN, type ClientChange, clientRequest, clientSubject, fieldsText, goesWith } from './changes.js';
import { type ClientChangeJson, clientFromJson, clientProblems, clientToJson } from './document.js';
import { type ClientFactIndex, clientFacts } from './facts.js';

export const CLIENT_KIND: Kind<'client', ClientChange, ClientFactIndex, ClientChangeJson> = {
  name: 'client',
  noun: CLIENT_NOUN,
  secret: true,
  request: clientRequest,
  facts: clientFacts,
  toJson: clientToJson,
  fromJson: clientFromJson,
  problems: (change, item, path) => clientProblems(change, item, path),
  subject: clientSubject,
  lineSubject: clientSubject,
  clientOf: (change) => change.name,
  goesWith,
  unicodeOf: () => '',
  updatedFields: (change) => change.fields.map((f) => fieldsText([f])),
  weight(change) {
    if (change.action !== 'delete') return kindWeight(change);
    // Its domains go with it: each counts; uncounted when the panel cannot list them.
    return change.domainNames === null
      ? { creates: 0, deletes: 1, unknown: true }
      : { creates: 0, deletes: 1 + change.domainNames.length };
  },
  apply: CLIENT_APPLY,
};
