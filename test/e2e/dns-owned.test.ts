/**
 * Issue 30's DNS checks through the CLI against the simulator: what a manifest names, it owns
 * (a new domain's defaults at the listed host and type replaced, named in the outcome and not
 * counted; an existing zone's `www A` removed by a listed `www CNAME`, counted by --max-deletes);
 * the zone after apply checked (`@ CNAME` a conflict at its line, nothing sent; a new domain's
 * zone failing after its POST, the domain created and its zone untouched); ACME records kept by
 * prune without `keep`, and left out of export.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

const planValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object,
);

async function recorded(manifest: string, options: Partial<SimulatorOptions> = {}) {
  const seen: InterceptRequest[] = [];
  const w = await workspace(manifest, {
    ...options,
    intercept: (request) => {
      seen.push(request);
      return Promise.resolve(undefined);
    },
  });
  const writes = () => seen.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  const clear = () => seen.splice(0);
  const zone = (name: string) => w.sim.state.zones.get(w.sim.state.domainNamed(name)?.id ?? -1);
  const records = (name: string) => (zone(name)?.records.other ?? []).map((r) => `${r.host} ${r.type} ${r.value}`);
  return { ...w, writes, clear, zone, records };
}

const apply = (file: string, env: Record<string, string>, ...more: string[]) =>
  run(['apply', file, '--auto-approve', ...more], env);
const settled = (file: string, env: Record<string, string>) => run(['plan', file, '--detailed-exitcode'], env);
const ALICE = { seed: { clients: [{ username: 'alice' }] } };

describe('what a manifest names, it owns', () => {
  it("a new domain's www CNAME, apex A and SPF replace the panel's defaults there; the others kept; named, not counted; converged", async () => {
    const w = await recorded(
      `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: www, type: CNAME, value: alice.example.}
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: "@", type: TXT, value: "v=spf1 mx -all"}
`,
      ALICE,
    );
    // The three defaults it replaces are known only after the POST: --max-deletes 0 does not count them.
    const done = await apply(w.file, w.env, '--max-deletes', '0');
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(
      'of the 7 records the panel made, 4 kept, 3 removed (A @ 192.0.2.1, A www 192.0.2.1, TXT @ "v=spf1 mx a ~all"; not counted for --max-deletes)',
    );
    expect(w.records('alice.example')).toEqual([
      '@ NS ns1.sim.keyhelp.test.',
      '@ NS ns2.sim.keyhelp.test.',
      'mail A 192.0.2.1',
      '@ MX 10 mail.alice.example.',
      'www CNAME alice.example.',
      '@ A 192.0.2.10',
      '@ TXT v=spf1 mx -all',
    ]);
    const again = await settled(w.file, w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it("an existing zone's www A goes when the manifest lists www CNAME: shown, and counted by --max-deletes", async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: www, type: CNAME, value: alice.example.}
`;
    const seeded = [
      { host: '@', type: 'A', value: '192.0.2.1' },
      { host: 'www', type: 'A', value: '192.0.2.1' },
      { host: 'www', type: 'TXT', value: 'note' },
    ];
    const w = await recorded(manifest, {
      seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { records: seeded } }] }] },
    });
    const shown = await run(['plan', w.file], w.env);
    expect(shown.stdout).toMatch(/- +A www 192\.0\.2\.1 \(ttl 86400\)\n/);
    expect(shown.stdout).toMatch(/- +TXT www "note" \(ttl 86400\)\n/);
    w.clear();
    const refused = await apply(w.file, w.env, '--max-deletes', '1');
    expect(refused.code, refused.stderr).toBe(4);
    expect(w.writes()).toEqual([]);
    const done = await apply(w.file, w.env, '--max-deletes', '2');
    expect(done.code, done.stderr).toBe(0);
    expect(w.records('alice.example')).toEqual(['@ A 192.0.2.1', 'www CNAME alice.example.']);
    expect((await settled(w.file, w.env)).code).toBe(0);
  });
});

describe('the zone after apply, checked', () => {
  it('@ CNAME is a conflict at its line, naming the fix: nothing sent', async () => {
    const w = await recorded(
      `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: "@", type: CNAME, value: other.example.}
`,
      { seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example' }] }] } },
    );
    w.clear();
    const done = await apply(w.file, w.env);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain(`${w.file}:9:15`);
    expect(done.stderr).toContain('"dns" record #2 (CNAME @ other.example.) of domain "alice.example"');
    expect(done.stderr).toContain('list the target\'s A or AAAA records at "@" instead');
    expect(w.writes()).toEqual([]);
    // The plan document carries it, as its published schema says.
    const json = await run(['plan', w.file, '--format', 'json'], w.env);
    const planned = JSON.parse(json.stdout) as { conflicts: unknown[] };
    expect(planned.conflicts).toEqual([
      {
        domain: 'alice.example',
        client: 'alice',
        owner: 'alice',
        dns: 'records',
        rule: 'cname_at_apex',
        record: { host: '@', type: 'CNAME', value: 'other.example.', index: 1 },
      },
    ]);
    expect(planValid(planned), JSON.stringify(planValid.errors)).toBe(true);
  });

  it("a record beside the panel's CNAME the manifest does not list is a conflict naming that record", async () => {
    const w = await recorded(
      `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: blog, type: TXT, value: "v=spf1 -all"}
`,
      {
        seed: {
          clients: [
            {
              username: 'alice',
              domains: [
                { name: 'alice.example', dns: { records: [{ host: 'blog', type: 'CNAME', value: 'x.example.' }] } },
              ],
            },
          ],
        },
      },
    );
    w.clear();
    const shown = await run(['plan', w.file], w.env);
    expect(shown.code).toBe(1);
    expect(shown.stdout + shown.stderr).toContain(
      `would stand at host "blog" beside the panel's CNAME blog x.example., which the manifest does not list`,
    );
    expect(w.writes()).toEqual([]);
  });

  it("a new domain's zone that the panel's defaults would break fails after the POST: domain created, zone untouched, exit 1", async () => {
    // Listed `mail CNAME` replaces the default `mail A`, but the default MX points at mail.
    const w = await recorded(
      `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: mail, type: CNAME, value: mx.provider.example.}
`,
      ALICE,
    );
    const done = await apply(w.file, w.env);
    expect(done.code, done.stderr).toBe(1);
    expect(done.stdout + done.stderr).toContain(
      `the manifest's CNAME mail mx.provider.example. is a CNAME at host "mail", which the panel's MX @ "10 mail.alice.example." points at`,
    );
    expect(w.sim.state.domainNamed('alice.example')).toBeDefined();
    expect(w.zone('alice.example')?.is_custom_dns).toBe(false);
    expect(w.records('alice.example')).toContain('mail A 192.0.2.1');
    expect(w.writes().filter((r) => r.startsWith('PUT /dns'))).toEqual([]);
  });
});

describe('ACME records are transient', () => {
  it('prune: true keeps _acme-challenge records without a keep; export leaves them out with a note', async () => {
    const seeded = [
      { host: '@', type: 'A', value: '192.0.2.1' },
      { host: '_acme-challenge', type: 'TXT', value: 'token-1' },
      { host: '_acme-challenge.shop', type: 'TXT', value: 'token-2' },
      { host: 'old', type: 'A', value: '192.0.2.1' },
    ];
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          prune: true
          records:
            - {host: "@", type: A, value: 192.0.2.1}
`;
    const w = await recorded(manifest, {
      seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { records: seeded } }] }] },
    });
    const done = await apply(w.file, w.env);
    expect(done.code, done.stderr).toBe(0);
    expect(w.records('alice.example')).toEqual([
      '@ A 192.0.2.1',
      '_acme-challenge TXT token-1',
      '_acme-challenge.shop TXT token-2',
    ]);
    expect((await settled(w.file, w.env)).code).toBe(0);

    const exported = await run(['export', '--with', 'dns'], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toContain('_acme-challenge');
    expect(exported.stderr).toContain(
      "2 ACME challenges' records (hosts _acme-challenge and _acme-challenge.*) left out",
    );
  });
});
