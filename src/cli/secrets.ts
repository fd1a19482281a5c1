import { ProvisionError } from '../errors.js';
import { decryptPassword, parseIdentities } from '../secrets/encrypt.js';
import { parseJournal, readJournal, skippedLineWarning } from '../secrets/journal.js';
import { plural } from '../util.js';
import type { Command } from './args.js';
import { parseCommandLine } from './args.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { readText } from './files.js';
import { quote } from '../escape.js';

const OPTIONS = { identity: { type: 'string' } } as const;
const usage = 'provision secrets decrypt <secrets-file> [--identity FILE]';

export const secrets: Command = {
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
  provision secrets decrypt artifact/secrets.jsonl --identity key.txt > passwords.jsonl && chmod 600 passwords.jsonl

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, OPTIONS, 2, usage);
    if (positionals[0] !== 'decrypt') {
      throw new ProvisionError('usage', `unknown secrets subcommand ${quote(positionals[0] ?? '')}`, { hint: `usage: ${usage}` });
    }
    const file = positionals[1] ?? '';
    // Through the journal's own reader: a link, a pipe or a device is refused, as apply refuses it.
    const text = await readJournal(file, { required: true });
    const identities = values.identity === undefined ? undefined : parseIdentities(await readText(values.identity, io, 'identity file'), values.identity);
    let records = 0;
    for (const line of parseJournal(text)) {
      if (line.kind === 'unreadable') {
        io.stderr.write(`${skippedLineWarning(file, line)}\n`);
        continue;
      }
      if (line.kind !== 'created') continue; // intents, and records of a newer version
      const { password_age: armored, ...rest } = line.entry;
      if (typeof armored === 'string') {
        if (identities === undefined) {
          throw new ProvisionError('usage', `${file} holds encrypted passwords: give --identity FILE`, { hint: `usage: ${usage}` });
        }
        let password: string;
        try {
          password = await decryptPassword(armored, identities);
        } catch (error) {
          throw new ProvisionError('secrets', `${file}:${line.line}: cannot decrypt the password of ${JSON.stringify(line.entry.username)} (${(error as Error).message})`, {
            hint: 'give the identity whose public key was passed as --secrets-recipient',
          });
        }
        io.stdout.write(`${JSON.stringify({ ...rest, password })}\n`);
      } else {
        io.stdout.write(`${JSON.stringify(line.entry)}\n`);
      }
      records++;
    }
    io.stderr.write(`${plural(records, 'record')}\n`);
    return EXIT.ok;
  },
};
