import { plural } from '../util.js';
import type { Command } from './args.js';
import { parseCommandLine } from './args.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { readBytes } from './files.js';
import { loadManifest, sourceName } from './manifest-input.js';

const usage = 'provision validate <manifest>';

export const validate: Command = {
  usage,
  summary: `Check a manifest offline: YAML syntax, the schema, and the rules (usernames, domain names, duplicates). Exit ${EXIT.ok} valid, ${EXIT.failure} invalid.`,
  help: `A manifest given as - is read from standard input.

Examples:
  provision validate manifest.yaml

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io) {
    const { positionals } = parseCommandLine(args, {}, 1, usage);
    const path = positionals[0] ?? '';
    const { desired } = loadManifest(await readBytes(path, io, 'manifest'), path, io);
    const domains = desired.clients.reduce((n, c) => n + c.domains.length, 0);
    io.stdout.write(`${sourceName(path)}: valid (${plural(desired.clients.length, 'client')}, ${plural(domains, 'domain')})\n`);
    return EXIT.ok;
  },
};
