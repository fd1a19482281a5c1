/**
 * Turning HSTS and forwarding off through the CLI, against a panel whose records show them on
 * without all their details (no `hsts_preload`, no `forwarding_type`): plan shows the change
 * (with the URL the panel keeps as the target), apply sends it, plan then converges; export
 * warns of such a setting instead of leaving it out silently.
 */
import { describe, expect, it } from 'vitest';
import type { InterceptRequest } from '../../src/simulator/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const OFF = `version: 1
clients:
  - username: alice
    domains:
      - name: shop.example
        https: {hsts: false}
        redirect: false
`;

const SEED = {
  clients: [
    {
      username: 'alice',
      domains: [
        {
          name: 'shop.example',
          security: { id_certificate: 3, is_hsts: true, hsts_max_age: 300, hsts_include: false, hsts_preload: false },
          target: { target: 'https://x.example/', is_forwarding: true, forwarding_type: 302 },
        },
      ],
    },
  ],
};

/** A workspace whose GET /domains answers lack security.hsts_preload and target.forwarding_type; `writes()` the requests that are not GETs. */
async function partly(manifest: string) {
  const seen: InterceptRequest[] = [];
  const w = await workspace(manifest, {
    seed: SEED,
    intercept: async (request) => {
      seen.push(request);
      const { method, path, headers } = request;
      if (method !== 'GET' || !path.startsWith('/domains') || headers['x-test-raw'] !== undefined) return undefined;
      const answer = await fetch(`${w.sim.url}${path}`, { headers: { 'x-api-key': API_KEY, 'x-test-raw': '1' } });
      const strip = (d: Record<string, unknown>) => {
        const security = { ...(d.security as Record<string, unknown>) };
        const target = { ...(d.target as Record<string, unknown>) };
        delete security.hsts_preload;
        delete target.forwarding_type;
        return { ...d, security, target };
      };
      const json = (await answer.json()) as Record<string, unknown> | Record<string, unknown>[];
      return { status: answer.status, json: Array.isArray(json) ? json.map(strip) : strip(json) };
    },
  });
  const writes = () =>
    seen.filter((r) => r.method !== 'GET').map((r) => ({ method: r.method, path: r.path, body: r.body }));
  return { ...w, writes };
}

describe('HSTS and forwarding on without readable details', () => {
  it('are turned off by false: planned, applied, then settled', async () => {
    const w = await partly(OFF);
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('https.hsts: true -> false');
    expect(plan.stdout).toContain('redirect: true -> false');
    expect(plan.stdout).toContain(
      'forwarding is turned off, but the panel keeps "https://x.example/" as its target.target ' +
        '(the document root it had is not restored)',
    );
    expect(plan.stdout + plan.stderr).not.toContain('not compared');
    const json = await run(['plan', w.file, '--format', 'json'], w.env);
    const [change] = (JSON.parse(json.stdout) as { changes: { reason: string }[] }).changes;
    expect(change?.reason).toContain('the panel keeps "https://x.example/" as its target.target');

    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr).toBe(0);
    const id = w.sim.state.domainNamed('shop.example')?.id;
    expect(w.writes()).toEqual([
      {
        method: 'PUT',
        path: `/domains/${id}`,
        body: {
          security: {
            id_certificate: 3,
            lets_encrypt: false,
            is_prefer_https: false,
            is_hsts: false,
            hsts_max_age: 300,
            hsts_include: false,
          },
          target: { target: 'https://x.example/', is_forwarding: false },
        },
      },
    ]);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('are a warning naming the keys when the manifest gives an object', async () => {
    const w = await partly(OFF.replace('{hsts: false}', '{hsts: {max_age: 600}}'));
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    // redirect: false is still planned; HSTS against an object is not compared.
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout + plan.stderr).toMatch(/security\.(is_hsts, )?hsts_.*https\.hsts not compared, not changed/);
    expect(plan.stdout).not.toContain('https.hsts:');
  });

  it('are a warning of export naming the domain and the setting', async () => {
    const w = await partly(OFF);
    const exported = await run(['export'], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(
      'domain "shop.example" of client "alice": the panel\'s https.hsts true is turned on, but ' +
        'security.hsts_preload does not read: "https.hsts" left out (not managed)',
    );
    expect(exported.stderr).toContain(
      'domain "shop.example" of client "alice": the panel\'s redirect true is turned on, but ' +
        'target.forwarding_type does not read: "redirect" left out (not managed)',
    );
    expect(exported.stdout).not.toMatch(/hsts|redirect/);
  });
});
