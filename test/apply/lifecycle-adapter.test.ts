/**
 * The panel adapter's updates and deletes against the simulator over real HTTP: exactly the
 * request of each change, 200 and 204 alike, a 404 on DELETE as "gone already", an answer lost
 * on the wire read back before a DELETE is called failed; and, after Ctrl-C, no POST sent again
 * from a wait the interrupt cut short.
 */
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import type { PanelAdapterOptions } from '../../src/apply/adapter-options.js';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import type { PanelClient, PanelClock } from '../../src/panel/index.js';
import type { CreateDomain, DeleteClient, DeleteDomain, UpdateClient } from '../../src/plan/types.js';
import type { SecretsSink } from '../../src/secrets/journal.js';
import { API_KEY } from '../helpers/key.js';
import { client, fakeClock, notesTo, rejection } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

const sink: SecretsSink = {
  intend: () => Promise.resolve(),
  record: () => Promise.resolve(),
  refused: () => Promise.resolve(),
};

function adapter(panel: PanelClient, options: Partial<PanelAdapterOptions> = {}) {
  return panelAdapter(panel, {
    settleTimeoutMs: 0,
    secrets: sink,
    panelUrl: panel.baseUrl,
    ...options,
  });
}

const base = { reason: 'test', dependsOn: [] };
const update = (
  name: string,
  clientId: number,
  fields: UpdateClient['fields'],
  hostingPlan?: { name: string; id: number },
): UpdateClient => ({
  ...base,
  id: `client:${name}`,
  action: 'update',
  type: 'client',
  name,
  clientId,
  fields,
  ...(hostingPlan === undefined ? {} : { hostingPlan }),
});
const deleteClient = (name: string, clientId: number): DeleteClient => ({
  ...base,
  id: `client:${name}`,
  action: 'delete',
  type: 'client',
  name,
  clientId,
  domainNames: [],
});
const deleteDomain = (name: string, domainId: number, owner: string, clientId: number): DeleteDomain => ({
  ...base,
  id: `domain:${name}`,
  action: 'delete',
  type: 'domain',
  name,
  domainId,
  client: owner,
  clientId,
  subdomains: [],
});

const writes = (simulator: { requests: readonly { method: string; path: string; status: number }[] }): string[] =>
  simulator.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);

describe('updates', () => {
  test('sends PUT /clients/{id} with exactly the fields that differ', async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'alice', plan: 'Basic', email: 'old@example.com' }] },
    });
    const id = simulator.state.clientNamed('alice')?.id ?? 0;
    const applied = await adapter(client(simulator)).apply(
      update(
        'alice',
        id,
        [
          { field: 'plan', before: 'Basic', after: 'Standard' },
          { field: 'suspended', before: false, after: true },
        ],
        { name: 'Standard', id: 2 },
      ),
    );
    expect(applied).toEqual({ id });
    expect(writes(simulator)).toEqual([`PUT /clients/${id} 200`]);
    expect(simulator.state.clientNamed('alice')).toMatchObject({
      id_hosting_plan: 2,
      is_suspended: true,
      email: 'old@example.com',
    });
  });

  test("a refusal fails the change with the panel's words, and is not sent again", async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const id = simulator.state.clientNamed('alice')?.id ?? 0;
    const error = await rejection(
      adapter(client(simulator, { clock: fakeClock() })).apply(
        update('alice', id, [{ field: 'email', before: null, after: 'not-an-address' }]),
      ),
    );
    expect(error.message).toMatch(/^PUT \/api\/v2\/clients\/\d+: 400 /);
    expect(writes(simulator)).toEqual([`PUT /clients/${id} 400`]);
  });
});

