/**
 * DNS zones through the CLI against the simulator: a new domain with `dns` in one apply (POST
 * /domains, GET /dns/{id}, PUT /dns/{id}), then converged; records added to an existing zone in
 * one PUT with the SOA and DKIM record sent back and unlisted records kept; prune with keep; and
 * --max-deletes refusing a prune of many records (exit 4, nothing sent).
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

/** A workspace whose simulator records every request; `sent()` gives them as `METHOD /path` with ids as {id}. */
async function recorded(manifest: string, options: Partial<SimulatorOptions> = {}) {
  const seen: InterceptRequest[] = [];
  const w = await workspace(manifest, {
    ...options,
    intercept: (request) => {
      seen.push(request);
      return Promise.resolve(undefined);
    },
  });
  const sent = () => seen.map((r) => `${r.method} ${r.path.replace(/\/[0-9]+$/, '/{id}')}`);
  const writes = () => seen.filter((r) => r.method !== 'GET');
  const clear = () => seen.splice(0);
  const zone = (name: string) => w.sim.state.zones.get(w.sim.state.domainNamed(name)?.id ?? -1);
  const records = (name: string) =>
    (zone(name)?.records.other ?? []).map((r) => `${r.host} ${r.type} ${r.value} ${r.ttl}`);
  return { ...w, sent, writes, clear, zone, records };
}

const apply = (file: string, env: Record<string, string>, ...more: string[]) =>
  run(['apply', file, '--auto-approve', ...more], env);
const settled = (file: string, env: Record<string, string>) => run(['plan', file, '--detailed-exitcode'], env);

const NEW = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 600
          records:
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: "@", type: TXT, value: "v=spf1 mx -all", ttl: 300}
`;

describe('DNS zones through the CLI', () => {
  it("creates a domain with its zone in one apply: POST, GET /dns/{id}, PUT /dns/{id}; the panel's other defaults kept; converged", async () => {
    const w = await recorded(NEW, { seed: { clients: [{ username: 'alice' }] } });
    const done = await apply(w.file, w.env);
    expect(done.code, done.stderr).toBe(0);
    expect(
      w.sent().filter((s) => !['GET /ping', 'GET /hosting-plans', 'GET /clients', 'GET /domains'].includes(s)),
    ).toEqual(['POST /domains', 'GET /dns/{id}', 'PUT /dns/{id}', 'GET /dns/{id}']);
    expect(done.stdout).toContain("written after the domain's POST; of the ");
    expect(w.zone('alice.example')?.is_custom_dns).toBe(true);
    // The listed (host, type) pairs replace the defaults there: the default apex A and SPF go.
    expect(w.records('alice.example')).toEqual([
      '@ NS ns1.sim.keyhelp.test. 86400',
      '@ NS ns2.sim.keyhelp.test. 86400',
      'www A 192.0.2.1 86400',
      'mail A 192.0.2.1 86400',
      '@ MX 10 mail.alice.example. 86400',
      '@ A 192.0.2.10 600',
      '@ TXT v=spf1 mx -all 300',
    ]);
    const again = await settled(w.file, w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it('adds to an existing zone in one PUT, the SOA and DKIM record as read, unlisted records kept; then prunes with keep', async () => {
    const seeded = [
      { host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 },
      { host: '_acme-challenge', type: 'TXT', value: 'token', ttl: 120 },
      { host: 'old', type: 'CNAME', value: 'alice.example.', ttl: 3600 },
    ];
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.1, ttl: 300}
            - {host: www, type: A, value: 192.0.2.1}
`;
    const w = await recorded(manifest, {
      seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { records: seeded } }] }] },
    });
    const before = w.zone('alice.example');
    const shown = await run(['plan', w.file], w.env);
    expect(shown.stdout).toMatch(/~ +A @ 192\.0\.2\.1: ttl 3600 -> 300\n/);
    expect(shown.stdout).toMatch(/\+ +A www 192\.0\.2\.1 \(ttl 3600\)\n/);
    w.clear();
    const done = await apply(w.file, w.env);
    expect(done.code, done.stderr).toBe(0);
    const puts = w.writes();
    expect(puts).toHaveLength(1);
    expect(puts[0]?.body).toMatchObject({ dkim_record: before?.dkim_record, records: { soa: before?.records.soa } });
    expect(w.records('alice.example')).toEqual([
      '@ A 192.0.2.1 300',
      '_acme-challenge TXT token 120',
      'old CNAME alice.example. 3600',
      'www A 192.0.2.1 3600',
    ]);
    expect((await settled(w.file, w.env)).code).toBe(0);

    // prune: true with keep: the unlisted CNAME goes, the ACME token stays.
    await writeFile(
      w.file,
      manifest.replace('        dns:\n', '        dns:\n          prune: true\n          keep: ["_acme-*"]\n'),
    );
    w.clear();
    const pruned = await apply(w.file, w.env);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(w.writes()).toHaveLength(1);
    expect(w.records('alice.example')).toEqual([
      '@ A 192.0.2.1 300',
      '_acme-challenge TXT token 120',
      'www A 192.0.2.1 3600',
    ]);
    expect((await settled(w.file, w.env)).code).toBe(0);
  });

  it('refuses a prune of more records than --max-deletes allows: exit 4, nothing sent', async () => {
    const many = Array.from({ length: 6 }, (_, i) => ({ host: `h${i}`, type: 'A', value: '192.0.2.1', ttl: 3600 }));
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns: {prune: true, records: [{host: "@", type: A, value: 192.0.2.9}]}
`;
    const w = await recorded(manifest, {
      seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { records: many } }] }] },
    });
    const refused = await apply(w.file, w.env, '--max-deletes', '5');
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('deletes 6 resources');
    expect(w.writes()).toEqual([]);
    const allowed = await apply(w.file, w.env, '--max-deletes', '6');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(w.records('alice.example')).toEqual(['@ A 192.0.2.9 3600']);
  });
});
