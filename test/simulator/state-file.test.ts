/**
 * The simulator's state file as a log (src/simulator/state-file.ts): each mutation appended
 * before its answer, the file compacted at start and stop, a torn last line dropped, any other
 * damage refused with its line; and a simulator killed with SIGKILL in the middle of a burst
 * leaves a file that loads with every create it answered.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { API_KEY } from '../helpers/key.js';
import { BIN } from '../helpers/dist.js';
import { call, createClient, tempDir } from '../helpers/sim-http.js';
import { sim, startSim } from '../helpers/sim.js';
import { onDisk } from './on-disk.js';

const lines = async (path: string): Promise<string[]> => (await readFile(path, 'utf8')).split('\n');

describe('the state file is a log', () => {
  test('each mutation appends a line and leaves the snapshot line as it was; stop compacts it to one line', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const simulator = await startSim({ statePath, seed: { clients: [{ username: 'bob' }] } });
    const [snapshot, ...rest] = await lines(statePath);
    expect(rest).toEqual(['']);

    const alice = await createClient(simulator, { username: 'alice', password: 'a-long-password' });
    await call(simulator, 'POST', '/domains', { body: { domain: 'alice.example', id_user: alice } });
    await call(simulator, 'PUT', `/clients/${alice}`, { body: { is_suspended: true } });
    const bob = simulator.state.clientNamed('bob')?.id ?? 0;
    await call(simulator, 'DELETE', `/clients/${bob}`);
    const logged = await lines(statePath);
    // The snapshot is not rewritten: a burst costs what it changes, not the size of the panel.
    expect(logged[0]).toBe(snapshot);
    expect(logged.at(-1)).toBe('');
    const changes = logged.slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(changes.map((c) => `${String(c.set ?? c.delete)}${'delete' in c ? ' removed' : ''}`)).toEqual([
      'clients',
      'domains', // alice's system domain
      'zones', // and its DNS zone
      'passwords',
      'domains',
      'zones',
      'clients',
      'domains removed', // bob's system domain, then bob
      'clients removed',
    ]);

    await simulator.close();
    const compacted = await readFile(statePath, 'utf8');
    expect(compacted.split('\n')).toHaveLength(2);
    const state = JSON.parse(compacted) as { clients: { username: string; is_suspended: boolean }[] };
    expect(state.clients).toEqual([expect.objectContaining({ username: 'alice', is_suspended: true })]);
    const again = await sim({ statePath });
    expect(again.state.passwordOf('alice')).toBe('a-long-password');
    expect(again.state.domainNamed('alice.example')?.id_user).toBe(alice);
    expect(again.state.clientNamed('bob')).toBeUndefined();
    // Ids go on after the deleted ones.
    expect(await createClient(again, { username: 'carol' })).toBe(alice + 1);
  });

  test('a torn last line (a kill while appending) is dropped; the lines before it count', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, systemDomains: false });
    await createClient(first, { username: 'alice' });
    await createClient(first, { username: 'bob' });
    const text = await readFile(statePath, 'utf8');
    // The process dies, as kill -9 would leave it: the file as it is, never compacted.
    await first.close();
    const torn = `${text}{"set":"clients","record":{"id":9,"userna`;
    await writeFile(statePath, torn);
    const loaded = await onDisk(statePath);
    expect(loaded.clients.map((c) => c.username)).toEqual(['alice', 'bob']);
    expect(loaded.passwords.bob).toBe(first.state.passwordOf('bob'));
    // A whole last line without its newline (bob's password) is a change like any other.
    expect(text.split('\n').at(-2)).toMatch(/^\{"set":"passwords"/);
    await writeFile(statePath, text.slice(0, -1));
    expect((await onDisk(statePath)).passwords.bob).toBe(first.state.passwordOf('bob'));
    // Cut inside it, it is dropped: bob is there, without a password.
    await writeFile(statePath, text.slice(0, -10));
    expect(await onDisk(statePath)).toMatchObject({
      passwords: { alice: expect.any(String) as unknown, bob: undefined },
    });
  });

  test('a damaged line before the last, or one that is not a change, is refused naming the file and the line', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, systemDomains: false });
    await first.close();
    const snapshot = await readFile(statePath, 'utf8');
    for (const [log, line] of [
      ['{"set":"clients","rec\n{"delete":"clients","id":2}\n', 2],
      ['{"set":"clients","record":{"id":"two","username":"x"}}\n', 2],
      ['{"delete":"admins","id":1}\n', 2],
      ['{"delete":"clients","id":2}\n[]\n', 3],
    ] as const) {
      await writeFile(statePath, snapshot + log);
      await expect(startSim({ statePath })).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringMatching(
          new RegExp(`^${statePath}: line ${line} is not (valid JSON|a change)`),
        ) as unknown,
        hint: expect.stringContaining('move it away') as unknown,
      });
    }
  });

  test('files of one JSON document load: one line without a newline (older versions) or pretty-printed', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, seed: { clients: [{ username: 'alice' }] } });
    await first.close();
    const state = JSON.parse(await readFile(statePath, 'utf8')) as unknown;
    for (const text of [JSON.stringify(state), JSON.stringify(state, null, 2)]) {
      await writeFile(statePath, text);
      expect((await onDisk(statePath)).clients.map((c) => c.username)).toEqual(['alice']);
    }
  });
});

describe('a simulator killed in the middle of a burst', () => {
  test('leaves a state file that loads, holding every create it answered', { timeout: 60_000 }, async () => {
    const statePath = join(await tempDir(), 'state.json');
    const child = spawn(process.execPath, [BIN, 'simulator', '--api-key', API_KEY, '--state', statePath], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_, signal) => {
        resolve(signal);
      }),
    );
    try {
      const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
      const url = /listening on (\S+)/.exec(String(first.value))?.[1] ?? '';
      expect(url).toMatch(/^http:/);
      const answered: string[] = [];
      const post = async (username: string): Promise<void> => {
        const answer = await request(`${url}/clients`, {
          method: 'POST',
          headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: `password-of-${username}` }),
        });
        await answer.body.text();
        if (answer.statusCode === 201) answered.push(username);
      };
      // 16 at a time, until SIGKILL lands once 150 have been answered, without waiting for the rest.
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < 2_000) {
          const username = `user${next++}`;
          await post(username).catch(() => undefined);
          if (answered.length >= 150 && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          if (child.signalCode !== null) return;
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      expect(await exited).toBe('SIGKILL');
      const loaded = await onDisk(statePath);
      const names = new Set(loaded.clients.map((c) => c.username));
      for (const username of answered) {
        expect(names.has(username), username).toBe(true);
        expect(loaded.passwords[username], username).toBe(`password-of-${username}`);
      }
      expect(answered.length).toBeGreaterThanOrEqual(150);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
