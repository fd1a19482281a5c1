import { readFile } from 'node:fs/promises';
import { decryptPassword, parseIdentities } from '../apply/encrypt.js';
import { ProvisionError } from '../errors.js';
import type { Command } from './args.js';
import { parseCommandLine } from './args.js';

const OPTIONS = { identity: { type: 'string' } } as const;
const usage = 'provision secrets decrypt <secrets-file> [--identity FILE]';

export const secretsCommand: Command = {
  usage,
  options: OPTIONS,
  summary:
    "Print the records of a secrets file written by apply, one JSON line per created client, with each password in clear: age-encrypted ones (password_age, from --secrets-recipient) are decrypted with the identity file. This is the one command whose job is to show passwords: it prints them to stdout; run it where nobody else reads the screen or the log, and redirect it to a protected file rather than a CI log.",
  help: `Options:
  --identity FILE        the age identity file (AGE-SECRET-KEY-1... lines, as age-keygen writes it);
                         needed when the file holds encrypted passwords

Write-ahead intent lines are left out; a record whose password is null (lost) says so.

Examples:
  provision secrets decrypt secrets.jsonl --identity ~/.config/age/panel.key
  provision secrets decrypt artifact/secrets.jsonl --identity key.txt > passwords.jsonl && chmod 600 passwords.jsonl`,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, OPTIONS, 2, usage);
    if (positionals[0] !== 'decrypt') {
      throw new ProvisionError('usage', `unknown secrets subcommand "${positionals[0] ?? ''}"`, { hint: `usage: ${usage}` });
    }
    const file = positionals[1] ?? '';
    const text = await readText(file, 'secrets file');
    const identities = values.identity === undefined ? undefined : parseIdentities(await readText(values.identity, 'identity file'), values.identity);
    const lines = text.split('\n');
    let records = 0;
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        io.stderr.write(`warning: ${file}:${i + 1}: not a JSON record (torn by a crash?): skipped\n`);
        continue;
      }
      if (typeof entry !== 'object' || !('id' in entry)) continue; // intents and markers
      const { password_age: armored, ...rest } = entry;
      if (typeof armored === 'string') {
        if (identities === undefined) {
          throw new ProvisionError('usage', `${file} holds encrypted passwords: give --identity FILE`, { hint: `usage: ${usage}` });
        }
        let password: string;
        try {
          password = await decryptPassword(armored, identities);
        } catch (error) {
          throw new ProvisionError('secrets', `${file}:${i + 1}: cannot decrypt the password of "${String(entry.username)}" (${(error as Error).message})`, {
            hint: 'give the identity whose public key was passed as --secrets-recipient',
          });
        }
        io.stdout.write(`${JSON.stringify({ ...rest, password })}\n`);
      } else {
        io.stdout.write(`${JSON.stringify(entry)}\n`);
      }
      records++;
    }
    io.stderr.write(`${records} record${records === 1 ? '' : 's'}\n`);
    return 0;
  },
};

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ProvisionError('usage', `cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
