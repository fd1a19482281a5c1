/* eslint-disable no-control-regex -- these tests look for control characters */
/**
 * A domain's settings through the whole CLI, in-process against the simulator on loopback:
 * plan in text, JSON and Markdown; a saved plan shown again and applied exactly, the keys no
 * manifest manages sent back as they were; a saved plan refused as stale (exit 3, nothing sent)
 * when a key of `security` it sends back was changed in the panel after review; and the panel's
 * strings printed as data.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { API_KEY, expectNoSecrets, run, workspace } from '../helpers/cli.js';

/** shop forces HTTPS (on the panel: not yet); blog is new, with a PHP version and Let's Encrypt. */
const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: shop.alice.example
        https: {force: true}
      - name: blog.alice.example
        php_version: "8.3"
        https: {lets_encrypt: true}
`;

/** alice's shop on the panel with a certificate (a key no manifest manages) and Let's Encrypt on. */
const SEED = {
  seed: {
    clients: [
      {
        username: 'alice',
        domains: [{ name: 'shop.alice.example', security: { id_certificate: 5, lets_encrypt: true } }],
      },
    ],
  },
};

/** The panel's `security` of shop as the seed makes it, HTTPS forced. */
const FORCED = {
  id_certificate: 5,
  lets_encrypt: true,
  is_prefer_https: true,
  is_hsts: false,
  hsts_max_age: 0,
  hsts_include: false,
  hsts_preload: false,
};

/** Characters that must never reach an output raw (the program's own line breaks aside). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A change made on the panel behind the plan's back: PUT /domains/{id}, as any API client would. */
async function putBehind(url: string, id: number, body: object): Promise<void> {
  const answer = await request(`${url}/domains/${id}`, {
    method: 'PUT',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await answer.body.dump();
  expect(answer.statusCode).toBe(200);
}

/** The simulator's id of a domain. */
function idOf(w: Awaited<ReturnType<typeof workspace>>, name: string): number {
  const id = w.sim.state.domainNamed(name)?.id;
  expect(id).toEqual(expect.any(Number));
  return id ?? 0;
}

/** The requests that change the panel, as `<METHOD> <path>`. */
function writes(w: Awaited<ReturnType<typeof workspace>>): string[] {
  return w.sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

describe('domain settings in the plan', () => {
  it('text: the update with its request, the create with what it sets', async () => {
    const w = await workspace(MANIFEST, SEED);
    const shop = idOf(w, 'shop.alice.example');
    const alice = w.sim.state.clientNamed('alice')?.id;
    const r = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain(
      '  # domain "shop.alice.example" of client "alice" will be updated: differs from the manifest\n' +
        '  ~ domain "shop.alice.example": https.force: false -> true\n' +
        `  ~ PUT /domains/${shop} {"security":${JSON.stringify(FORCED)}}\n` +
        '  # domain "blog.alice.example" of client "alice" will be created: not on the panel\n' +
        '  + domain "blog.alice.example": php_version: "8.3", https.lets_encrypt: true\n' +
        `  + POST /domains {"domain":"blog.alice.example","id_user":${alice},"php_version":"8.3",` +
        '"security":{"lets_encrypt":true}}\n',
    );
    expect(r.stdout).toMatch(/^Plan: 1 to create \(1 domain\), 1 to update \(1 domain\)\.$/m);
    expect(writes(w)).toEqual([]);
  });

  it('JSON: fields by their dotted names, counted as an update, format 2.5', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(r.code, r.stderr).toBe(0);
    const document = JSON.parse(r.stdout) as {
      format_version: string;
      changes: Record<string, unknown>[];
      summary: Record<string, number>;
    };
    expect(document.format_version).toBe('2.5');
    expect(document.summary).toEqual({ create: 1, update: 1, delete: 0, conflicts: 0, unknowns: 0 });
    expect(document.changes[0]).toMatchObject({
      action: 'update',
      type: 'domain',
      name: 'shop.alice.example',
      client: 'alice',
      fields: [{ field: 'https.force', before: false, after: true }],
      request: { method: 'PUT', body: { security: FORCED } },
    });
    expect(document.changes[1]).toMatchObject({
      action: 'create',
      type: 'domain',
      name: 'blog.alice.example',
      settings: { php_version: '8.3', 'https.lets_encrypt': true },
    });
    await expectNoSecrets([r]);
  });

  it('Markdown: the settings under their domain, in their client section', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('### panel-provision plan: 1 to create (1 domain), 1 to update (1 domain)\n');
    expect(r.stdout).toContain('| domains to update | 1 |\n');
    expect(r.stdout).toContain(
      '<details><summary><code>alice</code>: 1 to create (1 domain), 1 to update (1 domain)</summary>\n\n' +
        '```diff\n~ domain "shop.alice.example": https.force: false -> true\n~ PUT /domains/',
    );
    expect(r.stdout).toContain(
      '+ domain "blog.alice.example":\n+     php_version: "8.3"\n+     https.lets_encrypt: true\n+ POST /domains',
    );
  });

  it('a setting the panel record does not show is a warning, not a change', async () => {
    // A panel whose domain records carry no `security`: https.force cannot be compared.
    const w = await workspace(MANIFEST, {
      ...SEED,
      intercept: ({ method, path }) =>
        method === 'GET' && path === '/domains'
          ? { status: 200, json: [{ id: 40, domain: 'shop.alice.example', id_user: 2, php_version: '' }] }
          : undefined,
    });
    expect(w.sim.state.clientNamed('alice')?.id).toBe(2);
    const r = await run(['plan', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('~ domain');
    expect(r.stdout).toMatch(
      /^ {2}! domain "shop\.alice\.example" of client "alice": .*has no "security" object: https\.force not compared, not changed$/m,
    );
    expect(r.stdout).toMatch(/^Plan: 1 to create \(1 domain\); 1 warning\.$/m);
    const markdown = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(markdown.stdout).toContain('| warnings | 1 |\n');
    expect(markdown.stdout).toMatch(
      /^- :warning: domain "shop\.alice\.example" of client "alice": .*has no "security" object/m,
    );
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as { unknowns: unknown };
    expect(json.unknowns).toEqual([
      { client: 'alice', domain: 'shop.alice.example', field: 'https.force', keys: ['security'] },
    ]);
  });
});