describe('deletes', () => {
  test.each([200, 204] as const)('a client and a domain, the panel answering %i', async (deleteStatus) => {
    const simulator = await sim({
      deleteStatus,
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }, { username: 'bob' }] },
    });
    const alice = simulator.state.clientNamed('alice')?.id ?? 0;
    const bob = simulator.state.clientNamed('bob')?.id ?? 0;
    const domain = simulator.state.domainNamed('alice.example')?.id ?? 0;
    const a = adapter(client(simulator));
    expect(await a.apply(deleteDomain('alice.example', domain, 'alice', alice))).toEqual({
      id: domain,
    });
    expect(await a.apply(deleteClient('bob', bob))).toEqual({ id: bob });
    expect(writes(simulator)).toEqual([
      `DELETE /domains/${domain} ${deleteStatus}`,
      `DELETE /clients/${bob} ${deleteStatus}`,
    ]);
    expect(simulator.state.clientNamed('bob')).toBeUndefined();
  });

  test('a 404 means gone already: done, with a note', async () => {
    const simulator = await sim();
    expect(await adapter(client(simulator)).apply(deleteClient('ghost', 999))).toEqual({
      id: 999,
      note: 'it was gone already (404)',
    });
  });

  test('an answer lost on the wire is read back: gone is done; still there, the failure stands', async () => {
    let first = true;
    let passThrough = false;
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }] },
      intercept: async (req) => {
        if (req.method !== 'DELETE') return undefined;
        if (passThrough) {
          passThrough = false;
          return undefined;
        }
        if (first) {
          first = false;
          passThrough = true;
          // The panel does the delete; the gateway in front of it loses the answer, every time.
          const done = await request(`${simulator.url}${req.path}`, {
            method: 'DELETE',
            headers: { 'x-api-key': API_KEY },
          });
          await done.body.dump();
        }
        return { status: 504, text: 'Gateway Timeout' };
      },
    });
    const alice = simulator.state.clientNamed('alice')?.id ?? 0;
    const bob = simulator.state.clientNamed('bob')?.id ?? 0;
    const waits: string[] = [];
    const a = adapter(client(simulator, { clock: fakeClock() }), { onEvent: notesTo(waits) });
    expect(await a.apply(deleteClient('alice', alice))).toEqual({
      id: alice,
      note: 'the answer was lost (answered 504), but it is gone',
    });
    expect(waits).toContain(
      `DELETE /api/v2/clients/${alice} answered 504: reading it back to see whether it was deleted`,
    );
    const error = await rejection(a.apply(deleteClient('bob', bob)));
    expect(error.message).toMatch(/^DELETE \/api\/v2\/clients\/\d+: 504 /);
    expect(simulator.state.clientNamed('bob')).toMatchObject({ username: 'bob' });
  });
});

describe('after Ctrl-C, no wait ends in a request that changes the panel', () => {
  /** A clock whose waits last `ms` for real (so an interrupt has something to cut short). */
  const realClock = (): Partial<PanelClock> => ({
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10_000))),
    random: () => 0.99,
  });

  test('the wait before sending a POST again after an ambiguous answer', async () => {
    const controller = new AbortController();
    const simulator = await sim({
      intercept: (req) => (req.method === 'POST' ? { status: 502, text: 'Bad Gateway' } : undefined),
    });
    const a = adapter(client(simulator, { clock: realClock() }), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'note' && e.message.includes('again'))
          setTimeout(() => {
            controller.abort();
          }, 20);
      },
    });
    const started = Date.now();
    const error = await rejection(
      a.apply({ ...base, id: 'client:alice', action: 'create', type: 'client', name: 'alice' }),
    );
    expect(error.message).toMatch(/not sent again: interrupted/);
    expect(writes(simulator)).toEqual(['POST /clients 502']);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('the wait for a new account to settle', async () => {
    const controller = new AbortController();
    const simulator = await sim({
      intercept: (req) =>
        req.method === 'POST' && req.path === '/domains'
          ? { status: 400, json: { code: '400 Bad Request', message: 'not ready' } }
          : undefined,
    });
    const a = adapter(client(simulator, { clock: realClock() }), {
      settleTimeoutMs: 60_000,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'note' && e.message.includes('may still be being set up'))
          setTimeout(() => {
            controller.abort();
          }, 20);
      },
    });
    // bob is created in this run, so a refusal of its domain may be the account settling.
    await a.apply({ ...base, id: 'client:bob', action: 'create', type: 'client', name: 'bob' });
    const domain: CreateDomain = {
      ...base,
      id: 'domain:bob.example',
      action: 'create',
      type: 'domain',
      name: 'bob.example',
      client: 'bob',
      clientId: null,
      dependsOn: ['client:bob'],
    };
    const started = Date.now();
    const error = await rejection(a.apply(domain));
    expect(error.message).toMatch(/stopped waiting for the account to settle: interrupted/);
    expect(writes(simulator).filter((w) => w.startsWith('POST /domains'))).toEqual(['POST /domains 400']);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
