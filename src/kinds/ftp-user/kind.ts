/**
 * The FTP user as a kind of the table (../index.ts): what the stages ask of an FTP user's change.
 */
import { quote } from '../../escape.js';
import { changeId } from '../common.js';
import { type Kind, kindWeight } from '../kind.js';
import { FTP_USER_APPLY } from './apply.js';
import {
  FTP_USER_KIND_NAME,
  type FtpUserChange,
  ftpUserConflictText,
  ftpUserRequest,
  isFtpUserConflict,
} from './changes.js';
import { FTP_USER_DOCTOR } from './doctor.js';
import { type FtpUserChangeJson, ftpUserFromJson, ftpUserProblems, ftpUserToJson } from './document.js';
import { FTP_USERS_EXPORT } from './export-edits.js';
import { type FtpUserFactIndex, ftpUserFacts } from './facts.js';
import {
  FTP_USER_NOUN,
  ftpUserCreatedParts,
  ftpUserLineSubject,
  ftpUserSubject,
  ftpUserUpdatedParts,
} from './phrases.js';
import { FTP_USER_READ } from './read.js';
import { FTP_USER_SECTION, ftpUserUnknownLine, isFtpUserUnknown } from './section.js';
import {
  FTP_USER_PANEL_MAKES_PASSWORD,
  FTP_USER_PANEL_NAMING,
  FTP_USER_SECRET_PATTERN,
  FTP_USER_SECRET_RULE,
  ftpUserResetRequest,
  ftpUserWithPassword,
} from './secret.js';

/** What an FTP user's delete takes with it, as the notes on deletes say it: its login only. */
export const FTP_USER_DELETE_TAKES = 'an FTP user alone (the files in its home stay)';

export const FTP_USER_KIND: Kind<
  'ftp_user',
  FtpUserChange,
  FtpUserFactIndex,
  FtpUserChangeJson,
  typeof FTP_USER_READ,
  typeof FTP_USER_SECTION
> = {
  name: FTP_USER_KIND_NAME,
  noun: FTP_USER_NOUN,

  request: ftpUserRequest,
  facts: ftpUserFacts,
  weight: kindWeight,
  waitsForCreatesBelow: false,
  // Nothing beyond its list, which plan/reads.ts reads again for every section kind.
  readsAgain: () => ({}),
  // An FTP user belongs to a client, and its home may name a domain the same run creates: created
  // after both, deleted before them; walked at its client's entry.
  order: { after: ['client', 'domain'], at: 'client' },

  toJson: ftpUserToJson,
  fromJson: ftpUserFromJson,
  problems: (change, item, path) => {
    const problems = ftpUserProblems(change, item, path);
    const owner = changeId('client', change.client);
    if (change.action === 'create' && change.clientId === null && !change.dependsOn.includes(owner))
      problems.push(`${path}.client_id: null, yet the change does not depend on ${quote(owner)}`);
    return problems;
  },

  subject: ftpUserSubject,
  lineSubject: ftpUserLineSubject,
  clientOf: (change) => change.client,
  unicodeOf: () => '',
  details: () => ({ what: '', after: '' }),
  notes: () => [],
  createdParts: ftpUserCreatedParts,
  updatedParts: ftpUserUpdatedParts,
  listsParts: false,
  // The files in its home stay: nothing goes with it.
  goesWith: () => '',
  deleteTakes: FTP_USER_DELETE_TAKES,
  // Counted only when some are created: most manifests list none.
  createsRow: 'some',
  // The owner may be another customer: not named in a comment.
  conflictLine: (c, nameOthers) => (isFtpUserConflict(c) ? ftpUserConflictText(c, nameOthers) : undefined),
  unknownLine: (u) => (isFtpUserUnknown(u) ? ftpUserUnknownLine(u) : undefined),

  // A client item's `ftp_users` list, written with --with ftp-users; never a password.
  export: {
    with: 'ftp-users',
    header: "ftp_users: each client's, without passwords; without prune, so plan deletes none.",
    list: FTP_USERS_EXPORT,
  },

  // The panel makes no FTP user password: the engine makes every one, written ahead
  // (docs/passwords.md); a panel that names the user itself is told after the create.
  secret: {
    journalKind: FTP_USER_KIND_NAME,
    panelMakesOne: FTP_USER_PANEL_MAKES_PASSWORD,
    namePattern: FTP_USER_SECRET_PATTERN,
    nameRule: FTP_USER_SECRET_RULE,
    withPassword: ftpUserWithPassword,
    resetRequest: ftpUserResetRequest,
    panelNaming: FTP_USER_PANEL_NAMING,
  },
  apply: FTP_USER_APPLY,

  // Doctor: its list, after the one that proves the key (docs/doctor.md).
  doctor: FTP_USER_DOCTOR,
  // List read: its records when the run asks, and its part of a snapshot.
  read: FTP_USER_READ,
  // `ftp_users` under a client item, prune.ftp_users, keep patterns by name.
  section: FTP_USER_SECTION,
};
