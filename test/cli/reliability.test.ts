/**
 * The reliability machinery as a user meets it through `provision apply`: settling accounts,
 * ambiguous POSTs adopted, proxies from the environment, --verbose.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { API_KEY, createdRecords, run, workspace } from '../helpers/cli.js';
import { PROXIED_HOST, proxiedUrl, startTestProxy } from '../helpers/proxy.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, www.alice.example]\n';

async function setup(options: Parameters<typeof workspace>[1] = {}) {
  const w = await workspace(MANIFEST, options);
  return { ...w, env: w.envWithSecrets };
}

describe('apply meets a panel that is still setting an account up', () => {
  it("retries the new client's domains until the account is ready", async () => {
    const { file, env, sim } = await setup({ notReadyMs: 400 });
    const r = await run(['apply', file, '--auto-approve'], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Apply: 3 succeeded, 0 failed, 0 skipped.');
    expect(
      sim.requests.filter((q) => q.method === 'POST' && q.path === '/domains' && q.status === 400).length,
    ).toBeGreaterThan(0);
    expect(sim.state.domainNamed('www.alice.example')?.id_user).toBe(sim.state.clientNamed('alice')?.id);
  });

  it('gives up after --settle-timeout, naming the flag', async () => {
    const { file, env } = await setup({ notReadyMs: 60_000 });
    const r = await run(['apply', file, '--auto-approve', '--settle-timeout', '0.3'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /✗ failed to create domain "alice\.example" of client "alice": .*not ready.*--settle-timeout/,
    );
    expect(r.stdout).toContain('- skipped domain "www.alice.example" of client "alice": domain "alice.example" failed');
  });

  it('refuses a --settle-timeout that is not a number of seconds', async () => {
    const { file, env } = await setup();
    const r = await run(['apply', file, '--auto-approve', '--settle-timeout', 'soon'], env);
    expect(r.stderr).toBe(
      'error: --settle-timeout takes a number of seconds from 0 to 3600 in plain digits (like 30 or 2.5), not "soon"\n',
    );
  });
});

describe('apply meets a POST whose answer is lost', () => {
  it('adopts the client it created, sets a new password at once and records it', async () => {
    const { file, env, sim, secrets } = await setup({
      ambiguousPostRate: 1,
      faultFilter: ({ method, path }) => method === 'POST' && path === '/clients',
    });
    const r = await run(['apply', file, '--auto-approve'], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /✓ created client "alice" \(id \d+\): the password the panel made for it was lost with the answer: a new password is set and recorded/,
    );
    expect(sim.requests.filter((q) => q.method === 'POST' && q.path === '/clients')).toHaveLength(1);
    const id = sim.state.clientNamed('alice')?.id;
    expect(sim.requests.filter((q) => q.method === 'PUT').map((q) => q.path)).toEqual([`/clients/${String(id)}`]);
    const journal = await readFile(secrets, 'utf8');
    expect(JSON.parse(journal.trim().split('\n').at(-1) ?? '')).toMatchObject({
      username: 'alice',
      id,
      password: sim.state.passwordOf('alice'),
    });
  });
});

describe('proxies from the environment', () => {
  it('sends requests through HTTP_PROXY, says so once, and not for hosts in NO_PROXY', async () => {
    const { file, env, sim } = await setup();
    const proxy = await startTestProxy();
    onTestFinished(proxy.close);
    const url = proxiedUrl(sim.url);

    const through = await run(['plan', file, '--allow-http'], {
      ...env,
      PROVISION_URL: url,
      HTTP_PROXY: proxy.url,
    });
    expect(through.code, through.stderr).toBe(0);
    expect(proxy.used.length).toBeGreaterThan(0);
    expect(proxy.used.every((s) => s.startsWith(`CONNECT ${PROXIED_HOST}:`))).toBe(true);
    expect(through.stderr.split(`through the proxy ${proxy.url}`)).toHaveLength(2);

    proxy.used.length = 0;
    // Exempt: sent directly, where panel.test does not resolve: the proxy sees nothing.
    for (const noProxy of ['.test', 'panel.test', '*', 'example.org, *.test']) {
      const direct = await run(['plan', file, '--allow-http'], {
        ...env,
        PROVISION_URL: url,
        HTTP_PROXY: proxy.url,
        NO_PROXY: noProxy,
      });
      expect(direct.code).toBe(1);
      expect(direct.stderr).not.toContain('through the proxy');
    }
    expect(proxy.used).toEqual([]);
  });

  it('never sends a loopback panel through a proxy: the key in clear text stays on the machine', async () => {
    const { file, env } = await setup();
    const proxy = await startTestProxy();
    onTestFinished(proxy.close);
    for (const variable of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY']) {
      const r = await run(['plan', file], { ...env, [variable]: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('through the proxy');
    }
    expect(proxy.used).toEqual([]);
  });
});

describe('--verbose', () => {
  it('logs every request to stderr, never the key', async () => {
    const { file, env } = await setup();
    const r = await run(['plan', file, '--verbose'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^GET \/api\/v2\/ping 200 \d+ ms$/m);
    expect(r.stderr).toMatch(/^GET \/api\/v2\/domains 200 \d+ ms$/m);
    expect(r.stderr).not.toContain(API_KEY);
  });
});

describe('--concurrency', () => {
  it('keeps that many requests in flight, beyond the default connection pool', async () => {
    let inFlight = 0;
    let most = 0;
    const manifest = `version: 1\nclients:\n${Array.from({ length: 24 }, (_, i) => `  - username: user${i}\n`).join('')}`;
    const w = await workspace(manifest, {
      intercept: async ({ method }) => {
        if (method !== 'POST') return undefined;
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 40));
        inFlight--;
        return undefined;
      },
    });
    const r = await run(['apply', w.file, '--auto-approve', '--concurrency', '12'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(most).toBe(12);
  });
});

describe('a 201 whose id is not an integer', () => {
  it('keeps the password and learns the id by name', async () => {
    let url = '';
    let issued = '';
    const w = await workspace('version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n', {
      // Pass the POST on to the panel itself, then answer with the id as a string.
      intercept: async ({ method, path, body, headers }) => {
        if (method !== 'POST' || path !== '/clients' || headers['x-pass'] !== undefined) return undefined;
        const real = await fetch(`${url}/clients`, {
          method: 'POST',
          headers: { 'x-api-key': API_KEY, 'x-pass': '1', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const { id, password } = (await real.json()) as { id: number; password: string };
        issued = password;
        return { status: 201, json: { id: String(id), password } };
      },
    });
    url = w.sim.url;
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('has no integer "id"; its password is saved: looking the id up by name');
    // Saved at once without the id, then completed: the last record for a username counts.
    expect(await createdRecords(w.secrets)).toEqual([
      expect.objectContaining({ username: 'alice', id: null, password: issued }),
      expect.objectContaining({
        username: 'alice',
        id: w.sim.state.clientNamed('alice')?.id,
        password: issued,
      }),
    ]);
    expect(w.sim.state.domainNamed('alice.example')?.id_user).toBe(w.sim.state.clientNamed('alice')?.id);
  });
});

describe('a 201 with a password and no id, and a panel that cannot be asked for the id', () => {
  it('saves the password at once, says the client exists, and the next run completes the record', async () => {
    let broken = true;
    let url = '';
    let issued = '';
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      // The POST reaches the panel itself; its answer comes back without the id.
      intercept: async ({ method, path, body, headers }) => {
        if (!broken || headers['x-pass'] !== undefined) return undefined;
        if (method === 'GET' && path === '/clients/name/alice')
          return { status: 500, json: { code: 500, message: 'down' } };
        if (method !== 'POST' || path !== '/clients') return undefined;
        const real = await fetch(`${url}/clients`, {
          method: 'POST',
          headers: { 'x-api-key': API_KEY, 'x-pass': '1', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        issued = ((await real.json()) as { password: string }).password;
        return { status: 201, json: { password: issued } };
      },
    });
    url = w.sim.url;
    const first = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(
      /failed to create client "alice": .*client "alice" was created and its password is in the secrets file, but the answer has no integer "id"/,
    );
    expect(await createdRecords(w.secrets)).toEqual([
      expect.objectContaining({ username: 'alice', id: null, password: issued }),
    ]);

    broken = false;
    const next = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(
      /secrets\.jsonl:2: the password of client "alice" was saved without its id; the panel lists it as id 2: record completed/,
    );
    expect(next.stderr).not.toContain('password is unknown');
    expect((await createdRecords(w.secrets)).at(-1)).toEqual(
      expect.objectContaining({ username: 'alice', id: 2, password: issued }),
    );
  });
});

describe('a password lost by an earlier run', () => {
  it('is named even when the saved plan is refused as stale', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n  - username: bob\n', {
      seed: { clients: [{ username: 'alice' }] },
    });
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    // An earlier run announced alice's POST and was killed before the answer; bob appears behind the plan's back.
    await writeFile(
      w.secrets,
      `${JSON.stringify({ intent: 'create_client', at: 't', panel_url: w.sim.url, username: 'alice' })}\n`,
      { mode: 0o600 },
    );
    await fetch(`${w.sim.url}/clients`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: '{"username":"bob"}',
    });
    const r = await run(['apply', w.planFile], w.envWithSecrets);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `client "alice" (id ${String(w.sim.state.clientNamed('alice')?.id)}) was created by an earlier apply that was stopped before the panel's answer arrived`,
    );
    // Refused: nothing sent and nothing recorded; the open intent tells the next apply, which sets one.
    expect(w.sim.requests.filter((q) => q.method === 'PUT')).toEqual([]);
    expect(await createdRecords(w.secrets)).toEqual([]);
    const next = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain('client "alice" (id 2): its password was unknown: a new one is set and recorded');
    const journal = await readFile(w.secrets, 'utf8');
    expect(JSON.parse(journal.trim().split('\n').at(-1) ?? '')).toMatchObject({
      username: 'alice',
      password: w.sim.state.passwordOf('alice'),
    });
  });
});

describe('Ctrl-C while a new account settles', () => {
  it('stops waiting at once and exits 130', async () => {
    const w = await workspace(MANIFEST, { notReadyMs: 60_000 });
    // Without the cut the wait would run its 30 s default, past this test's 20 s time-out.
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets, {
      stop: new Promise((resolve) => setTimeout(resolve, 500)),
    });
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stdout).toMatch(
      /✗ failed to create domain "alice\.example" of client "alice": .*stopped waiting for the account to settle: interrupted/,
    );
  });
});
