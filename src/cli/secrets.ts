import { parseArgs } from 'node:util';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { decryptPassword, parseIdentities } from '../secrets/encrypt.js';
import { readJournal } from '../secrets/file.js';
import {
  type Entry,
  hasPending,
  holderOf,
  parseJournal,
  passwordStates,
  skippedLineWarning,
} from '../secrets/journal.js';
import { parseSecretName, secretLabel } from '../secrets/kinds.js';
import { plural } from '../util.js';
import type { Command } from './args.js';
import { parseCommandLine } from './args.js';
import { EXIT } from './exit.js';
import { readText } from './files.js';
import type { Io } from './io.js';
import { KEYGEN_OPTIONS, keygenUsage, runKeygen } from './secrets-keygen.js';
import { refuseFlags, RESET_OPTIONS, resetUsage, runReset } from './secrets-reset.js';
import { decryptUsage, isSubcommand, SECRETS_HELP, SECRETS_SUMMARY, subcommandPage } from './secrets-help.js';

const DECRYPT_OPTIONS = {
  identity: { type: 'string' },
  all: { type: 'boolean', default: false },
} as const;
/** The subcommands' flags: each refuses the others'. */
const OPTIONS = { ...DECRYPT_OPTIONS, ...RESET_OPTIONS, ...KEYGEN_OPTIONS } as const;

const usage = `${decryptUsage}\n       ${resetUsage}\n       ${keygenUsage}`;

export const secrets: Command = {
  usage,
  options: OPTIONS,
  summary: SECRETS_SUMMARY,
  help: SECRETS_HELP,
  helpFor(args) {
    const subcommand = firstPositional(args);
    return isSubcommand(subcommand) ? subcommandPage(subcommand) : undefined;
  },
  async run(args, io, credentials) {
    const subcommand = firstPositional(args);
    switch (subcommand) {
      case 'decrypt':
        return decrypt(args, io);
      case 'reset':
        refuseFlags(args, OPTIONS, DECRYPT_OPTIONS, 'decrypt', resetUsage);
        refuseFlags(args, OPTIONS, KEYGEN_OPTIONS, 'keygen', resetUsage);
        return runReset(args, io, credentials);
      case 'keygen':
        refuseFlags(args, OPTIONS, DECRYPT_OPTIONS, 'decrypt', keygenUsage);
        refuseFlags(args, OPTIONS, RESET_OPTIONS, 'reset', keygenUsage);
        return runKeygen(args, io, credentials);
      default:
        throw new ProvisionError('usage', `unknown secrets subcommand ${quote(subcommand ?? '')}`, {
          hint: `usage: ${usage}`,
        });
    }
  },
};

/** The subcommand: the first positional, read loosely (each subcommand parses strictly). */
function firstPositional(args: readonly string[]): string | undefined {
  const { positionals } = parseArgs({
    args: [...args],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
  });
  return positionals[0];
}

