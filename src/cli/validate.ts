import type { Command } from './args.js';
import { parseCommandLine } from './args.js';
import { loadOrReport } from './manifest.js';

const usage = 'provision validate <manifest>';

export const validate: Command = {
  usage,
  summary: 'Check a manifest offline: YAML syntax, the schema, and the rules (usernames, domain names, duplicates). Exit 0 valid, 1 invalid.',
  help: `Examples:
  provision validate manifest.yaml`,
  async run(args, io) {
    const { positionals } = parseCommandLine(args, {}, 1, usage);
    const file = positionals[0] ?? '';
    const { desired } = await loadOrReport(file, io);
    if (desired === undefined) return 1;
    const domains = desired.clients.reduce((n, c) => n + c.domains.length, 0);
    io.stdout.write(`${file}: valid (${desired.clients.length} client${desired.clients.length === 1 ? '' : 's'}, ${domains} domain${domains === 1 ? '' : 's'})\n`);
    return 0;
  },
};
