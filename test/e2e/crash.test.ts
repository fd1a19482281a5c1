/**
 * Crash safety: `provision apply` as a real process, killed with SIGKILL at pseudo-random
 * moments against a slow simulator, round after round, then run to the end. Nothing may be
 * created twice, nothing reported failed that succeeded, and every client's password is in
 * the secrets file, or, for the few whose answer was in flight at a kill, named by a later
 * run so the user can set a new one.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { createdRecords, startWorkspace, type Workspace } from '../helpers/cli.js';
import { killRounds, runBin } from '../helpers/process.js';

const CLIENTS = 30;
const CONCURRENCY = 4;

describe('apply killed with SIGKILL, then run again', () => {
  let p: Workspace | undefined;
  let sim: Simulator;
  beforeAll(async () => {
    // Every POST takes 10-25 ms, so kills land while requests are in flight.
    let tick = 0;
    p = await startWorkspace(undefined, {
      intercept: async ({ method }) => {
        if (method === 'POST') await sleep(10 + (tick++ % 4) * 5);
        return undefined;
      },
    });
    sim = p.sim;
  });
  afterAll(async () => {
    await p?.close();
  });

  it('converges with no duplicate, no false failure and every password accounted for', async () => {
    if (p === undefined) throw new Error('the simulator did not start');
    const manifest = join(p.dir, 'manifest.yaml');
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < CLIENTS; i++)
      lines.push(`  - username: user${i}`, `    domains: [site${i}.example, www.site${i}.example]`);
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const secrets = join(p.dir, 'secrets.jsonl');
    const env = { ...p.env, PROVISION_SECRETS_FILE: secrets };
    const args = ['apply', manifest, '--auto-approve', '--concurrency', String(CONCURRENCY)];

    const { runs, kills } = await killRounds(args, env, 7);

    // Every client and domain of the manifest exists, owned by the right client, once.
    for (let i = 0; i < CLIENTS; i++) {
      const client = sim.state.clientNamed(`user${i}`);
      expect(client?.id, `user${i}`).toEqual(expect.any(Number));
      expect(sim.state.domainNamed(`site${i}.example`)?.id_user).toBe(client?.id);
      expect(sim.state.domainNamed(`www.site${i}.example`)?.id_user).toBe(client?.id);
    }
    const created = sim.requests.filter((r) => r.method === 'POST' && r.status === 201).length;
    expect(created).toBe(CLIENTS * 3);
    expect(sim.requests.filter((r) => r.method === 'POST' && r.status !== 201)).toEqual([]);

    // No run reported a failure: every create either succeeded or was never sent.
    for (const run of runs) expect(run.stdout).not.toContain('✗');

    // Each client: one record with its password, or one with null that a later run warned about.
    const records = await createdRecords(secrets);
    const warnings = runs.map((r) => r.stderr).join('');
    let lost = 0;
    for (let i = 0; i < CLIENTS; i++) {
      const mine = records.filter((r) => r.username === `user${i}`);
      expect(mine, `user${i}`).toHaveLength(1);
      expect(mine[0]?.id).toBe(sim.state.clientNamed(`user${i}`)?.id);
      if (mine[0]?.password === null) {
        lost++;
        expect(warnings).toContain(
          `client "user${i}" (id ${String(mine[0].id)}) was created by an earlier apply that was stopped before the panel's answer arrived`,
        );
      } else {
        expect(typeof mine[0]?.password).toBe('string');
      }
    }
    expect(lost).toBeLessThanOrEqual(kills * CONCURRENCY);
  }, 60_000);
});

describe('a plan that mixes creates, updates and deletes, killed with SIGKILL', () => {
  let p: Workspace | undefined;
  beforeAll(async () => {
    let tick = 0;
    const old = Array.from({ length: 12 }, (_, i) => ({
      username: `old${i}`,
      domains: [`old${i}.example`, `www.old${i}.example`],
    }));
    const kept = Array.from({ length: 8 }, (_, i) => ({
      username: `kept${i}`,
      plan: 'Basic',
      domains: [`kept${i}.example`, `gone${i}.example`],
    }));
    p = await startWorkspace(undefined, {
      seed: { clients: [...old, ...kept] },
      // Every change takes 10-25 ms, so kills land while requests are in flight.
      intercept: async ({ method }) => {
        if (method !== 'GET') await sleep(10 + (tick++ % 4) * 5);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('converges: nothing created twice, nothing deleted that the manifest keeps, every password accounted for', async () => {
    if (p === undefined) throw new Error('the simulator did not start');
    const { sim } = p;
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 10; i++) lines.push(`  - username: new${i}`, `    domains: [new${i}.example]`);
    for (let i = 0; i < 8; i++)
      lines.push(
        `  - username: kept${i}`,
        '    plan: Standard',
        '    suspended: true',
        `    domains: [kept${i}.example, {name: gone${i}.example, state: absent}]`,
      );
    for (let i = 0; i < 6; i++) lines.push(`  - username: old${i}`, '    state: absent');
    const manifest = join(p.dir, 'manifest.yaml');
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const secrets = join(p.dir, 'secrets.jsonl');
    const env = { ...p.env, PROVISION_SECRETS_FILE: secrets };
    const args = ['apply', manifest, '--auto-approve', '--allow-mass-delete', '--concurrency', String(CONCURRENCY)];

    const { runs } = await killRounds(args, env, 11);
    const settled = await runBin(['plan', manifest, '--detailed-exitcode'], env);
    expect(settled.code, settled.stdout).toBe(0);

    for (let i = 0; i < 10; i++)
      expect(sim.state.domainNamed(`new${i}.example`)?.id_user).toBe(sim.state.clientNamed(`new${i}`)?.id);
    for (let i = 0; i < 8; i++) {
      expect(sim.state.clientNamed(`kept${i}`)).toMatchObject({
        id_hosting_plan: 2,
        is_suspended: true,
      });
      expect(sim.state.domainNamed(`kept${i}.example`)?.id_user).toBe(sim.state.clientNamed(`kept${i}`)?.id);
      expect(sim.state.domainNamed(`gone${i}.example`)).toBeUndefined();
    }
    for (let i = 0; i < 12; i++) {
      if (i < 6) expect(sim.state.clientNamed(`old${i}`)).toBeUndefined();
      // Not listed, no prune: kept, with its domains.
      else expect(sim.state.domainNamed(`www.old${i}.example`)?.id_user).toBe(sim.state.clientNamed(`old${i}`)?.id);
    }
    expect(sim.requests.filter((r) => r.method === 'POST' && r.status === 201)).toHaveLength(20);
    expect(sim.requests.filter((r) => r.method !== 'GET' && r.status >= 300 && r.status !== 404)).toEqual([]);
    for (const run of runs) expect(run.stdout).not.toContain('✗');

    const records = await createdRecords(secrets);
    const warnings = runs.map((r) => r.stderr).join('');
    for (let i = 0; i < 10; i++) {
      const mine = records.filter((r) => r.username === `new${i}`);
      expect(mine, `new${i}`).toHaveLength(1);
      if (mine[0]?.password === null)
        expect(warnings).toContain(`client "new${i}" (id ${String(mine[0].id)}) was created by an earlier apply`);
      else expect(typeof mine[0]?.password).toBe('string');
    }
  }, 60_000);
});

describe('apply stopped with SIGTERM', () => {
  let p: Workspace | undefined;
  beforeAll(async () => {
    p = await startWorkspace(undefined, {
      intercept: async ({ method }) => {
        if (method === 'POST') await sleep(30);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('lets in-flight requests finish, saves their passwords, prints the summary and exits 130', async () => {
    if (p === undefined) throw new Error('the simulator did not start');
    const manifest = join(p.dir, 'manifest.yaml');
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 20; i++) lines.push(`  - username: user${i}`, `    domains: [site${i}.example]`);
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
    const args = ['apply', manifest, '--auto-approve', '--concurrency', '2'];

    // Stop once the first creates have finished, while others are in flight.
    const stopped = await runBin(args, env, {
      signalWhen: { signal: 'SIGTERM', stdout: (text) => (text.match(/✓/g) ?? []).length >= 3 },
    });
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stdout).toMatch(/Apply: \d+ succeeded, 0 failed, \d+ skipped/);
    expect(stopped.stdout).toContain('interrupted before it was sent');
    expect(stopped.stdout).not.toContain('✗');
    // The secrets file's lock goes with the run.
    expect(existsSync(`${env.PROVISION_SECRETS_FILE}.lock`)).toBe(false);

    const sim = p.sim;
    const created = [...sim.state.clients.values()].map((c) => c.username);
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(created.length).toBeLessThan(20);
    const records = await createdRecords(env.PROVISION_SECRETS_FILE);
    expect(records.map((r) => r.username).sort()).toEqual([...created].sort());
    expect(records.every((r) => typeof r.password === 'string')).toBe(true);

    const rest = await runBin(args, env);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).not.toContain('password is unknown');
    expect(await createdRecords(env.PROVISION_SECRETS_FILE)).toHaveLength(20);
  }, 60_000);
});

describe('apply interrupted twice', () => {
  let p: Workspace | undefined;
  beforeAll(async () => {
    let posts = 0;
    p = await startWorkspace(undefined, {
      intercept: async ({ method, path }) => {
        // The first clients are quick; later POSTs hang long enough that only a second Ctrl-C ends the run soon.
        if (method === 'POST' && path === '/clients' && ++posts > 2) await sleep(20_000);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('the first Ctrl-C lets requests in flight finish; the second says it stops at once, and does', async () => {
    if (p === undefined) throw new Error('the simulator did not start');
    const manifest = join(p.dir, 'manifest.yaml');
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 10; i++) lines.push(`  - username: user${i}`);
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
    const started = Date.now();
    const run = await runBin(['apply', manifest, '--auto-approve', '--concurrency', '2'], env, {
      signalWhen: {
        signal: 'SIGINT',
        stdout: (text) => text.includes('✓'),
        again: (stderr) => stderr.includes('nothing new is sent'),
      },
    });
    expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 130, signal: null });
    expect(run.stderr).toContain('Ctrl-C again stops at once');
    expect(run.stderr).toMatch(/stopped at once: .*run apply again/);
    // Stopped at once, it still removed the secrets file's lock on its way out.
    expect(existsSync(`${env.PROVISION_SECRETS_FILE}.lock`)).toBe(false);
    // Not held by the hanging requests.
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);
});

describe('a plan that mixes domain settings updates with creates, killed with SIGKILL', () => {
  let p: Workspace | undefined;
  const SECURITY = { id_certificate: 7, lets_encrypt: true, is_hsts: true, hsts_max_age: 600 };
  const TARGET = (i: number) => ({ target: `/home/users/site${i}/www/`, is_forwarding: false, forwarding_type: 301 });
  beforeAll(async () => {
    let tick = 0;
    p = await startWorkspace(undefined, {
      seed: {
        clients: Array.from({ length: 10 }, (_, i) => ({
          username: `site${i}`,
          domains: [{ name: `site${i}.example`, php_version: '8.1', security: SECURITY, target: TARGET(i) }],
        })),
      },
      // Every change takes 10-25 ms, so kills land while requests are in flight.
      intercept: async ({ method }) => {
        if (method !== 'GET') await sleep(10 + (tick++ % 4) * 5);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('converges: every setting as the manifest says, the keys it does not manage kept, nothing created twice', async () => {
    if (p === undefined) throw new Error('the simulator did not start');
    const { sim } = p;
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 10; i++)
      lines.push(
        `  - username: site${i}`,
        '    domains:',
        `      - name: site${i}.example`,
        `        php_version: "${i % 2 === 0 ? '8.3' : '8.1'}"`,
        `        https: {force: true, hsts: ${i % 3 === 0 ? 'false' : '{max_age: 31536000}'}}`,
        ...(i % 2 === 0 ? [`        redirect: {to: "https://to${i}.example/", status: 302}`] : []),
        `      - name: new${i}.example`,
        '        https: {lets_encrypt: true, force: true}',
      );
    const manifest = join(p.dir, 'manifest.yaml');
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
    const args = ['apply', manifest, '--auto-approve', '--concurrency', String(CONCURRENCY)];

    const { runs } = await killRounds(args, env, 9);
    const settled = await runBin(['plan', manifest, '--detailed-exitcode'], env);
    expect(settled.code, settled.stdout).toBe(0);

    for (let i = 0; i < 10; i++) {
      expect(sim.state.domainNamed(`site${i}.example`), `site${i}`).toMatchObject({
        php_version: i % 2 === 0 ? '8.3' : '8.1',
        security: {
          ...SECURITY,
          is_prefer_https: true,
          ...(i % 3 === 0 ? { is_hsts: false } : { hsts_max_age: 31536000, hsts_include: false, hsts_preload: false }),
        },
        target:
          i % 2 === 0
            ? { ...TARGET(i), target: `https://to${i}.example/`, is_forwarding: true, forwarding_type: 302 }
            : TARGET(i),
      });
      expect(sim.state.domainNamed(`new${i}.example`)).toMatchObject({
        id_user: sim.state.clientNamed(`site${i}`)?.id,
        security: { lets_encrypt: true, is_prefer_https: true, is_hsts: false },
      });
    }
    expect(sim.requests.filter((r) => r.method === 'POST' && r.status === 201)).toHaveLength(10);
    expect(sim.requests.filter((r) => r.method !== 'GET' && r.status >= 300)).toEqual([]);
    for (const run of runs) expect(run.stdout).not.toContain('✗');
  }, 60_000);
});

describe('a plan that mixes zone writes with domain creates, killed with SIGKILL', () => {
  let p: Workspace | undefined;
  const RECORDS = [
    { host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 },
    { host: 'old', type: 'TXT', value: 'x', ttl: 3600 },
  ];
  beforeAll(async () => {
    let tick = 0;
    p = await startWorkspace(undefined, {
      seed: {
        clients: Array.from({ length: 10 }, (_, i) => ({
          username: `zone${i}`,
          domains: [{ name: `zone${i}.example`, dns: { records: RECORDS } }],
        })),
      },
      // Every change takes 10-25 ms, so kills land while requests are in flight.
      intercept: async ({ method }) => {
        if (method !== 'GET') await sleep(10 + (tick++ % 4) * 5);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it("converges: each zone as the manifest says, a new domain's zone written after its create, nothing created twice", async () => {
    if (p === undefined) throw new Error('the simulator did not start');
    const { sim } = p;
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 10; i++)
      lines.push(
        `  - username: zone${i}`,
        '    domains:',
        `      - name: zone${i}.example`,
        `        dns: {prune: ${i % 2 === 0}, records: [{host: www, type: A, value: 192.0.2.7}, {host: "@", type: A, value: 192.0.2.1, ttl: 600}]}`,
        `      - name: fresh${i}.example`,
        '        dns: {records: [{host: "@", type: TXT, value: "v=spf1 -all"}]}',
      );
    const manifest = join(p.dir, 'manifest.yaml');
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
    const args = ['apply', manifest, '--auto-approve', '--concurrency', String(CONCURRENCY)];

    const { runs } = await killRounds(args, env, 9);
    const settled = await runBin(['plan', manifest, '--detailed-exitcode'], env);
    expect(settled.code, settled.stdout).toBe(0);

    const records = (name: string): string[] => {
      const id = sim.state.domainNamed(name)?.id ?? -1;
      return (sim.state.zones.get(id)?.records.other ?? []).map((r) => `${r.host} ${r.type} ${r.value} ${r.ttl}`);
    };
    for (let i = 0; i < 10; i++) {
      expect(records(`zone${i}.example`), `zone${i}`).toEqual([
        '@ A 192.0.2.1 600',
        ...(i % 2 === 0 ? [] : ['old TXT x 3600']),
        'www A 192.0.2.7 3600',
      ]);
      expect(records(`fresh${i}.example`)).toContain('@ TXT v=spf1 -all 3600');
      expect(sim.state.domainNamed(`fresh${i}.example`)?.id_user).toBe(sim.state.clientNamed(`zone${i}`)?.id);
    }
    expect(sim.requests.filter((r) => r.method === 'POST' && r.status === 201)).toHaveLength(10);
    expect(sim.requests.filter((r) => r.method !== 'GET' && r.status >= 300)).toEqual([]);
    for (const run of runs) expect(run.stdout).not.toContain('✗');
  }, 60_000);
});
