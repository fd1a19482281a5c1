/**
 * The database as a kind of the table (../index.ts): what the stages ask of a database's change.
 */
import { quote } from '../../escape.js';
import { changeId } from '../common.js';
import { DATABASE_TAKEN_WITH } from './taken.js';
import { type Kind, kindWeight } from '../kind.js';
import { DATABASE_APPLY } from './apply.js';
import { DATABASE_KIND_NAME, type DatabaseChange, databaseRequest, isDatabaseConflict } from './changes.js';
import { databaseConflictText } from './diff-rule.js';
import { DATABASE_DOCTOR } from './doctor.js';
import { type DatabaseChangeJson, databaseFromJson, databaseProblems, databaseToJson } from './document.js';
import { DATABASES_EXPORT } from './export-edits.js';
import { type DatabaseFactIndex, databaseFacts } from './facts.js';
import {
  databaseCreatedParts,
  databaseFieldPart,
  databaseGoesWith,
  databaseSubject,
  DATABASE_DELETE_TAKES,
  DATABASE_NOUN,
} from './phrases.js';
import { DATABASE_READ } from './read.js';
import { DATABASE_SECTION, databaseUnknownLine, isDatabaseUnknown } from './section.js';
import {
  DATABASE_PANEL_MAKES_PASSWORD,
  DATABASE_SECRET_PATTERN,
  DATABASE_SECRET_RULE,
  databaseResetRequest,
  databaseWithPassword,
} from './secret.js';

export const DATABASE_KIND: Kind<
  'database',
  DatabaseChange,
  DatabaseFactIndex,
  DatabaseChangeJson,
  typeof DATABASE_READ,
  typeof DATABASE_SECTION
> = {
  name: DATABASE_KIND_NAME,
  noun: DATABASE_NOUN,

  request: databaseRequest,
  facts: databaseFacts,
  // A delete counts 1 (its data goes with it: the phrases say so); never pruned.
  weight: kindWeight,
  waitsForCreatesBelow: false,
  // Nothing beyond its list, which plan/reads.ts reads again for every section kind.
  readsAgain: () => ({}),
  // A database belongs to a client: created after it, deleted before it; walked at its client's entry.
  order: { after: ['client'], at: 'client' },

  toJson: databaseToJson,
  fromJson: databaseFromJson,
  problems: (change, item, path) => {
    const problems = databaseProblems(change, item, path);
    const owner = changeId('client', change.client);
    if (change.action === 'create' && change.clientId === null && !change.dependsOn.includes(owner))
      problems.push(`${path}.client_id: null, yet the change does not depend on ${quote(owner)}`);
    return problems;
  },

  subject: databaseSubject,
  lineSubject: (change) => `database ${quote(change.name)}`,
  clientOf: (change) => change.client,
  unicodeOf: () => '',
  details: () => ({ what: '', after: '' }),
  notes: () => [],
  createdParts: databaseCreatedParts,
  updatedParts: (change) => change.fields.map(databaseFieldPart),
  listsParts: false,
  goesWith: databaseGoesWith,
  // Every output marks a database's delete as one that destroys data (the plan document: `destroys_data`).
  deleteTakes: `a database with ${DATABASE_DELETE_TAKES}`,
  // Counted only when some are created: most manifests list none.
  createsRow: 'some',
  // The owner, or the database holding the user, may be another customer's: not named in a comment.
  conflictLine: (c, nameOthers) => (isDatabaseConflict(c) ? databaseConflictText(c, nameOthers) : undefined),
  unknownLine: (u) => (isDatabaseUnknown(u) ? databaseUnknownLine(u) : undefined),
  // Unlisted databases are never deleted: the plan notes them per client (diff-rule.ts unlistedDatabasesNote).

  // A client item's `databases` list, written with --with databases; never a password.
  export: {
    with: 'databases',
    style: { flowValues: ['remote_hosts'] },
    header: "databases: each client's, without passwords; plan never deletes an unlisted one.",
    list: DATABASES_EXPORT,
  },

  // The panel makes no database password: the engine makes every one, written ahead (docs/passwords.md).
  secret: {
    journalKind: DATABASE_KIND_NAME,
    panelMakesOne: DATABASE_PANEL_MAKES_PASSWORD,
    namePattern: DATABASE_SECRET_PATTERN,
    nameRule: DATABASE_SECRET_RULE,
    withPassword: databaseWithPassword,
    resetRequest: databaseResetRequest,
  },
  apply: DATABASE_APPLY,

  // Doctor: its list, after the one that proves the key (docs/doctor.md).
  doctor: DATABASE_DOCTOR,
  // List read: its records when the run asks, and its part of a snapshot.
  read: DATABASE_READ,
  // `databases` under a client item; `prune.databases` refused (deleted only by `state: absent`).
  section: DATABASE_SECTION,

  // Deletes that take data: a parent's delete takes its things, and the data in them (./taken.ts).
  takenWith: DATABASE_TAKEN_WITH,
};
