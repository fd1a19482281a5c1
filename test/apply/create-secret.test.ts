/**
 * The one write-ahead create with a secret (apply/create-secret.ts), as creator's createSecret
 * reaches it for any kind whose descriptor has a secret: the intent on disk before the POST,
 * its record naming kind and name, and a kind without a password refused before anything is
 * written or sent. Over real HTTP against the simulator.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { creator } from '../../src/apply/create.js';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal } from '../../src/secrets/journal.js';
import type { InterceptRequest } from '../../src/simulator/index.js';
import { newClient } from '../helpers/builders.js';
import { client } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-create-secret-'));
  path = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createSecret', () => {
  test('a client through the generic path: written ahead with kind and name, then its password current', async () => {
    const atPost: string[] = [];
    const simulator = await sim({
      intercept: async (req: InterceptRequest) => {
        if (req.method === 'POST' && req.path === '/clients') atPost.push(await readFile(path, 'utf8'));
        return undefined;
      },
    });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const creates = creator(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'Generated-Password-0001',
    });
    expect(await creates.createSecret(newClient('alice'), file)).toEqual({ id: 2 });
    await file.close();
    expect(parseJournal(atPost[0] ?? '').map((l) => (l.kind === 'unreadable' ? l.why : l.entry))).toEqual([
      expect.objectContaining({
        intent: 'create_client',
        kind: 'client',
        name: 'alice',
        username: 'alice',
        pending_password: 'Generated-Password-0001',
      }),
    ]);
    expect(parseJournal(await readFile(path, 'utf8')).at(-1)).toMatchObject({
      kind: 'password',
      entry: { kind: 'client', name: 'alice', username: 'alice', id: 2, password: 'Generated-Password-0001' },
    });
    expect(simulator.state.passwordOf('alice')).toBe('Generated-Password-0001');
  });

  test('a kind without a password is refused before anything is written or sent', async () => {
    const simulator = await sim();
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const creates = creator(panel, { settleTimeoutMs: 0, secrets: file, panelUrl: panel.baseUrl });
    const domain = {
      type: 'domain',
      action: 'create',
      id: 'domain:a.example',
      name: 'a.example',
      client: 'alice',
      clientId: 2,
      reason: 'not on the panel',
      dependsOn: [],
    } as never;
    await expect(creates.createSecret(domain, file)).rejects.toThrow('a domain has no password');
    await file.close();
    expect(await readFile(path, 'utf8')).toBe('');
    expect(simulator.requests).toEqual([]);
  });
});
