import { open, rm } from 'node:fs/promises';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { isCi } from '../ci.js';
import { errnoCode, ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { Credentials } from './args.js';
import { parseCommandLine } from './args.js';
import { EXIT } from './exit.js';
import { checkOutPath } from './files.js';
import type { Io } from './io.js';

/** `secrets keygen`'s flags. */
export const KEYGEN_OPTIONS = {
  out: { type: 'string' },
  stdout: { type: 'boolean', default: false },
} as const;

export const keygenUsage = 'provision secrets keygen [--out FILE | --stdout]';

/**
 * `provision secrets keygen [--out FILE | --stdout]`: an age key pair, as `age-keygen` makes it
 * (so users need not install age). The identity file (`# created:`, `# public key:`, the
 * AGE-SECRET-KEY-1… line) goes to a new file of mode 0600, never over an existing file or
 * through a link, or to stdout when stdout is not a terminal (a private key is not for the
 * screen or its scrollback), and under CI only with --stdout (a job's output is its log, kept
 * and shown to everyone who can see the run). The public key goes to stderr: it is what
 * --secrets-recipient and PROVISION_SECRETS_RECIPIENT take. Once written, the private key joins
 * the run's redaction set, so nothing else the run prints can hold it.
 */
export async function runKeygen(args: readonly string[], io: Io, credentials: Credentials): Promise<typeof EXIT.ok> {
  const { values } = parseCommandLine(args, KEYGEN_OPTIONS, 1, keygenUsage);
  const out = checkOutPath(
    values.out,
    '--out',
    'without --out the identity goes to stdout when that is not a terminal',
  );
  if (out !== undefined && values.stdout) {
    throw new ProvisionError('usage', '--out and --stdout both say where the identity goes: nothing was made', {
      hint: `give one of them; usage: ${keygenUsage}`,
    });
  }
  if (out === undefined && io.stdout.isTTY) {
    throw new ProvisionError('usage', 'secrets keygen would print a private key on the terminal: nothing was made', {
      hint: `give --out FILE (a new file, mode 0600), or redirect stdout to a file; usage: ${keygenUsage}`,
    });
  }
  if (out === undefined && !values.stdout && isCi(io.env)) {
    throw new ProvisionError(
      'usage',
      "secrets keygen under CI would print a private key into the job's log: nothing was made",
      {
        hint:
          'give --out FILE (a new file, mode 0600); or --stdout when stdout is redirected to a safe place; ' +
          `usage: ${keygenUsage}`,
      },
    );
  }
  const identity = await generateIdentity();
  const recipient = await identityToRecipient(identity);
  const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const text = `# created: ${created}\n# public key: ${recipient}\n${identity}\n`;
  if (out === undefined) {
    // The one output meant to hold it; the redaction set takes it only after (it would blank it here).
    io.stdout.write(text);
    credentials.redactions.add(identity);
  } else {
    credentials.redactions.add(identity);
    await writeNewPrivateFile(out, text);
  }
  io.stderr.write(`Public key: ${recipient}\n`);
  io.stderr.write(
    out === undefined
      ? 'Give the public key to --secrets-recipient or PROVISION_SECRETS_RECIPIENT; ' +
          'keep the identity secret: secrets decrypt --identity reads it.\n'
      : `The identity (private key) is in ${quote(out)}, mode 0600: keep it secret, outside the repository; ` +
          `secrets decrypt --identity ${quote(out)} reads the passwords back. ` +
          'Give the public key to --secrets-recipient or PROVISION_SECRETS_RECIPIENT.\n',
  );
  return EXIT.ok;
}

/**
 * Creates `path` with `text`, mode 0600, exclusively: an existing file (a key made before), a
 * symbolic link (even a dangling one) or anything else there is refused and left as it is.
 * Not through files.ts writeAtomically: that one replaces files (keeping their mode), and a
 * key file is never replaced.
 */
async function writeNewPrivateFile(path: string, text: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') {
      throw new ProvisionError(
        'io',
        `${path} exists already: nothing was written ` +
          '(secrets keygen never replaces a file: it may hold the key that decrypts your passwords)',
        {
          hint: 'give the path of a new file, or move the old one away first if it is really not needed',
        },
      );
    }
    throw new ProvisionError('io', `cannot create ${path}: ${code}`, {
      hint: 'check that the directory exists and is writable',
    });
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (error) {
    await rm(path, { force: true }).catch(() => undefined);
    throw new ProvisionError('io', `cannot write ${path}: ${errnoCode(error)}: nothing was kept`, {
      hint: 'check the free space and the directory',
    });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
