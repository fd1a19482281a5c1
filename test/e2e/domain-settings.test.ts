/**
 * A domain's settings through the CLI against the simulator: a create carries them in its POST,
 * an update sends only the top-level keys that differ (nested objects whole, with the keys no
 * manifest manages as they were), `hsts: false` and `redirect: false` turn things off, a panel
 * whose records lack the objects gets nothing sent, and plan converges.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const SHOP = `version: 1
clients:
  - username: alice
    domains:
      - name: shop.example
        php_version: "8.3"
        https:
          lets_encrypt: true
          force: true
          hsts: {max_age: 31536000, include_subdomains: true, preload: false}
        redirect: {to: "https://a.example/", status: 302}
`;

/** A workspace whose simulator records every request's method, path and body; `writes()` those that are not GETs. */
async function recorded(manifest: string, options: Partial<SimulatorOptions> = {}) {
  const seen: InterceptRequest[] = [];
  const w = await workspace(manifest, {
    ...options,
    intercept: async (request) => {
      seen.push(request);
      return options.intercept?.(request);
    },
  });
  const writes = () =>
    seen.filter((r) => r.method !== 'GET').map((r) => ({ method: r.method, path: r.path, body: r.body }));
  const clear = () => seen.splice(0);
  return { ...w, writes, clear };
}

const apply = (file: string, env: Record<string, string>) => run(['apply', file, '--auto-approve'], env);
const settled = (file: string, env: Record<string, string>) => run(['plan', file, '--detailed-exitcode'], env);

describe('domain settings through the CLI', () => {
  it('creates a domain with its settings in one POST, and then plans no change', async () => {
    const w = await recorded(SHOP, { seed: { clients: [{ username: 'alice' }] } });
    const done = await apply(w.file, w.env);
    expect(done.code, done.stderr).toBe(0);
    expect(w.writes()).toEqual([
      {
        method: 'POST',
        path: '/domains',
        body: {
          domain: 'shop.example',
          id_user: w.sim.state.clientNamed('alice')?.id,
          php_version: '8.3',
          security: {
            lets_encrypt: true,
            is_prefer_https: true,
            is_hsts: true,
            hsts_max_age: 31536000,
            hsts_include: true,
            hsts_preload: false,
          },
          target: { is_forwarding: true, target: 'https://a.example/', forwarding_type: 302 },
        },
      },
    ]);
    expect(w.sim.state.domainNamed('shop.example')).toMatchObject({
      php_version: '8.3',
      security: { id_certificate: 0, lets_encrypt: true, is_prefer_https: true, is_hsts: true },
      target: { target: 'https://a.example/', is_forwarding: true, forwarding_type: 302 },
    });
    const again = await settled(w.file, w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it('updates each setting with only the keys that differ, keeping the rest of each object', async () => {
    const security = { id_certificate: 12, lets_encrypt: true, is_prefer_https: false, is_hsts: true };
    const target = { target: '/home/users/alice/www/shop.example/', is_forwarding: false, forwarding_type: 301 };
    const w = await recorded('version: 1\nclients: []\n', {
      seed: {
        clients: [
          {
            username: 'alice',
            domains: [
              { name: 'shop.example', php_version: '8.1', security: { ...security, hsts_max_age: 600 }, target },
            ],
          },
        ],
      },
    });
    const id = w.sim.state.domainNamed('shop.example')?.id;
    const SECURITY = { ...security, hsts_max_age: 600, hsts_include: false, hsts_preload: false };
    const forwarding = { target: 'https://old.example/', is_forwarding: true, forwarding_type: 302 };
    // [manifest keys, what the PUT must send, the target the panel starts from]
    const steps: [string, unknown, typeof target][] = [
      ['php_version: "8.3"', { php_version: '8.3' }, target],
      ['https: {force: true}', { security: { ...SECURITY, is_prefer_https: true } }, target],
      ['https: {lets_encrypt: false}', { security: { ...SECURITY, lets_encrypt: false } }, target],
      [
        'https: {hsts: {max_age: 31536000, include_subdomains: true}}',
        { security: { ...SECURITY, hsts_max_age: 31536000, hsts_include: true } },
        target,
      ],
      ['https: {hsts: false}', { security: { ...SECURITY, is_hsts: false } }, target],
      [
        'redirect: {to: "https://a.example/"}',
        { target: { ...target, target: 'https://a.example/', is_forwarding: true } },
        target,
      ],
      ['redirect: false', { target: { ...forwarding, is_forwarding: false } }, forwarding],
    ];
    for (const [settings, body, start] of steps) {
      // The panel as seeded (its owner may have changed it since), forwarding where the step needs it.
      const reset = await fetch(`${w.sim.url}/domains/${id}`, {
        method: 'PUT',
        headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ php_version: '8.1', security: SECURITY, target: start }),
      });
      expect(reset.status).toBe(200);
      await writeFile(
        w.file,
        `version: 1\nclients:\n  - username: alice\n    domains:\n      - name: shop.example\n        ${settings}\n`,
      );
      w.clear();
      const done = await apply(w.file, w.env);
      expect(done.code, done.stderr).toBe(0);
      expect(w.writes(), settings).toEqual([{ method: 'PUT', path: `/domains/${id}`, body }]);
      const again = await settled(w.file, w.env);
      expect(again.code, `${settings}\n${again.stdout}`).toBe(0);
    }
    expect(w.sim.state.domainNamed('shop.example')).toMatchObject({
      security: SECURITY,
      target: { ...forwarding, is_forwarding: false },
    });
  });

  it('sends nothing for settings a panel record does not show, and says so', async () => {
    const manifest = SHOP;
    const w = await recorded(manifest, {
      seed: { clients: [{ username: 'alice', domains: ['shop.example'] }] },
      // A panel whose domain records carry no php_version, security or target.
      intercept: async ({ method, path, headers }) => {
        if (method !== 'GET' || !path.startsWith('/domains') || headers['x-test-raw'] !== undefined) return undefined;
        const answer = await fetch(`${w.sim.url}${path}`, { headers: { 'x-api-key': API_KEY, 'x-test-raw': '1' } });
        const strip = (d: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(d).filter(([k]) => !['php_version', 'security', 'target'].includes(k)));
        const json = (await answer.json()) as Record<string, unknown> | Record<string, unknown>[];
        return { status: answer.status, json: Array.isArray(json) ? json.map(strip) : strip(json) };
      },
    });
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // The record lacks the object: the note names it.
    expect(plan.stdout + plan.stderr).toMatch(/has no "security" object: https\.force not compared/);
    const done = await apply(w.file, w.env);
    expect(done.code, done.stderr).toBe(0);
    expect(w.writes()).toEqual([]);
  });
});
