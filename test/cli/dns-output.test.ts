/* eslint-disable no-control-regex -- these tests look for control characters */
/**
 * A zone's change through the whole CLI, in-process against the simulator on loopback: plan in
 * text, JSON (checked against schemas/plan.schema.json) and Markdown; `show plan.json` printing
 * what plan printed; apply's outcome lines; and the panel's TXT values (quotes, escapes, HTML,
 * Markdown, a line break, 2,048 characters) printed as data everywhere.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { expectNoSecrets, run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 3600
          records:
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: "@", type: TXT, value: "v=spf1 mx -all", ttl: 300}
          prune: true
          keep: ["_acme-challenge*"]
      - name: new.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.20}
          prune: true
`;

/** What a panel's TXT value may hold: a person typed it in the panel, or a tool wrote it. */
const HOSTILE = 'say "hi" <img src=x onerror=alert(1)> **bold** ``` \u001b[31mred\u001b[0m\nline two \u202eevil';
const DKIM = `v=DKIM1; k=rsa; p=${'Q'.repeat(2048 - 18)}`;

/** alice.example on the panel: its SPF at 3600, a hostile TXT, an ACME token (kept) and a long DKIM TXT. */
const SEED = {
  seed: {
    clients: [
      {
        username: 'alice',
        domains: [
          {
            name: 'alice.example',
            dns: {
              is_custom_dns: false,
              records: [
                { host: '@', type: 'NS', value: 'ns1.sim.keyhelp.test.', ttl: 86400 },
                { host: '@', type: 'TXT', value: 'v=spf1 mx -all', ttl: 3600 },
                { host: '_old', type: 'TXT', value: HOSTILE, ttl: 3600 },
                { host: '_acme-challenge', type: 'TXT', value: 'token', ttl: 60 },
                { host: 'default._domainkey', type: 'TXT', value: DKIM, ttl: 3600 },
              ],
            },
          },
        ],
      },
    ],
  },
};

