/** The hosting plan as a kind of the table (../index.ts): what the stages ask of a plan's change. */
import { HOSTING_PLAN_APPLY } from './apply.js';
import { type Kind, kindWeight } from '../kind.js';
import {
  HOSTING_PLAN_NOUN,
  type HostingPlanChange,
  hostingPlanRequest,
  hostingPlanSubject,
  planFieldsText,
} from './changes.js';
import { type HostingPlanChangeJson, hostingPlanFromJson, hostingPlanProblems, hostingPlanToJson } from './document.js';
import { type HostingPlanFactIndex, hostingPlanFacts } from './facts.js';

export const HOSTING_PLAN_KIND: Kind<'hosting_plan', HostingPlanChange, HostingPlanFactIndex, HostingPlanChangeJson> = {
  name: 'hosting_plan',
  noun: HOSTING_PLAN_NOUN,
  secret: false,
  request: (change) => hostingPlanRequest(change),
  facts: hostingPlanFacts,
  toJson: hostingPlanToJson,
  fromJson: hostingPlanFromJson,
  problems: (change, _item, path) => hostingPlanProblems(change, path),
  subject: hostingPlanSubject,
  lineSubject: hostingPlanSubject,
  // A plan belongs to no client (the Markdown comment gives plans a group of their own).
  clientOf: () => undefined,
  goesWith: () => '',
  unicodeOf: () => '',
  updatedFields: (change) => planFieldsText(change.fields),
  weight: kindWeight,
  apply: HOSTING_PLAN_APPLY,
};
