/**
 * Whatever export writes, the PUBLISHED manifest schema (schemas/manifest.schema.json, compiled
 * here with ajv from the file users' editors load, not through the generated validator) accepts:
 * the exports of the simulator's seeds (every hosting plan key the panel may hold, PHP-FPM
 * `status: true` included; domains with every setting; custom zones), the exports of the export
 * tests' fixture panels (test/export/*fixtures*), and the manifests under test/fixtures and
 * examples that are meant to be valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportManifest } from '../../src/api/export.js';
import type { Live } from '../../src/panel/types.js';
import type { SimulatorSeedClient } from '../../src/simulator/index.js';
import { live } from '../helpers/builders.js';
import { run, workspace } from '../helpers/cli.js';
import { panelWithZones, zone } from '../export/dns-fixtures.js';
import { record } from '../export/settings-fixtures.js';

const root = new URL('../../', import.meta.url);
const published = JSON.parse(readFileSync(new URL('schemas/manifest.schema.json', root), 'utf8')) as object;
// The options the build compiles the manifest schema with (scripts/generate-validator.ts).
const valid = new Ajv2020({ allErrors: true, strict: true }).compile(published);

/** The YAML text's document against the published schema: the errors, [] when it is valid. */
function schemaErrors(text: string): string[] {
  const document: unknown = parse(text);
  return valid(document) ? [] : (valid.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

const CLIENTS: SimulatorSeedClient[] = [
  {
    username: 'alice',
    plan: 'Premium Plus',
    email: 'alice@example.com',
    language: 'de',
    domains: [
      {
        name: 'alice.example',
        php_version: '8.3',
        security: { lets_encrypt: true, is_prefer_https: true, is_hsts: true, hsts_max_age: 31536000 },
        dns: {
          records: [
            { host: '@', type: 'A', value: '192.0.2.10' },
            { host: 'www', type: 'CNAME', value: 'alice.example.' },
            { host: '@', type: 'MX', value: '10 mail.alice.example.' },
            { host: '@', type: 'TXT', value: 'v=spf1 mx -all', ttl: 300 },
            { host: '_sip._tcp', type: 'SRV', value: '10 60 5060 sip.alice.example.' },
          ],
        },
      },
      'shop.alice.example',
      {
        name: 'go.alice.example',
        target: { is_forwarding: true, target: 'https://alice.example/', forwarding_type: 302 },
      },
      'bücher.example',
    ],
  },
  { username: 'bob', suspended: true, domains: ['bob.example'] },
];

describe('what export writes, the published manifest schema accepts', () => {
  it("the export of the simulator's seeds, with hosting plans and zones (php_fpm.status: true)", async () => {
    const w = await workspace('version: 1\nclients: []\n', { seed: { clients: CLIENTS } });
    const exported = await run(['export', '--with', 'hosting-plans', '--with', 'dns'], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^ {6}status: true$/m);
    expect(exported.stdout).toContain('redirect:');
    expect(exported.stdout).toContain('records:');
    expect(schemaErrors(exported.stdout)).toEqual([]);
  });

  it('an exported hosting plan with every php_fpm key the panel may hold, status true and false', () => {
    const fpm = (status: boolean | null): Live['hosting_plan'][number] => ({
      id: status === null ? 3 : status ? 1 : 2,
      name: `FPM ${String(status)}`,
      objects: {
        resources: { disk_space: -1, traffic: '1024', domains: 10 },
        permissions: { ssh: 1, backup: '0', update_contact_data: true },
        php: { memory_limit: '512M', max_execution_time: 30, sendmail_from: '', env_variables: null },
        php_fpm: {
          pm: 'dynamic',
          max_children: 5,
          max_requests: 1000,
          min_spare_servers: 1,
          max_spare_servers: null,
          status,
          status_ip_restriction: status === true ? '127.0.0.1' : null,
        },
      },
    });
    const panel: Live = { ...live(), hosting_plan: [fpm(true), fpm(false), fpm(null)] };
    const { text } = exportManifest(panel, () => true, [], { with: new Set(['hosting-plans']) });
    expect(text).toMatch(/^ {6}status: true$/m);
    expect(text).toMatch(/^ {6}status: false$/m);
    expect(schemaErrors(text)).toEqual([]);
  });

  it("the exports of the export tests' fixture panels (settings and zones)", () => {
    const settings = live(
      [[1, 'alice', null, { email: null, suspended: false }]],
      [
        [1, 'plain.example', 1, false, record()],
        [2, 'php.example', 1, false, record({ php: '8.2' })],
        [3, 'secure.example', 1, false, record({ le: true, force: true, hsts: [63072000, true, true] })],
        [4, 'moved.example', 1, false, record({ redirect: ['https://elsewhere.example/path?q=1', 301] })],
        [5, 'moved2.example', 1, false, record({ redirect: ['http://elsewhere.example', 302] })],
      ],
    );
    const zones = panelWithZones([
      [
        'alice.example',
        1,
        zone('alice.example', [
          ['@', 'A', '192.0.2.1'],
          ['@', 'AAAA', '2001:db8::1', 60],
          ['www', 'CNAME', 'alice.example.'],
          ['@', 'MX', '10 mail.alice.example.'],
          ['@', 'TXT', 'v=spf1 -all'],
          ['@', 'CAA', '0 issue "letsencrypt.org"'],
          ['sub', 'NS', 'ns1.elsewhere.example.', 2592000],
        ]),
      ],
      ['shop.alice.example', 1, undefined, true],
      ['bob.example', 2, zone('bob.example', [['@', 'A', '192.0.2.2', '3600']])],
    ]);
    for (const panel of [settings, zones]) {
      const { text } = exportManifest(panel, () => true, [], { with: new Set(['dns']) });
      expect(schemaErrors(text), text).toEqual([]);
    }
  });

  it('the valid manifests under test/fixtures and examples', () => {
    const files = [
      'test/fixtures/manifests/valid.yaml',
      ...readdirSync(new URL('examples', root))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join('examples', f)),
      ...['ams1', 'fra1'].flatMap((p) => [`examples/multi-panel/panels/${p}/clients.yaml`]),
    ];
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(schemaErrors(readFileSync(new URL(file, root), 'utf8')), file).toEqual([]);
  });

  it('refuses what no export writes (the schema is not lax)', () => {
    expect(schemaErrors('version: 1\nhosting_plans:\n  - name: A\n    php_fpm: {status: [1]}\n')).not.toEqual([]);
    expect(schemaErrors('version: 1\nclients:\n  - username: a\n    send_login_credentials: "yes"\n')).not.toEqual([]);
  });
});
