import { isCi } from '../ci.js';
import { ProvisionError } from '../errors.js';
import { safeText } from '../escape.js';
import type { Redactions } from '../redact.js';
import { secretsGitWarning } from './git.js';
import { SecretsFile } from './file.js';
import type { SecretsSink } from './journal.js';

/**
 * An age recipient, checked before anything is sent. The encryption code (age-encryption)
 * loads only when a recipient is given: it costs every other run start-up time.
 */
export interface Encryption {
  /** Wraps `inner` so that passwords reach it encrypted to the recipient. */
  wrap(file: SecretsFile): SecretsSink;
}

/**
 * The encryption for `recipient` (`age1…`), or undefined when none is given. Clear text only on
 * purpose: an empty recipient (`--secrets-recipient ''`, `PROVISION_SECRETS_RECIPIENT=`) is an
 * error, never "no encryption": an unset CI variable must not turn encryption off silently.
 */
export async function loadEncryption(recipient: string | undefined): Promise<Encryption | undefined> {
  if (recipient === undefined) return undefined;
  if (recipient.trim() === '') {
    throw new ProvisionError('secrets', 'the secrets recipient is empty: nothing was sent', {
      hint:
        'give an age public key ("age1...") with --secrets-recipient or PROVISION_SECRETS_RECIPIENT; ' +
        'to write passwords in clear, unset it instead',
    });
  }
  const { checkRecipient, EncryptingSink } = await import('./encrypt.js');
  const checked = checkRecipient(recipient);
  return { wrap: (inner) => new EncryptingSink(inner, checked) };
}

/**
 * Under CI (`CI` set to anything but `false` or `0`: src/ci.ts), refuses before anything is
 * sent a run that would write passwords in clear (no recipient) unless
 * `--allow-plaintext-secrets` says so: a pipeline's secrets file tends to end up as an
 * artifact. `command` names the command for the message.
 */
export function refusePlaintextInCi(options: {
  readonly encryption: Encryption | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly allowPlaintext: boolean;
  readonly command: string;
}): void {
  if (options.encryption !== undefined || options.allowPlaintext || !isCi(options.env)) return;
  throw new ProvisionError(
    'secrets',
    `${options.command} would write passwords in clear under CI (CI=${safeText(options.env.CI ?? '')}): ` +
      'nothing was sent',
    {
      hint:
        'give an age public key with --secrets-recipient or PROVISION_SECRETS_RECIPIENT, ' +
        'or say --allow-plaintext-secrets',
    },
  );
}

/**
 * Refuses, before anything is asked or sent, a run that writes passwords (apply creating
 * clients, secrets reset) without a secrets file: they would have nowhere to go. `what` says
 * why the run writes any.
 */
export function requireSecretsPath(
  path: string | undefined,
  what = 'this apply creates clients, and their passwords need',
): string {
  if (path === undefined || path === '') {
    throw new ProvisionError('secrets', `${what} a secrets file: nothing was sent`, {
      hint:
        'give --secrets-file PATH or set PROVISION_SECRETS_FILE ' +
        '(a JSON Lines file, created with mode 0600, outside git)',
    });
  }
  return path;
}

/** The secrets destination of one run, open: write through `sink`, then `close`. */
interface OpenSink {
  readonly sink: SecretsSink;
  readonly path: string;
  readonly encrypted: boolean;
  /** Sentences for the user (the file lies in a git work tree without being ignored). */
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

/**
 * Opens the secrets destination, composed from the inside out: the file (created 0600,
 * flushed per record), then encryption (when a recipient is given), then redaction: each
 * password joins the run's redaction set as it is recorded, so nothing can print it after.
 * Called before any request is sent, so a bad path fails early.
 */
export async function openSecretsSink(options: {
  readonly path: string;
  readonly encryption: Encryption | undefined;
  readonly redactions: Redactions;
  /**
   * git's verdict on `path` (secretsGitWarning), when the caller started it earlier: git runs as
   * a process of its own, so apply starts it as it takes the lock and reads the panel
   * meanwhile, rather than waiting for it between the plan and the first request.
   */
  readonly gitWarning?: Promise<string | undefined>;
}): Promise<OpenSink> {
  const file = await SecretsFile.open(options.path);
  const warning = await (options.gitWarning ?? secretsGitWarning(options.path));
  const inner = options.encryption === undefined ? file : options.encryption.wrap(file);
  return {
    sink: redacting(inner, options.redactions),
    path: options.path,
    encrypted: options.encryption !== undefined,
    warnings: warning === undefined ? [] : [warning],
    close: () => file.close(),
  };
}

/**
 * Adds each password to the run's redaction set as it is written, a pending one included
 * (before its request leaves): it can then never be printed.
 */
function redacting(inner: SecretsSink, redactions: Redactions): SecretsSink {
  return {
    intend: (entry) => {
      if (entry.pending_password !== undefined) redactions.add(entry.pending_password);
      return inner.intend(entry);
    },
    refused: (entry) => inner.refused(entry),
    record: (entry) => {
      if ('password' in entry && entry.password !== null) redactions.add(entry.password);
      return inner.record(entry);
    },
  };
}