/** Characters that must never reach an output raw (the program's own line breaks aside). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const CUT_DKIM = `"v=DKIM1; k=rsa; p=${'Q'.repeat(64 - 18)}"… (2,048 characters, sha256 `;

type Workspace = Awaited<ReturnType<typeof workspace>>;
const idOf = (w: Workspace, name: string): number => w.sim.state.domainNamed(name)?.id ?? -1;
const writes = (w: Workspace): string[] =>
  w.sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('a zone in the plan', () => {
  it('text: each record in its own sign, as data, the request in short', async () => {
    const w = await workspace(MANIFEST, SEED);
    const alice = idOf(w, 'alice.example');
    const r = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain(
      '  # dns "alice.example" of client "alice" will be updated: differs from the manifest ' +
        '(1 record to add, 1 TTL to change, 2 to remove); the zone becomes custom: the panel stops ' +
        'regenerating its default records\n' +
        '  ~ dns "alice.example":\n' +
        '  +     A @ 192.0.2.10 (ttl 3600)\n' +
        '  ~     TXT @ "v=spf1 mx -all": ttl 3600 -> 300\n' +
        `  -     TXT _old ${JSON.stringify(HOSTILE).replace('\u001b', '\\u001b').replace('\u202e', '\\u202e')} (ttl 3600)\n` +
        `  -     TXT default._domainkey ${CUT_DKIM}`,
    );
    expect(r.stdout).toContain(
      `  ~ PUT /dns/${alice} (the zone's 4 records after the change, its SOA and DKIM record as read)\n`,
    );
    expect(r.stdout).toContain(
      '  # dns "new.example" of client "alice" will be updated: a new domain (1 record to add); ' +
        "its records are written after the domain's POST; the default records the panel fills in then are " +
        'removed, except keep matches (which ones: known after apply; --max-deletes does not count them); the zone becomes custom',
    );
    expect(r.stdout).toContain(
      '  ~ dns "new.example": + A @ 192.0.2.20 (ttl 3600)\n  ~ PUT /dns/{id} (known after apply',
    );
    expect(r.stdout).toMatch(/^Plan: 1 to create \(1 domain\), 2 to update \(2 zones\), 2 DNS records to remove\.$/m);
    expect(r.stdout).not.toContain('_acme-challenge');
    expect(writes(w)).toEqual([]);
  });

  it('JSON: the record ops whole (the DKIM value, the hostile one), the full request, one update a zone', async () => {
    const w = await workspace(MANIFEST, SEED);
    const alice = idOf(w, 'alice.example');
    const r = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    const document = JSON.parse(r.stdout) as {
      format_version: string;
      changes: { type: string; name: string; records: unknown[]; request: { body: unknown } }[];
      summary: Record<string, number>;
    };
    expect(planValid(document), JSON.stringify(planValid.errors)).toBe(true);
    expect(document.format_version).toBe('2.5');
    expect(document.summary).toEqual({ create: 1, update: 2, delete: 0, conflicts: 0, unknowns: 0 });
    const zone = document.changes.find((c) => c.type === 'dns_zone' && c.name === 'alice.example');
    expect(zone).toMatchObject({
      action: 'update',
      records: [
        { op: 'add', host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 },
        { op: 'update', host: '@', type: 'TXT', value: 'v=spf1 mx -all', ttl: 300, ttl_before: 3600 },
        { op: 'remove', host: '_old', type: 'TXT', value: HOSTILE, ttl: 3600 },
        { op: 'remove', host: 'default._domainkey', type: 'TXT', value: DKIM, ttl: 3600 },
      ],
      request: { method: 'PUT', path: `/dns/${alice}` },
    });
    // The whole record list the PUT sends: the kept ones as read, the SPF's TTL changed, the A record added.
    const body = zone?.request.body as { records: { other: { host: string; type: string; ttl: number }[] } };
    expect(body.records.other.map((o) => `${o.type} ${o.host} ${o.ttl}`)).toEqual([
      'NS @ 86400',
      'TXT @ 300',
      'TXT _acme-challenge 60',
      'A @ 3600',
    ]);
    await expectNoSecrets([r]);
  });

  it('Markdown: zones to update, the removed records counted beside deletes and listed, each zone under its domain', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(r.code, r.stderr).toBe(0);
    const md = r.stdout;
    expect(md).not.toMatch(RAW);
    expect(md).toContain(
      '### panel-provision plan: 1 to create (1 domain), 2 to update (2 zones), 2 DNS records to remove\n',
    );
    expect(md).toContain(
      '| :warning: **DNS records to remove** | **2** and the defaults of 1 new zone |\n| zones to update | 2 |\n',
    );
    const head = md.slice(0, md.indexOf('<details>'));
    expect(head).toContain(
      '**DNS records to remove**: 2 records leave their zones, and the default records of 1 new domain.',
    );
    expect(head).toContain(
      '- :x: dns "alice.example": TXT &#95;old "say &#92;"hi&#92;" &#60;img src=x onerror=alert(1)&#62; &#42;&#42;bold',
    );
    expect(head).toContain(`- :x: dns "alice.example": TXT default.&#95;domainkey ${CUT_DKIM}`);
    expect(head).not.toMatch(/<img|\*\*bold|```/);
    // Only the renderer's own fences start a line.
    expect(md.split('\n').filter((l) => l.startsWith('```'))).toEqual(['```diff', '```']);
    expect(md).toContain('~ dns "alice.example":\n-     TXT _old "say');
    expect(md).toMatch(
      /\n\+ POST \/domains \{.*\}\n# dns "new\.example": its records are written after the domain's POST.*\n# dns "new\.example": the zone becomes custom.*\n~ dns "new\.example":\n\+ {5}A @ 192\.0\.2\.20 \(ttl 3600\)\n~ PUT \/dns\/\{id\} /,
    );
  });
});

describe('a saved plan with zones', () => {
  it('is shown as plan printed it, and applied with an outcome line per zone', async () => {
    const w = await workspace(MANIFEST, SEED);
    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    for (const format of ['text', 'markdown', 'json']) {
      const live = await run(['plan', w.file, '--format', format], w.env);
      const shown = await run(['show', w.planFile, '--format', format], {});
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout, format).toBe(live.stdout);
    }

    const applied = await run(['apply', w.planFile], w.env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toMatch(RAW);
    expect(applied.stdout).toContain('Apply: 3 succeeded, 0 failed, 0 skipped.');
    expect(applied.stdout).toMatch(
      / ✓ updated dns "alice\.example" of client "alice" \(id \d+\): 1 record added, 1 TTL changed, 2 removed$/m,
    );
    expect(applied.stdout).toMatch(
      / ✓ updated dns "new\.example" of client "alice" \(id \d+\): written after the domain's POST; .+$/m,
    );
    const zone = w.sim.state.zones.get(idOf(w, 'alice.example'));
    expect(zone?.records.other.map((r) => `${r.type} ${r.host}`).sort()).toEqual([
      'A @',
      'NS @',
      'TXT @',
      'TXT _acme-challenge',
    ]);

    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes: the panel matches the manifest.');
    await expectNoSecrets([planned, applied, again]);
  });
});

const planValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object,
);
