import { armor, Decrypter, Encrypter } from 'age-encryption';
import { ProvisionError } from '../errors.js';
import type { SecretsFile } from './file.js';
import type {
  EncryptedIntentRecord,
  EncryptedSecretRecord,
  IntentRecord,
  RefusedRecord,
  SecretRecord,
  SecretsSink,
} from './journal.js';

/*
 * Encrypted records (EncryptedSecretRecord and EncryptedIntentRecord, in journal.ts) keep
 * usernames and ids readable, so the file can be kept as a CI artifact and the write-ahead
 * intents work unchanged; only whoever holds the private key can read the passwords, pending
 * ones included.
 */

/** Checks an age recipient (`age1…`, X25519 or hybrid) before anything is sent. */
export function checkRecipient(recipient: string): string {
  const trimmed = recipient.trim();
  try {
    new Encrypter().addRecipient(trimmed);
  } catch (error) {
    throw new ProvisionError(
      'secrets',
      `the secrets recipient is not an age public key (${(error as Error).message})`,
      {
        hint:
          'give the "age1…" line that age-keygen prints as "Public key", ' +
          'with --secrets-recipient or PROVISION_SECRETS_RECIPIENT',
      },
    );
  }
  return trimmed;
}

/** Encrypts one password to `recipient`, armored (ASCII, fits one JSON string). */
async function encryptPassword(password: string, recipient: string): Promise<string> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  return armor.encode(await encrypter.encrypt(password));
}

/**
 * A SecretsSink that encrypts each password, current or pending, before handing the record on.
 * A record without one (an intent without a pending password, `password: null`) passes
 * unchanged: there is nothing to hide. The plaintext never reaches `inner`.
 */
export class EncryptingSink implements SecretsSink {
  constructor(
    private readonly inner: Pick<SecretsFile, 'intend' | 'record' | 'refused'>,
    private readonly recipient: string,
  ) {}

  async intend(entry: IntentRecord): Promise<void> {
    if (entry.pending_password === undefined) return this.inner.intend(entry);
    const { pending_password: password, ...rest } = entry;
    const encrypted: EncryptedIntentRecord = {
      ...rest,
      pending_password_age: await encryptPassword(password, this.recipient),
    };
    return this.inner.intend(encrypted);
  }

  refused(entry: RefusedRecord): Promise<void> {
    return this.inner.refused(entry);
  }

  async record(entry: SecretRecord | EncryptedSecretRecord): Promise<void> {
    if ('password_age' in entry || entry.password === null) return this.inner.record(entry);
    const { password, ...rest } = entry;
    const encrypted: EncryptedSecretRecord = {
      ...rest,
      password_age: await encryptPassword(password, this.recipient),
    };
    return this.inner.record(encrypted);
  }
}

/**
 * The age identities (`AGE-SECRET-KEY-1…` lines) of an identity file as age-keygen writes
 * it: comments (#) and blank lines ignored. Throws 'secrets' when there is none or one is bad.
 */
export function parseIdentities(text: string, source: string): string[] {
  const identities = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (identities.length === 0) {
    throw new ProvisionError('secrets', `${source} holds no age identity`, {
      hint: 'give the file age-keygen wrote (a line starting AGE-SECRET-KEY-1)',
    });
  }
  for (const [i, identity] of identities.entries()) {
    try {
      new Decrypter().addIdentity(identity);
    } catch {
      throw new ProvisionError('secrets', `${source}: line ${i + 1} of its identities is not an age secret key`, {
        hint: 'give the file age-keygen wrote (lines starting AGE-SECRET-KEY-1); the file is never printed',
      });
    }
  }
  return identities;
}

/** Decrypts an armored `password_age` with any of `identities`. */
export async function decryptPassword(armored: string, identities: readonly string[]): Promise<string> {
  const decrypter = new Decrypter();
  for (const identity of identities) decrypter.addIdentity(identity);
  return decrypter.decrypt(armor.decode(armored), 'text');
}
