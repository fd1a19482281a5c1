import { CONNECTION_HELP } from './connection.js';
import { exitCodesHelp } from './exit.js';
import { keygenUsage } from './secrets-keygen.js';
import { resetUsage } from './secrets-reset.js';

/**
 * The help of `provision secrets`, by subcommand: each one's page (`secrets decrypt --help`)
 * holds only the flags it takes; `secrets --help` holds all three, made of the same parts.
 */

export const decryptUsage = 'provision secrets decrypt <secrets-file> [[KIND:]NAME...] [--identity FILE] [--all]';

/** What one subcommand's page is made of. */
interface SubcommandHelp {
  readonly usage: string;
  /** What it does, as the command's summary says it. */
  readonly summary: string;
  /** Its options and notes (`decrypt options:` and what follows). */
  readonly options: string;
  /** Its examples' lines. */
  readonly examples: string;
  /** Whether it reads the panel (its page then says how to connect). */
  readonly connects: boolean;
}

const EXIT_CODES = exitCodesHelp(['ok', 'failure']);

export const SUBCOMMANDS = {
  decrypt: {
    usage: decryptUsage,
    summary:
      "'decrypt' prints the current password of each client (the last record with one), " +
      'or of the ones named (KIND:NAME for a kind other than client, as client:alice or a bare alice), ' +
      'decrypting age-encrypted ones (password_age, written for an age recipient) with the identity file; ' +
      '--all prints every record, the history: ' +
      'pending passwords written ahead of a request and refused requests included. ' +
      'It is the one command whose job is to show passwords: it prints them to stdout; ' +
      'run it where nobody else reads the screen or the log, and redirect it to a protected file rather than a CI log.',
    options: `decrypt options:
  --identity FILE        the age identity file (AGE-SECRET-KEY-1... lines, as age-keygen writes it);
                         needed when the file holds encrypted passwords
  --all                  every record in order (the history), not only each client's current password

Without --all: one line per client with a current password (a null one says it is unknown:
reset it); a client whose newest password is still pending is named on stderr.
Names after the file keep only their records: alice or client:alice for a client, KIND:NAME for
another kind with passwords (an unknown kind, or one without passwords, is refused).`,
    examples: `  provision secrets decrypt secrets.jsonl --identity ~/.config/age/panel.key
  provision secrets decrypt artifact/secrets.jsonl --identity key.txt > passwords.jsonl && chmod 600 passwords.jsonl
  provision secrets decrypt secrets.jsonl --all          # the history: pending and refused records too`,
    connects: false,
  },
  reset: {
    usage: resetUsage,
    summary:
      "'reset' gives each named client (or KIND:NAME) a new password: made here, written ahead to the secrets file as pending, " +
      "then set with PUT /clients/{id} and recorded as the client's password (never printed); " +
      'for a password an interrupted run lost, and for routine rotation.',
    options: `reset options:
  --secrets-file PATH        the secrets file to record the new passwords in (or PROVISION_SECRETS_FILE)
  --secrets-recipient KEY    encrypt each password to this age public key (or PROVISION_SECRETS_RECIPIENT)
  --allow-plaintext-secrets  under CI (CI set, not false or 0), allow writing passwords in clear

Each name is a client's username, or KIND:NAME for another kind with passwords (client:alice is
alice). A name the panel does not have is refused before anything is sent. Each is named as
it is done. Refused (a 4xx), or a client the panel no longer has: recorded as refused, the old
password stays current. No answer, or a refusal after an attempt that got none (the PUT is sent
again then, so the refusal may be of a repeat of one that landed): the new password stays
pending (the panel holds it or the old one), named by decrypt and by the next apply: run the
reset of that client again; it sends another new password.
One apply or reset at a time per secrets file: a second one exits 1 at once, naming the first.`,
    examples: '  provision secrets reset alice bob --secrets-file secrets.jsonl --secrets-recipient age1...',
    connects: true,
  },
  keygen: {
    usage: keygenUsage,
    summary:
      "'keygen' makes an age key pair (no need to install age): " +
      'the identity to a new file, the public key (age1...) for apply and reset to encrypt passwords to.',
    options: `keygen options:
  --out FILE             write the identity (private key) to this new file, mode 0600, as age-keygen
                         writes it; an existing file or a link is refused. Without --out it goes to
                         stdout, which must not be a terminal. The public key ("age1...") goes to stderr.
  --stdout               the identity to stdout (redirected to a safe place): needed under CI without --out,
                         where stdout is the job's log`,
    examples:
      '  provision secrets keygen --out ~/.config/age/panel.key      # prints "Public key: age1..." for the recipient',
    connects: false,
  },
} as const satisfies Readonly<Record<string, SubcommandHelp>>;

export type Subcommand = keyof typeof SUBCOMMANDS;
const NAMES = Object.keys(SUBCOMMANDS) as Subcommand[];

/** The summary of `secrets --help`: each subcommand's in turn. */
export const SECRETS_SUMMARY =
  'Read and repair the passwords of a secrets file. ' + NAMES.map((name) => SUBCOMMANDS[name].summary).join(' ');

/** The help of `secrets --help`: every subcommand's options, how to connect (for reset), all examples. */
export const SECRETS_HELP = `${NAMES.map((name) => SUBCOMMANDS[name].options).join('\n\n')}

${CONNECTION_HELP}

Examples:
${NAMES.map((name) => SUBCOMMANDS[name].examples).join('\n')}

${EXIT_CODES}`;

/** One subcommand's whole page, as main prints a command's: usage, what it does, its own options only. */
export function subcommandPage(name: Subcommand): string {
  const { usage, summary, options, examples, connects } = SUBCOMMANDS[name];
  return (
    `Usage: ${usage}\n\n${summary}\n\n${options}\n\n` +
    `${connects ? `${CONNECTION_HELP}\n\n` : ''}Examples:\n${examples}\n\n${EXIT_CODES}\n`
  );
}

/** The subcommand `args` name first, when it is one (read loosely: a flag's value is never one). */
export function isSubcommand(word: string | undefined): word is Subcommand {
  return word !== undefined && Object.hasOwn(SUBCOMMANDS, word);
}
