/** The domain as a kind of the table (../index.ts): what the stages ask of a domain's change. */
import { quote } from '../../escape.js';
import { changeId } from '../common.js';
import { DOMAIN_APPLY } from './apply.js';
import { type Kind, kindWeight } from '../kind.js';
import {
  type CreateDomain,
  DOMAIN_NOUN,
  type DomainChange,
  domainRequest,
  domainSubject,
  settingsText,
} from './changes.js';
import { type DomainChangeJson, domainFromJson, domainProblems, domainToJson } from './document.js';
import { type DomainFactIndex, domainFacts } from './facts.js';
import { unicodeForm } from './record.js';

export const DOMAIN_KIND: Kind<'domain', DomainChange, DomainFactIndex, DomainChangeJson> = {
  name: 'domain',
  noun: DOMAIN_NOUN,
  secret: false,
  request: domainRequest,
  facts: domainFacts,
  toJson: domainToJson,
  fromJson: domainFromJson,
  problems: (change, _item, path, earlier) =>
    domainProblems(change, path, (name) => {
      const before = earlier(changeId('domain', name));
      return before?.type === 'domain' && before.action === 'create' ? (before as CreateDomain).client : undefined;
    }),
  subject: domainSubject,
  lineSubject: (change) => `domain ${quote(change.name)}${unicodeForm(change.name)}`,
  clientOf: (change) => change.client,
  goesWith: () => '',
  unicodeOf: (change) => unicodeForm(change.name),
  updatedFields: (change) => change.fields.map((f) => settingsText([f])),
  weight: kindWeight,
  apply: DOMAIN_APPLY,
};
