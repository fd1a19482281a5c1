/** `provision simulator` as a user starts it: flags, faults, state across restarts. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY, run, type RunResult } from '../helpers/cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-sim-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Runs `provision simulator <args>` until `use` is done with its URL, then stops it like Ctrl-C. */
async function withSimulator(args: string[], use: (url: string) => Promise<void>): Promise<RunResult> {
  const port = await freePort();
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const running = run(['simulator', '--api-key', API_KEY, '--port', String(port), ...args], {}, { stop: stopped });
  const url = `http://127.0.0.1:${port}/api/v2`;
  try {
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`${url}/ping`, { headers: { 'X-API-Key': API_KEY } }).then(
        () => true,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await use(url);
  } finally {
    stop();
  }
  return running;
}

const get = async (url: string, path: string) => {
  const answer = await fetch(`${url}${path}`, { headers: { 'X-API-Key': API_KEY } });
  return {
    status: answer.status,
    type: answer.headers.get('content-type') ?? '',
    body: await answer.text(),
  };
};

describe('provision simulator', () => {
  it('serves the API with a seed, keeps its state in a file across restarts, never prints the key', async () => {
    const seed = join(dir, 'seed.json');
    const state = join(dir, 'state.json');
    await writeFile(
      seed,
      JSON.stringify({
        hostingPlans: ['Gold'],
        clients: [{ username: 'alice', plan: 'Gold', domains: ['alice.example'] }],
      }),
    );
    const first = await withSimulator(['--seed', seed, '--state', state], async (url) => {
      expect(JSON.parse((await get(url, '/hosting-plans')).body)).toEqual([expect.objectContaining({ name: 'Gold' })]);
      const created = await fetch(`${url}/clients`, {
        method: 'POST',
        headers: { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' },
        body: '{"username":"bob"}',
      });
      expect(created.status).toBe(201);
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^simulator listening on http:\/\/127\.0\.0\.1:\d+\/api\/v2 \(Ctrl-C stops it\)\nsimulator stopped\n$/,
    );
    expect(first.stdout + first.stderr).not.toContain(API_KEY);

    await withSimulator(['--state', state], async (url) => {
      const names = (JSON.parse((await get(url, '/clients')).body) as { username: string }[]).map((c) => c.username);
      expect(names.sort()).toEqual(['alice', 'bob']);
    });
  });

  it('switches faults on from flags', async () => {
    await withSimulator(['--api-disabled'], async (url) => {
      expect((await get(url, '/clients')).type).toMatch(/^text\/html/);
    });
    await withSimulator(['--no-domain-list'], async (url) => {
      expect((await get(url, '/domains')).status).toBe(404);
    });
    await withSimulator(['--error-rate', '1', '--fault-seed', '3'], async (url) => {
      expect([500, 502, 503]).toContain((await get(url, '/clients')).status);
    });
  });

  it('a port in use, a port out of range, a host that is not here: usage errors that say so', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      expect((await run(['simulator', '--api-key', API_KEY, '--port', String(port)])).stderr).toBe(
        `error: the simulator cannot listen on 127.0.0.1:${port}: port ${port} is in use\nhint: choose another --port, or 0 for a free one\n`,
      );
    } finally {
      busy.close();
    }
    expect((await run(['simulator', '--api-key', API_KEY, '--port', '70000'])).stderr).toBe(
      'error: --port takes a whole number from 0 to 65535 in plain digits, not "70000"\n',
    );
    const elsewhere = await run(['simulator', '--api-key', API_KEY, '--host', '192.0.2.1']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(
      /^error: the simulator cannot listen on 192\.0\.2\.1:0: 192\.0\.2\.1 is not an address of this machine\nhint: /,
    );
    const unresolvable = await run(['simulator', '--api-key', API_KEY, '--host', 'no-such-host.invalid']);
    expect(unresolvable.stderr).toMatch(/^error: the simulator cannot listen on no-such-host\.invalid:0: /);
    expect(unresolvable.stderr).not.toContain('internal error');
  });

  it('explains bad flags', async () => {
    expect((await run(['simulator', '--api-key', API_KEY, '--error-rate', '2'])).stderr).toBe(
      'error: --error-rate takes a share between 0 and 1, like 0.1, not "2"\n',
    );
    expect((await run(['simulator', '--api-key', API_KEY, '--latency', '1.5'])).stderr).toBe(
      'error: --latency takes a whole number from 0 to 60000 in plain digits, not "1.5"\n',
    );
    expect((await run(['simulator'])).stderr).toBe(
      'error: the simulator needs an API key\nhint: give --api-key KEY or set PROVISION_API_KEY\n',
    );
  });
});
