import { ProvisionError } from '../errors.js';
import { quote, safeText } from '../escape.js';
import { plural } from '../util.js';
import type { Command } from './args.js';
import { parseCommandLine } from './args.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { readBytes, STDIN } from './files.js';
import { loadManifest, sourceName } from './manifest-input.js';

const usage = 'provision validate <manifest>...';

export const validate: Command = {
  usage,
  summary: `Check manifests offline: YAML syntax, the schema, and the rules (usernames, domain names, duplicates). Exit ${EXIT.ok} when all are valid, ${EXIT.failure} when one is not.`,
  help: `A manifest given as - is read from standard input. Each manifest is checked and reported,
whatever the others hold.

Examples:
  provision validate manifest.yaml
  provision validate panels/*/manifest.yaml
  cat manifest.yaml | provision validate -

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io) {
    const { positionals } = parseCommandLine(args, {}, { atLeast: 1 }, usage);
    if (positionals.filter((path) => path === STDIN).length > 1) {
      throw new ProvisionError('usage', 'standard input (-) can be given once', { hint: `usage: ${usage}` });
    }
    const invalid: string[] = [];
    for (const path of positionals) {
      try {
        const { desired } = loadManifest(await readBytes(path, io, 'manifest'), path, io);
        const domains = desired.clients.reduce((n, c) => n + c.domains.length, 0);
        io.stdout.write(`${sourceName(path)}: valid (${plural(desired.clients.length, 'client')}, ${plural(domains, 'domain')})\n`);
      } catch (error) {
        // One manifest's problems are printed; the others are still checked.
        if (positionals.length === 1 || !(error instanceof ProvisionError) || error.code !== 'manifest_invalid') throw error;
        io.stderr.write(`error: ${safeText(error.message)}\n`);
        invalid.push(sourceName(path));
      }
    }
    if (invalid.length > 0) {
      throw new ProvisionError('manifest_invalid', `${plural(invalid.length, 'manifest')} of ${positionals.length} ${invalid.length === 1 ? 'is' : 'are'} invalid: ${invalid.map((name) => quote(name)).join(', ')}`);
    }
    return EXIT.ok;
  },
};