describe('a saved plan of domain settings', () => {
  it('is shown as plan printed it, applied exactly (the certificate kept), and the next plan has no changes', async () => {
    const w = await workspace(MANIFEST, SEED);
    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    for (const format of ['text', 'markdown', 'json']) {
      const live = await run(['plan', w.file, '--format', format], w.env);
      const shown = await run(['show', w.planFile, '--format', format], {});
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout, format).toBe(live.stdout);
    }
    expect((await run(['show', w.planFile, '--format', 'json'])).stdout).toBe(await readFile(w.planFile, 'utf8'));

    const applied = await run(['apply', w.planFile], w.env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply: 2 succeeded, 0 failed, 0 skipped.');
    expect(applied.stdout).toMatch(/ ✓ updated domain "shop\.alice\.example" of client "alice" \(id \d+\)$/m);
    // Independent changes: sent in either order.
    expect(writes(w).sort()).toEqual(['POST /domains', `PUT /domains/${idOf(w, 'shop.alice.example')}`]);
    expect(w.sim.state.domainNamed('shop.alice.example')).toMatchObject({ security: FORCED });
    expect(w.sim.state.domainNamed('blog.alice.example')).toMatchObject({
      php_version: '8.3',
      security: { lets_encrypt: true, is_prefer_https: false },
    });

    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes: the panel matches the manifest.');
    await expectNoSecrets([planned, applied, again]);
  });

  for (const [what, changed] of [
    ['security.id_certificate (no manifest manages it)', { id_certificate: 9 }],
    ['security.hsts_max_age (only https.force is managed)', { hsts_max_age: 300 }],
  ] as const) {
    it(`goes stale, sending nothing, when ${what} is changed in the panel after review`, async () => {
      const w = await workspace(MANIFEST, SEED);
      const shop = idOf(w, 'shop.alice.example');
      expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
      const security = { ...FORCED, is_prefer_https: false, ...changed };
      await putBehind(w.sim.url, shop, { security });
      const before = writes(w).length;

      const r = await run(['apply', w.planFile], w.env);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain('error: stale plan');
      expect(r.stderr).toContain(
        'domain "shop.alice.example"\'s security settings changed on the panel since the plan was made',
      );
      expect(writes(w)).toHaveLength(before);
      expect(w.sim.state.domainNamed('shop.alice.example')).toMatchObject({ security });
    });
  }
});

describe("the panel's strings in domain settings", () => {
  it('are printed as data in text, Markdown and JSON', async () => {
    const evil = 'https://evil.example/\n::error::pwn\u001b]8;;http://x.example\u0007\u202e`<img src=x>` ```';
    const w = await workspace(
      `version: 1
clients:
  - username: alice
    domains:
      - name: shop.alice.example
        redirect: {to: "https://alice.example/", status: 302}
`,
      {
        seed: {
          clients: [
            {
              username: 'alice',
              domains: [{ name: 'shop.alice.example', target: { target: evil, is_forwarding: true } }],
            },
          ],
        },
      },
    );
    for (const format of ['text', 'markdown', 'json']) {
      const r = await run(['plan', w.file, '--format', format], w.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(RAW);
      expect(r.stderr).not.toMatch(RAW);
      if (format === 'json') {
        const document = JSON.parse(r.stdout) as { changes: { fields: unknown }[] };
        expect(document.changes[0]?.fields).toEqual([
          {
            field: 'redirect',
            before: { to: evil, status: 301 },
            after: { to: 'https://alice.example/', status: 302 },
          },
        ]);
        continue;
      }
      expect(r.stdout).toContain(
        'domain "shop.alice.example": redirect: {"to":"https://evil.example/\\n::error::pwn\\u001b]8;;' +
          'http://x.example\\u0007\\u202e`<img src=x>` ```","status":301} -> ' +
          '{"to":"https://alice.example/","status":302}\n',
      );
    }
  });
});
