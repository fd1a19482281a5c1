/**
 * The journal's repairs and apply's secrets rails, said per kind with a secret: what a run read
 * is said per kind (a kind not read is never judged gone), `--clients` decides for a client
 * only (a thing of another kind is outside every scope until its kind says whose it is), and a
 * plan needs a secrets file when it creates a thing of any kind with a secret. Only clients have
 * a secret today: the rules are checked on the functions that decide, with a made-up kind's name
 * where a name is all they take.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverJournal, type RecoveryMessage, scopeCovers, secretsInLive } from '../../src/apply/recover.js';
import { clientScope } from '../../src/names.js';
import type { Live, LiveClient } from '../../src/panel/types.js';
import { createsSecrets, secretNouns } from '../../src/plan/guards.js';
import type { CreateClient } from '../../src/plan/types.js';
import { Redactions } from '../../src/redact.js';
import { findLostIntents, lookedUpAndMissing } from '../../src/secrets/recovery.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-recover-kinds-'));
  path = join(dir, 's.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL = 'https://panel.example/api/v2';
const at = '2030-01-01T00:00:00.000Z';
const jsonl = (...records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
/** carol's password, and a reset of it whose outcome is unknown. */
const carolReset = () =>
  jsonl(
    { created_at: at, panel_url: URL, username: 'carol', id: 3, password: 'old' },
    {
      intent: 'reset_password',
      intent_id: 'r1',
      at,
      panel_url: URL,
      username: 'carol',
      pending_password: 'maybe',
    },
  );

describe('what a run read, said per kind', () => {
  it('a thing missing from what was found is gone only when its kind was read whole or its name looked up', () => {
    expect(lookedUpAndMissing({ every: ['client'] }, 'client', 'carol')).toBe(true);
    expect(lookedUpAndMissing({ every: ['client'] }, 'mailbox', 'info@carol.example')).toBe(false);
    expect(lookedUpAndMissing({ names: ['carol'] }, 'client', 'carol')).toBe(true);
    expect(lookedUpAndMissing({ names: ['mailbox:info@carol.example'] }, 'mailbox', 'info@carol.example')).toBe(true);
    expect(lookedUpAndMissing({ names: ['carol'] }, 'mailbox', 'carol')).toBe(false);
    expect(lookedUpAndMissing({}, 'client', 'carol')).toBe(false);
  });

  it('an open reset of a kind the run did not read stays open; read whole, the same reset is closed as gone', async () => {
    await writeFile(path, carolReset(), { mode: 0o600 });
    const other = await findLostIntents(path, URL, [], { every: ['mailbox'] });
    expect(other.goneResets).toEqual([]);
    expect(other.pendingResets).toEqual([{ kind: 'client', name: 'carol', line: 2, pending: true, pendingLines: [2] }]);
    const read = await findLostIntents(path, URL, [], { every: ['client'] });
    expect(read.goneResets).toEqual([{ kind: 'client', name: 'carol', line: 2, intentId: 'r1' }]);
    expect(read.pendingResets).toEqual([]);
  });

  it('the panel read gives each kind with a secret its things, and says it holds those kinds whole', () => {
    const clients = [{ id: 2, username: 'alice' } as LiveClient, { id: 3, username: 'carol' } as LiveClient];
    const live: Live = {
      hosting_plan: [],
      client: clients,
      domain: { records: [], complete: true },
      dns_zone: new Map(),
      mailbox: { read: false, records: [] },
      database: { read: false, records: [] },
      ftp_user: { read: false, records: [] },
    };
    expect(secretsInLive(live)).toEqual({
      existing: [
        { kind: 'client', name: 'alice', id: 2 },
        { kind: 'client', name: 'carol', id: 3 },
      ],
      lookedUp: { every: ['client'] },
    });
  });
});

describe('--clients, for a client and for a thing of another kind', () => {
  it('a client by its username; another kind inside a run without a scope only', () => {
    const scoped = clientScope(['a*']);
    expect(scopeCovers(scoped, 'client', 'alice')).toBe(true);
    expect(scopeCovers(scoped, 'client', 'carol')).toBe(false);
    // Its client is not in the journal: no scope, not even `*`, is known to cover it.
    expect(scopeCovers(clientScope(['*']), 'mailbox', 'info@alice.example')).toBe(false);
    expect(scopeCovers(clientScope(undefined), 'mailbox', 'info@alice.example')).toBe(true);
    expect(scopeCovers(clientScope(undefined), 'client', 'carol')).toBe(true);
  });

  it('a client outside the scope is named and not returned for a new password; inside, it is', async () => {
    await writeFile(path, carolReset(), { mode: 0o600 });
    const said: RecoveryMessage[] = [];
    const tell = (m: RecoveryMessage): void => {
      said.push(m);
    };
    const live = [{ kind: 'client' as const, name: 'carol', id: 3 }];
    const outside = await recoverJournal(path, URL, live, new Redactions(), tell, {}, clientScope(['a*']));
    expect(outside.unknown).toEqual([]);
    expect(said.at(-1)?.text).toContain('it is outside --clients: an apply that covers it gives it a new one');
    const inside = await recoverJournal(path, URL, live, new Redactions(), tell, {}, clientScope(['c*']));
    expect(inside.unknown).toEqual([{ kind: 'client', name: 'carol', id: 3 }]);
  });
});

describe('a plan that creates a thing with a password needs a secrets file', () => {
  const create = (name: string): CreateClient => ({
    reason: 'test',
    dependsOn: [],
    id: `client:${name}`,
    action: 'create',
    type: 'client',
    name,
  });

  it('asks each change its kind: a client create needs one, named as clients', () => {
    expect(createsSecrets([create('alice'), create('bob')])).toBe(true);
    expect(secretNouns([create('alice'), create('bob')])).toBe('clients');
    expect(createsSecrets([])).toBe(false);
    expect(secretNouns([])).toBeUndefined();
  });
});
