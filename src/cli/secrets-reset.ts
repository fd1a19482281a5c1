import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resetClients, type ResetOutcome, resetTargets } from '../api/reset.js';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { generatePassword } from '../secrets/password.js';
import { badSecretNames, parseSecretName, secretArg, type SecretName, secretLabel } from '../secrets/kinds.js';
import { isClientKind } from '../secrets/journal.js';
import { SecretsLock } from '../secrets/lock.js';
import {
  type Encryption,
  loadEncryption,
  openSecretsSink,
  refusePlaintextInCi,
  requireSecretsPath,
} from '../secrets/sink.js';
import { assertNever, plural } from '../util.js';
import type { Credentials } from './args.js';
import { parseCommandLine } from './args.js';
import { connect, CONNECTION_OPTIONS, type ConnectionValues } from './connection.js';
import { EXIT, type ExitCode } from './exit.js';
import type { Io } from './io.js';
import { journalPrinter } from './prepare.js';

/** `secrets reset`'s flags: the connection's, and where the passwords go. */
export const RESET_OPTIONS = {
  ...CONNECTION_OPTIONS,
  'secrets-file': { type: 'string' },
  'secrets-recipient': { type: 'string' },
  'allow-plaintext-secrets': { type: 'boolean', default: false },
} as const;

export const resetUsage =
  'provision secrets reset [KIND:]NAME... [--secrets-file PATH] [--secrets-recipient AGE_KEY] ' +
  '[--allow-plaintext-secrets]';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Refuses a flag of `theirs` (another subcommand's), naming that subcommand; `all` reads the arguments loosely. */
export function refuseFlags(
  args: readonly string[],
  all: Options,
  theirs: Options,
  other: string,
  usage: string,
): void {
  const { tokens } = parseArgs({
    args: [...args],
    options: all,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'option' && token.name in theirs) {
      throw new ProvisionError('usage', `--${token.name} is an option of secrets ${other}`, {
        hint: `usage: ${usage}`,
      });
    }
  }
}

/**
 * `provision secrets reset [KIND:]NAME...` (a bare name is a client's username): checks
 * everything it can before any request (the kinds and names, the secrets file, the recipient,
 * clear text under CI), looks each one up by name (a name the panel does not have is refused,
 * naming it, before anything is sent), settles what an interrupted apply left for them
 * (secrets/recovery.ts), then resets them in order (apply/reset.ts), naming each as it is
 * done. EXIT.ok when every one is reset, else EXIT.failure.
 */
export async function runReset(args: readonly string[], io: Io, credentials: Credentials): Promise<ExitCode> {
  const { values, positionals } = parseCommandLine(args, RESET_OPTIONS, { atLeast: 1 }, resetUsage);
  if (positionals.length < 2)
    throw new ProvisionError('usage', 'secrets reset needs at least one username', {
      hint: `usage: ${resetUsage}`,
    });
  const names = positionals.slice(1).map(parseSecretName);
  const { bad, rule } = badSecretNames(names);
  if (bad.length > 0) {
    const clients = names.every(({ kind }) => isClientKind(kind));
    throw new ProvisionError(
      'usage',
      `not a ${clients ? 'username' : 'name'}: ${bad.map(quote).join(', ')}: nothing was sent`,
      {
        hint: rule,
      },
    );
  }
  const given = names.map(({ kind, name }) => secretArg(kind, name));
  const twice = given.filter((arg, i) => given.indexOf(arg) !== i);
  if (twice.length > 0)
    throw new ProvisionError('usage', `${quote(twice[0] ?? '')} is named twice: nothing was sent`, {
      hint: `name each ${names.every(({ kind }) => isClientKind(kind)) ? 'client' : 'one'} once; usage: ${resetUsage}`,
    });
  const encryption = await loadEncryption(values['secrets-recipient'] ?? io.env.PROVISION_SECRETS_RECIPIENT);
  const path = requireSecretsPath(
    values['secrets-file'] ?? io.env.PROVISION_SECRETS_FILE,
    'secrets reset writes the new passwords to',
  );
  refusePlaintextInCi({
    encryption,
    env: io.env,
    allowPlaintext: values['allow-plaintext-secrets'],
    command: 'secrets reset',
  });

  // One apply or secrets reset at a time per secrets file, for the whole run (docs/passwords.md): a
  // second one refuses here, before it connects.
  const lock = await SecretsLock.acquire(path, 'secrets reset');
  try {
    return await resetUnderLock(names, path, encryption, values, io, credentials);
  } finally {
    await lock.release();
  }
}

/** The reset itself, once the secrets file is ours: look-ups, repairs, then the resets in order. */
async function resetUnderLock(
  names: readonly SecretName[],
  path: string,
  encryption: Encryption | undefined,
  values: ConnectionValues,
  io: Io,
  credentials: Credentials,
): Promise<ExitCode> {
  const panel = await connect(values, io, credentials);
  try {
    // A password an interrupted apply wrote ahead for one of them is current before it is replaced.
    const targets = await resetTargets(panel, names, {
      path,
      redactions: credentials.redactions,
      onEvent: journalPrinter(io),
    });
    const sink = await openSecretsSink({ path, encryption, redactions: credentials.redactions });
    for (const warning of sink.warnings) io.stderr.write(`warning: ${warning}\n`);
    const controller = new AbortController();
    let running = true;
    void io.untilStopped().then(() => {
      if (!running) return;
      controller.abort();
      io.stderr.write('interrupted: the request in flight finishes; nothing new is sent\n');
    });
    let outcomes: ResetOutcome[];
    try {
      outcomes = await resetClients(panel, sink.sink, targets, {
        newPassword: () => generatePassword(),
        signal: controller.signal,
        onOutcome: (outcome) => {
          io.stdout.write(`${outcomeLine(outcome)}\n`);
        },
      });
    } finally {
      running = false;
      await sink.close();
    }
    const done = outcomes.filter((o) => o.status === 'reset').length;
    io.stderr.write(
      `${plural(done, 'password')} of ${names.length} reset; the new ones are in ${path}` +
        `${sink.encrypted ? ', encrypted to the age recipient' : ''}.\n`,
    );
    return done === outcomes.length ? EXIT.ok : EXIT.failure;
  } finally {
    await panel.close();
  }
}

/** One line per thing, never its password. */
function outcomeLine(outcome: ResetOutcome): string {
  const who = `${secretLabel(outcome.kind, outcome.name)} (id ${outcome.id})`;
  switch (outcome.status) {
    case 'reset':
      return `✓ ${who}: new password set and recorded`;
    case 'refused':
      return `✗ ${who}: refused (${outcome.why}): its password stays as it was`;
    case 'unknown':
      return (
        `✗ ${who}: ${outcome.why}: the new password stays pending; the panel holds it or the old one: ` +
        `run secrets reset ${secretArg(outcome.kind, outcome.name)} again`
      );
    case 'skipped':
      return `- ${who}: not reset: ${outcome.why}`;
    default:
      return assertNever(outcome);
  }
}
