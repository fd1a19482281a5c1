/**
 * DNS zones through the CLI, over real HTTP against the simulator seeded with zones: export
 * --with dns writes the custom zones' records, validate takes it, plan of it shows no changes;
 * without --with dns no GET /dns is sent; export --into brings a dns block to the panel's
 * records, and then plans to no change.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

const SEED: SimulatorSeed = {
  clients: [
    {
      username: 'alice',
      domains: [
        {
          name: 'alice.example',
          dns: {
            records: [
              { host: '@', type: 'A', value: '192.0.2.10' },
              { host: 'www', type: 'CNAME', value: 'alice.example.' },
              { host: '@', type: 'MX', value: '10 mail.alice.example.' },
              { host: '@', type: 'TXT', value: 'v=spf1 mx -all # "a": b', ttl: 300 },
              { host: 'x', type: 'A', value: 'not-an-address' },
            ],
          },
        },
        'shop.alice.example',
        'plain.example',
      ],
    },
    { username: 'bob', domains: [{ name: 'bob.example', dns: { is_custom_dns: true } }] },
  ],
};

describe('provision export --with dns', () => {
  it('writes the records of custom zones; validate passes; plan shows no changes', async () => {
    const w = await workspace('', { seed: SEED });
    const before = w.sim.requests.length;
    const exported = await run(['export', '--with', 'dns', '--out', w.file], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    // One GET /dns a zone: not the subdomain's (its records are in its parent's zone).
    expect(w.sim.requests.slice(before).filter((q) => q.path.startsWith('/dns'))).toHaveLength(3);
    const text = await readFile(w.file, 'utf8');
    expect(text.slice(text.indexOf('clients:'))).toBe(`clients:
  - username: alice
    plan: Basic
    domains:
      - name: alice.example
        dns:
          ttl: 86400
          records:
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: www, type: CNAME, value: alice.example.}
            - {host: "@", type: MX, value: 10 mail.alice.example.}
            - {host: "@", type: TXT, value: 'v=spf1 mx -all # "a": b', ttl: 300}
      - shop.alice.example
      - plain.example
  - username: bob
    plan: Basic
    domains:
      - name: bob.example
        dns:
          ttl: 86400
          records:
            - {host: "@", type: NS, value: ns1.sim.keyhelp.test.}
            - {host: "@", type: NS, value: ns2.sim.keyhelp.test.}
            - {host: "@", type: A, value: 192.0.2.1}
            - {host: www, type: A, value: 192.0.2.1}
            - {host: mail, type: A, value: 192.0.2.1}
            - {host: "@", type: MX, value: 10 mail.bob.example.}
            - {host: "@", type: TXT, value: v=spf1 mx a ~all}
`);
    expect(exported.stderr).toContain(
      'warning: domain "alice.example" of client "alice": the panel\'s DNS record A "x" "not-an-address" ' +
        '(ttl 86400) has a value that must be an IPv4 address, like 192.0.2.10: left out of "dns" (the panel keeps it)\n',
    );
    expect(exported.stderr).toContain(
      "read 3 DNS zones: wrote 2 (custom), 1 holds the panel's defaults (no dns block)\n",
    );
    const validate = await run(['validate', w.file], w.env);
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('without --with dns: no dns blocks and no GET /dns; an unknown --with is a usage error', async () => {
    const w = await workspace('', { seed: SEED });
    const before = w.sim.requests.length;
    const r = await run(['export'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('dns');
    expect(r.stderr).not.toContain('DNS zone');
    expect(w.sim.requests.slice(before).filter((q) => q.path.startsWith('/dns'))).toEqual([]);
    const bad = await run(['export', '--with', 'dns,hosting'], w.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--with "hosting": export knows "dns"');
  });

  it('export --into gives a dns block the panel records; then plan shows no changes', async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 3600
          records:
            - {host: "@", type: A, value: 192.0.2.99}   # moved since
            - {host: www, type: CNAME, value: alice.example., ttl: 60}
      - shop.alice.example
      - plain.example
`;
    const w = await workspace(manifest, { seed: SEED });
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(w.file, 'utf8')).toBe(`version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 3600
          records:
            - {host: www, type: CNAME, value: alice.example., ttl: 86400}
            - {host: "@", type: A, value: 192.0.2.10, ttl: 86400}
            - {host: "@", type: MX, value: 10 mail.alice.example., ttl: 86400}
            - {host: "@", type: TXT, value: 'v=spf1 mx -all # "a": b', ttl: 300}
      - shop.alice.example
      - plain.example
`);
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
