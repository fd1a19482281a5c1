/** The mailbox as a kind of the table (../index.ts): what the stages ask of a mailbox's change. */
import { MAILBOX_READ } from './read.js';
import { MAILBOXES_EXPORT } from './export-edits.js';
import { MAILBOX_DOCTOR } from './doctor.js';
import { MAILBOX_APPLY } from './apply.js';
import { MAILBOX_TAKEN_WITH } from './taken.js';
import { type Kind, kindWeight } from '../kind.js';
import { MAILBOX_KIND_NAME, type MailboxChange, mailboxRequest } from './changes.js';
import { domainOf, unicodeAddressForm } from './address.js';
import { type MailboxChangeJson, mailboxFromJson, mailboxProblems, mailboxToJson } from './document.js';
import { type MailboxFactIndex, mailboxFacts } from './facts.js';
import {
  isMailboxConflict,
  isMailboxUnknown,
  MAILBOX_SECTION,
  mailboxConflictText,
  mailboxUnknownLine,
} from './section.js';
import {
  createdLine,
  createdParts,
  goesWith,
  MAILBOX_DELETE_TAKES,
  MAILBOX_NOUN,
  mailboxLineSubject,
  mailboxSubject,
  updatedParts,
} from './phrases.js';
import {
  MAILBOX_NAME_PATTERN,
  MAILBOX_NAME_RULE,
  MAILBOX_PANEL_MAKES_PASSWORD,
  mailboxResetRequest,
  mailboxSecretName,
  mailboxWithPassword,
} from './secret.js';

export const MAILBOX_KIND: Kind<
  typeof MAILBOX_KIND_NAME,
  MailboxChange,
  MailboxFactIndex,
  MailboxChangeJson,
  typeof MAILBOX_READ,
  typeof MAILBOX_SECTION
> = {
  name: MAILBOX_KIND_NAME,
  noun: MAILBOX_NOUN,

  request: mailboxRequest,
  facts: mailboxFacts,
  // A create counts 1, a delete 1 (the mail stored in it goes with it, nothing else).
  weight: kindWeight,
  waitsForCreatesBelow: false,
  // Nothing beyond its list, which plan/reads.ts reads again for every section kind.
  readsAgain: () => ({}),
  // A mailbox is on a domain of its client: after both are created, deleted before them; walked
  // at its domain's entry (placedAt).
  order: { after: ['client', 'domain'], at: 'domain' },

  toJson: mailboxToJson,
  fromJson: mailboxFromJson,
  problems: (change, item, path) => mailboxProblems(change, item, path),

  subject: mailboxSubject,
  lineSubject: mailboxLineSubject,
  clientOf: (change) => change.client,
  unicodeOf: (change) => unicodeAddressForm(change.name),
  details: () => ({ what: '', after: '' }),
  notes: () => [],
  createdParts: (change) => createdParts(change.wants),
  updatedParts,
  // Its parts are short (`quota 2 GiB`, `1 alias`): one line.
  listsParts: false,
  goesWith,
  deleteTakes: `a mailbox with ${MAILBOX_DELETE_TAKES}`,
  // Counted only when some are created: most plans create none.
  createsRow: 'some',
  // A mailbox on a domain of another client (the owner named only when `nameOthers`).
  conflictLine: (c, nameOthers) => (isMailboxConflict(c) ? mailboxConflictText(c, nameOthers) : undefined),
  unknownLine: (u) => (isMailboxUnknown(u) ? mailboxUnknownLine(u) : undefined),

  // A domain item's `mailboxes` list, written with --with mailboxes (quota in its largest whole
  // unit, aliases and forwardings on one line); never a password.
  export: {
    with: 'mailboxes',
    header: "mailboxes: each domain's, without passwords; without prune, so plan deletes none.",
    style: { flowValues: ['aliases', 'forwardings'] },
    list: MAILBOXES_EXPORT,
  },
  secret: {
    journalKind: MAILBOX_KIND_NAME,
    panelMakesOne: MAILBOX_PANEL_MAKES_PASSWORD,
    namePattern: MAILBOX_NAME_PATTERN,
    nameRule: MAILBOX_NAME_RULE,
    withPassword: mailboxWithPassword,
    resetRequest: mailboxResetRequest,
    secretName: mailboxSecretName,
  },
  apply: MAILBOX_APPLY,

  // Doctor: its list's shape (a panel may lack it: docs/doctor.md).
  doctor: MAILBOX_DOCTOR,
  // List read: GET /emails, only when the run asks for mailboxes; its part of a snapshot.
  read: MAILBOX_READ,

  // Walked at its domain's entry; a create says its parts in parentheses.
  placedAt: (change) => (change.action === 'create' ? change.domain : domainOf(change.name)),
  partsLine: (change) => (change.action === 'create' ? createdLine(change) : undefined),
  // `mailboxes` under a domain item, prune.mailboxes, keep patterns with `@`; what frees an
  // address, an alias or a catch-all goes before what takes it (./section.ts arrange).
  section: MAILBOX_SECTION,

  // Deletes that take data: a parent's delete takes its things, and the data in them (./taken.ts).
  takenWith: MAILBOX_TAKEN_WITH,
};
