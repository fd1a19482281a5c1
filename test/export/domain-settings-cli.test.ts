/**
 * A domain's settings through the CLI, over real HTTP against the simulator seeded with them:
 * export writes them, validate takes the export, plan of it shows no changes; what the manifest
 * cannot hold is warned of and left out (exit 0); export --into brings a manifest's managed
 * settings to the panel's, and then plans to no change.
 */
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, startWorkspace, workspace } from '../helpers/cli.js';

const SEED: SimulatorSeed = {
  clients: [
    {
      username: 'alice',
      domains: [
        'alice.example',
        {
          name: 'shop.alice.example',
          php_version: '8.3',
          security: {
            lets_encrypt: true,
            is_prefer_https: true,
            is_hsts: true,
            hsts_max_age: 31536000,
            hsts_include: true,
            hsts_preload: false,
          },
        },
        { name: 'www.alice.example', target: { target: "https://alice.example/?a='1'#x,y", is_forwarding: true } },
        { name: 'old.alice.example', php_version: '8.10', target: { target: '/srv/old/', is_forwarding: true } },
      ],
    },
    { username: 'bob', domains: [{ name: 'bob.example', security: { lets_encrypt: true } }] },
  ],
};

/** export, validate, plan --detailed-exitcode: the export's text, warnings and notes. */
async function roundTrip(w: Awaited<ReturnType<typeof startWorkspace>>): Promise<{ text: string; stderr: string }> {
  const exported = await run(['export', '--out', w.file], w.env);
  expect(exported.code, exported.stderr).toBe(0);
  const validate = await run(['validate', w.file], w.env);
  expect(validate.stderr).not.toContain('error');
  expect(validate.code, validate.stderr).toBe(0);
  const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
  expect(plan.stdout).toContain('No changes');
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  return { text: await readFile(w.file, 'utf8'), stderr: exported.stderr };
}

describe('provision export: domain settings', () => {
  it('writes the settings that differ from the default; validate passes; plan shows no changes', async () => {
    const w = await workspace('', { seed: SEED });
    const { text, stderr } = await roundTrip(w);
    expect(text.slice(text.indexOf('clients:'))).toBe(`clients:
  - username: alice
    plan: Basic
    domains:
      - alice.example
      - name: old.alice.example
        php_version: "8.10"
      - name: shop.alice.example
        php_version: "8.3"
        https:
          lets_encrypt: true
          force: true
          hsts: {max_age: 31536000, include_subdomains: true, preload: false}
      - name: www.alice.example
        redirect: {to: "https://alice.example/?a='1'#x,y", status: 301}
  - username: bob
    plan: Basic
    domains:
      - name: bob.example
        https:
          lets_encrypt: true
`);
    // The forwarding to a path is what a manifest cannot say: left out, said, exit 0.
    expect(stderr).toContain(
      'warning: domain "old.alice.example" of client "alice": the panel\'s redirect {"to":"/srv/old/","status":301} ' +
        'is a target that is not an absolute http(s) URL: "redirect" left out (not managed)\n',
    );
    expect(stderr.match(/warning:/g)).toHaveLength(1);
    expect(stderr).not.toContain('note:');
  });

  it('export --into sets the settings a listed domain manages and nothing else; then plan shows no changes', async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - alice.example              # a name: manages nothing
      - name: shop.alice.example
        php_version: "7.4"         # pinned
        https: {force: false}
      - name: www.alice.example
        redirect: false
  - username: bob
    domains: [{name: bob.example, https: {hsts: false}}]
`;
    const w = await workspace(manifest, { seed: SEED });
    const check = await run(['export', '--into', w.file, '--check'], w.env);
    expect(check.code).toBe(2);
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    // The domain it adds has a forwarding a manifest cannot say: written by its name, said once.
    expect(
      r.stderr.match(/warning: domain "old.alice.example" .*: "redirect" left out \(not managed\)\n/g),
    ).toHaveLength(1);
    expect(r.stderr.match(/warning/g)).toHaveLength(1);
    expect(await readFile(w.file, 'utf8')).toBe(`version: 1
clients:
  - username: alice
    domains:
      - alice.example              # a name: manages nothing
      - name: shop.alice.example
        php_version: "8.3"         # pinned
        https: {force: true}
      - name: www.alice.example
        redirect: {to: "https://alice.example/?a='1'#x,y", status: 301}
      - name: old.alice.example
        php_version: "8.10"
  - username: bob
    domains: [{name: bob.example, https: {hsts: false}}]
`);
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    expect((await run(['export', '--into', w.file, '--check'], w.env)).code).toBe(0);
  });
});

/** A random domain's settings, in the simulator's seed shape. */
const settings = fc.record(
  {
    php_version: fc.constantFrom('', '7.4', '8.0', '8.3', '8.10'),
    security: fc.record(
      {
        lets_encrypt: fc.boolean(),
        is_prefer_https: fc.boolean(),
        is_hsts: fc.boolean(),
        hsts_max_age: fc.constantFrom(0, 300, 31536000),
        hsts_include: fc.boolean(),
        hsts_preload: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    target: fc.record(
      {
        target: fc.constantFrom(
          'https://a.example/',
          "http://b.example/it's#1:yes,{x}",
          'http://b.example/a b',
          '/home/x/',
          'https://c.example/\u202e',
        ),
        is_forwarding: fc.boolean(),
        forwarding_type: fc.constantFrom(301, 302),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

describe('export round trip with settings', () => {
  it('the export of a panel with random settings validates and plans to no change (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(settings, { minLength: 1, maxLength: 4 }), async (list) => {
        const names = ['one.example', 'www.one.example', 'two.test', 'bücher.example'];
        const seed: SimulatorSeed = {
          clients: [{ username: 'alice', domains: list.map((s, i) => ({ name: names[i] ?? 'x.example', ...s })) }],
        };
        const w = await startWorkspace(undefined, { seed });
        try {
          const { stderr } = await roundTrip(w);
          for (const line of stderr.split('\n').filter((l) => l.startsWith('warning:')))
            expect(line).toMatch(/: "redirect" left out \(not managed\)$/);
        } finally {
          await w.close();
        }
      }),
      { numRuns: 10 },
    );
  });
});
