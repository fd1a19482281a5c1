import { ProvisionError } from '../errors.js';
import type { Redactions } from '../redact.js';
import { secretsGitWarning } from './git.js';
import { SecretsFile, type SecretsSink } from './journal.js';

/**
 * An age recipient, checked before anything is sent. The encryption code (age-encryption)
 * loads only when a recipient is given: it costs every other run start-up time.
 */
export interface Encryption {
  /** Wraps `inner` so that passwords reach it encrypted to the recipient. */
  wrap(file: SecretsFile): SecretsSink;
}

/** The encryption for `recipient` (`age1…`), or undefined when none is given (undefined or ''). */
export async function loadEncryption(recipient: string | undefined): Promise<Encryption | undefined> {
  if (recipient === undefined || recipient === '') return undefined;
  const { checkRecipient, EncryptingSink } = await import('./encrypt.js');
  const checked = checkRecipient(recipient);
  return { wrap: (inner) => new EncryptingSink(inner, checked) };
}

/**
 * Refuses, before anything is asked or sent, a run that creates clients without a secrets
 * file: their passwords would have nowhere to go.
 */
export function requireSecretsPath(path: string | undefined): string {
  if (path === undefined || path === '') {
    throw new ProvisionError('secrets', 'this apply creates clients, and their passwords need a secrets file: nothing was sent', {
      hint: 'give --secrets-file PATH or set PROVISION_SECRETS_FILE (a JSON Lines file, created with mode 0600, outside git)',
    });
  }
  return path;
}

/** The secrets destination of one run, open: write through `sink`, then `close`. */
export interface OpenSink {
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
export async function openSecretsSink(options: { readonly path: string; readonly encryption: Encryption | undefined; readonly redactions: Redactions }): Promise<OpenSink> {
  const file = await SecretsFile.open(options.path);
  const warning = await secretsGitWarning(options.path);
  const inner = options.encryption === undefined ? file : options.encryption.wrap(file);
  return {
    sink: redacting(inner, options.redactions),
    path: options.path,
    encrypted: options.encryption !== undefined,
    warnings: warning === undefined ? [] : [warning],
    close: () => file.close(),
  };
}

/** Adds each password to the run's redaction set as it is recorded: it can then never be printed. */
function redacting(inner: SecretsSink, redactions: Redactions): SecretsSink {
  return {
    intend: (entry) => inner.intend(entry),
    refused: (entry) => inner.refused(entry),
    record: (entry) => {
      if (entry.password !== null) redactions.add(entry.password);
      return inner.record(entry);
    },
  };
}
