/**
 * Synthetic manifests and simulator seeds for the benchmarks: client i is `c<i>` on plan
 * Basic, with `c<i>.example` and, for every further domain k, `s<k>.c<i>.example` (a
 * subdomain, so apply has real dependencies: client -> domain -> subdomain).
 */
import type { SimulatorSeed } from '../src/simulator/index.js';

/** The key the benchmark simulator accepts; loopback only, never a real secret. */
export const BENCH_KEY = 'bench-key-not-a-secret';

export interface Size {
  readonly clients: number;
  readonly domainsPerClient: number;
}

function username(i: number): string {
  return `c${i.toString().padStart(6, '0')}`;
}

function domains(i: number, perClient: number): string[] {
  const base = `${username(i)}.example`;
  const list = [base];
  for (let k = 1; k < perClient; k++) list.push(`s${k}.${base}`);
  return list;
}

/** Manifest text for `size`, built as a string: generating it must not cost more than reading it. */
export function manifestYaml(size: Size): string {
  const parts: string[] = ['version: 1\nclients:\n'];
  for (let i = 1; i <= size.clients; i++) {
    const name = username(i);
    parts.push(`  - username: ${name}\n    plan: Basic\n    email: ${name}@example.com\n    domains:\n`);
    for (const domain of domains(i, size.domainsPerClient)) parts.push(`      - ${domain}\n`);
  }
  if (size.clients === 0) parts[0] = 'version: 1\nclients: []\n';
  return parts.join('');
}

/** A simulator seed holding exactly what the manifest of `size` lists (so plan finds no changes). */
export function seedFor(size: Size): SimulatorSeed {
  const clients = [];
  for (let i = 1; i <= size.clients; i++) {
    clients.push({
      username: username(i),
      plan: 'Basic',
      email: `${username(i)}@example.com`,
      domains: domains(i, size.domainsPerClient),
    });
  }
  return { clients };
}

/** "10,000" */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