async function decrypt(args: readonly string[], io: Io): Promise<typeof EXIT.ok> {
  refuseFlags(args, OPTIONS, RESET_OPTIONS, 'reset', decryptUsage);
  refuseFlags(args, OPTIONS, KEYGEN_OPTIONS, 'keygen', decryptUsage);
  const { values, positionals } = parseCommandLine(args, DECRYPT_OPTIONS, { atLeast: 2 }, decryptUsage);
  const file = positionals[1] ?? '';
  /**
   * The things named after the file, by kind and name (`alice` and `client:alice` are one); none:
   * every one. Keyed as given, never by the printed `[KIND:]NAME`, which a name with a colon
   * would read back as another kind.
   */
  const named = new Map(
    positionals.slice(2).map((arg) => {
      const thing = parseSecretName(arg);
      return [JSON.stringify([thing.kind, thing.name]), thing] as const;
    }),
  );
  const isNamed = (holder: { readonly kind: string; readonly name: string } | undefined): boolean =>
    holder !== undefined && named.has(JSON.stringify([holder.kind, holder.name]));
  const wanted = (entry: Entry): boolean => named.size === 0 || isNamed(holderOf(entry));
  // Through the journal's own reader: a link, a pipe or a device is refused, as apply refuses it.
  const text = await readJournal(file, { required: true });
  const identities =
    values.identity === undefined
      ? undefined
      : parseIdentities(await readText(values.identity, io, 'identity file'), values.identity);
  const lines = parseJournal(text);
  for (const line of lines)
    if (line.kind === 'unreadable') io.stderr.write(`warning: ${skippedLineWarning(file, line)}\n`);
  const reveal = async (at: { readonly line: number; readonly entry: Entry }): Promise<Entry> => {
    let entry = at.entry;
    for (const [armoredKey, clearKey] of [
      ['password_age', 'password'],
      ['pending_password_age', 'pending_password'],
    ] as const) {
      const armored = entry[armoredKey];
      if (typeof armored !== 'string') continue;
      if (identities === undefined)
        throw new ProvisionError('usage', `${file} holds encrypted passwords: give --identity FILE`, {
          hint: `usage: ${decryptUsage}`,
        });
      let password: string;
      try {
        password = await decryptPassword(armored, identities);
      } catch (error) {
        throw new ProvisionError(
          'secrets',
          `${file}:${at.line}: cannot decrypt the password of ${JSON.stringify(holderOf(entry)?.name ?? entry.username)} ` +
            `(${(error as Error).message})`,
          {
            hint: 'give the identity whose public key was passed as --secrets-recipient',
          },
        );
      }
      entry = Object.fromEntries(
        Object.entries(entry).map(([key, value]) => (key === armoredKey ? [clearKey, password] : [key, value])),
      );
    }
    return entry;
  };
  let records = 0;
  if (values.all) {
    for (const line of lines) {
      if (line.kind === 'unreadable' || !wanted(line.entry)) continue;
      io.stdout.write(`${JSON.stringify(await reveal(line))}\n`);
      records++;
    }
    await io.stdout.flushed?.();
    io.stderr.write(`${plural(records, 'record')}\n`);
    return EXIT.ok;
  }
  const states = [...passwordStates(lines).values()].filter((state) => named.size === 0 || isNamed(state));
  for (const state of states) {
    if (state.current !== undefined) {
      io.stdout.write(`${JSON.stringify(await reveal(state.current))}\n`);
      records++;
    }
    // Every open pending line: after two runs that lost their answers, the panel may hold either.
    const pending = state.open.filter((intent) => hasPending(intent.entry));
    if (pending.length > 0) {
      const where = pending.map((intent) => `${file}:${intent.line}`).join(', ');
      const what =
        pending.length === 1
          ? "a pending one (its request's outcome is unknown)"
          : `${pending.length} pending ones (their requests' outcomes are unknown)`;
      io.stderr.write(
        state.current === undefined
          ? `${where}: ${secretLabel(state.kind, state.name)} has no current password, only ${what}: ` +
              'see --all, and run apply or secrets reset again\n'
          : pending.length === 1
            ? `${where}: ${secretLabel(state.kind, state.name)} has a newer password pending ` +
              "(its request's outcome is unknown): the panel holds it or the current one: " +
              'see --all, and run secrets reset again\n'
            : `${where}: ${secretLabel(state.kind, state.name)} has ${pending.length} newer passwords pending ` +
              "(their requests' outcomes are unknown): the panel holds one of them or the current one: " +
              'see --all, and run secrets reset again\n',
      );
    }
  }
  for (const { kind, name } of named.values())
    if (!states.some((state) => state.kind === kind && state.name === name))
      io.stderr.write(`${file}: no record of ${secretLabel(kind, name)}\n`);
  await io.stdout.flushed?.();
  io.stderr.write(`${plural(records, 'record')}\n`);
  return EXIT.ok;
}
