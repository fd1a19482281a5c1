/** The hosting plan as a kind of the table (../index.ts): what the stages ask of a plan's change. */
import { HOSTING_PLAN_READ } from './read.js';
import { HOSTING_PLAN_DOCTOR } from './doctor.js';
import { HOSTING_PLAN_APPLY } from './apply.js';
import { type Kind, kindWeight } from '../kind.js';
import {
  HOSTING_PLAN_DELETE_TAKES,
  HOSTING_PLAN_NOUN,
  type HostingPlanChange,
  hostingPlanDetails,
  hostingPlanNote,
  hostingPlanRequest,
  hostingPlanSubject,
  isPlanConflict,
  planConflictText,
  planCreatedParts,
  planFieldsText,
} from './changes.js';
import { type HostingPlanChangeJson, hostingPlanFromJson, hostingPlanProblems, hostingPlanToJson } from './document.js';
import { type HostingPlanFactIndex, hostingPlanFacts } from './facts.js';
import { PHP_SIZE_KEYS } from './export.js';
import { PLANS_EXPORT } from './export-edits.js';

export const HOSTING_PLAN_KIND: Kind<
  'hosting_plan',
  HostingPlanChange,
  HostingPlanFactIndex,
  HostingPlanChangeJson,
  typeof HOSTING_PLAN_READ
> = {
  name: 'hosting_plan',
  noun: HOSTING_PLAN_NOUN,

  request: (change) => hostingPlanRequest(change),
  facts: hostingPlanFacts,
  weight: kindWeight,
  waitsForCreatesBelow: false,
  // Its name among the domains looked up, as every change but a client's was before the table of kinds.
  readsAgain: (change) => ({ domainNames: [change.name] }),
  // Plans stand on their own: created and updated before every client, deleted after everything.
  order: { after: [], at: undefined },

  toJson: hostingPlanToJson,
  fromJson: hostingPlanFromJson,
  problems: (change, _item, path) => hostingPlanProblems(change, path),

  subject: hostingPlanSubject,
  lineSubject: hostingPlanSubject,
  // A plan belongs to no client (the Markdown comment gives plans a group of their own).
  clientOf: () => undefined,
  unicodeOf: () => '',
  details: hostingPlanDetails,
  notes: (change) => {
    const note = hostingPlanNote(change);
    return note === undefined ? [] : [note];
  },
  createdParts: planCreatedParts,
  updatedParts: (change) => planFieldsText(change.fields),
  listsParts: true,
  goesWith: () => '',
  deleteTakes: HOSTING_PLAN_DELETE_TAKES,
  // Counted only when some are created: most manifests define none.
  createsRow: 'some',
  // The clients on a plan may be other customers: counted when not named.
  conflictLine: (c, nameOthers) => (isPlanConflict(c) ? planConflictText(c, nameOthers) : undefined),
  // Counted only when the manifest defines plans (else every plan of the panel would count).
  unmanaged: { key: 'hostingPlans', absent: 'omitted' },

  // The `hosting_plans` section, written with --with hosting-plans; PHP sizes double-quoted (`"512M"`).
  export: {
    with: 'hosting-plans',
    header: 'hosting_plans: each plan whole, as the panel holds it; without prune, so plan deletes no plan.',
    style: { quoted: PHP_SIZE_KEYS },
    section: PLANS_EXPORT,
  },
  secret: undefined,
  apply: HOSTING_PLAN_APPLY,

  // Doctor: its list, read first: only a list read proves the key (docs/doctor.md).
  doctor: HOSTING_PLAN_DOCTOR,
  // List read: its records in one read of the panel, and its part of a snapshot.
  read: HOSTING_PLAN_READ,
};
