/**
 * `node --import tsx bench/answer-size.ts [--clients 100000] [--domains 3]`: the size of the
 * simulator's GET /clients and GET /domains answers for a panel of N clients with D domains
 * each, full records (the client list with email, plan and suspension), against
 * DEFAULT_MAX_ANSWER_MB (src/panel/limits.ts). The answers are the simulator's own: its store
 * seeded in-process (storeFromSeed, as --seed does), its router (route), serialised as its
 * HTTP layer does (JSON.stringify), so a change to the records shows here.
 *
 * Names are as long as real ones tend to be: `customer-000001`, `customer-000001@example-hosting.com`,
 * `customer-000001.example.com`, `www.customer-000001.example.com` (a subdomain) and
 * `customer-000001-shop.example.net`, then `extra<k>.customer-000001.example.com`.
 * Exits 1 when an answer would not fit under the default limit.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_ANSWER_MB } from '../src/panel/limits.js';
import { route, type RouteOptions } from '../src/simulator/routes.js';
import { storeFromSeed } from '../src/simulator/seed.js';

/** The bytes of each list answer for `clients` clients with `domainsPerClient` domains each. */
export function listSizes(clients: number, domainsPerClient: number): { clients: number; domains: number } {
  const seed = {
    hostingPlans: ['Basic'],
    clients: Array.from({ length: clients }, (_, i) => {
      const username = `customer-${String(i + 1).padStart(6, '0')}`;
      const base = `${username}.example.com`;
      const names = [base, `www.${base}`, `${username}-shop.example.net`];
      for (let k = names.length; k < domainsPerClient; k++) names.push(`extra${k}.${base}`);
      return {
        username,
        plan: 'Basic',
        email: `${username}@example-hosting.com`,
        domains: names.slice(0, domainsPerClient),
      };
    }),
  };
  const now = new Date('2030-01-01T00:00:00Z');
  const store = storeFromSeed(seed, { systemDomains: false, source: 'bench', now });
  const options: RouteOptions = {
    listDomains: true,
    clientListFields: true,
    systemDomains: false,
    now: () => now,
    deleteStatus: 200,
  };
  const bytes = (collection: string): number =>
    Buffer.byteLength(JSON.stringify(route(store, 'GET', [collection], { kind: 'none' }, options).json));
  return { clients: bytes('clients'), domains: bytes('domains') };
}

/** Bytes as MB (MiB, as --max-answer-mb counts them), one decimal. */
export function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '100000' },
      domains: { type: 'string', default: '3' },
    },
  });
  const clients = Number(values.clients);
  const perClient = Number(values.domains);
  const sizes = listSizes(clients, perClient);
  process.stdout.write(
    `${clients} clients, ${perClient} domains each; --max-answer-mb default ${DEFAULT_MAX_ANSWER_MB}:\n`,
  );
  for (const [list, size] of Object.entries(sizes)) {
    const records = list === 'clients' ? clients : clients * perClient;
    process.stdout.write(
      `  GET /${list.padEnd(8)} ${mb(size).padStart(7)} MB  ${Math.round(size / records)} bytes a record  ${(DEFAULT_MAX_ANSWER_MB / (size / 1024 / 1024)).toFixed(1)}x headroom\n`,
    );
  }
  process.exitCode = Math.max(sizes.clients, sizes.domains) > DEFAULT_MAX_ANSWER_MB * 1024 * 1024 ? 1 : 0;
}
