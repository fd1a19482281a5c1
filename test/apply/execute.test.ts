/**
 * The executor with an in-memory adapter: no panel, no network, no pool. What it promises is
 * checked on what the adapter saw: the bound on changes in flight (or, for an adapter that
 * takes a slot per request, on requests: its flushes hold none), the order of dependencies,
 * skips for a failure's dependents and nobody else, and nothing new after an interruption.
 */
import { createHook } from 'node:async_hooks';
import { describe, expect, test } from 'vitest';
import { executeChanges, type ChangeAdapter, type Outcome } from '../../src/apply/execute.js';
import { Interrupted } from '../../src/apply/walk.js';
import { walkAll } from '../helpers/walk-all.js';
import type { Change, ChangeId, CreateDomain, Plan } from '../../src/plan/types.js';
import { newClient } from '../helpers/builders.js';

const newDomain = (name: string, owner: string, dependsOn: ChangeId[] = [`client:${owner}`]): CreateDomain => ({
  id: `domain:${name}`,
  action: 'create',
  type: 'domain',
  name,
  client: owner,
  clientId: null,
  reason: 'test',
  dependsOn,
});
const plan = (changes: Change[]): Plan => ({
  changes,
  conflicts: [],
  unknowns: [],
  unmanaged: { clients: [], domains: [] },
});

/**
 * An adapter that records what it was asked, when, and how many changes were in flight; each
 * change takes `ms` (real timers), and the names in `failing` throw.
 */
function recorder(options: { ms?: number; failing?: string[] } = {}) {
  let inFlight = 0;
  const seen = { started: [] as string[], maxInFlight: 0 };
  const adapter: ChangeAdapter & { seen: typeof seen } = {
    seen,
    async apply(change) {
      seen.started.push(change.id);
      inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, options.ms ?? 5));
        if (options.failing?.includes(change.name)) throw new Error(`${change.name} refused`);
        return { id: seen.started.length };
      } finally {
        inFlight--;
      }
    },
  };
  return adapter;
}

const byId = (outcomes: Outcome[]): Record<string, string> =>
  Object.fromEntries(outcomes.map((o) => [o.change.id, o.status === 'skipped' ? `skipped:${o.because}` : o.status]));

describe('executeChanges', () => {
  test('at most `concurrency` changes are in flight, and the bound is reached', async () => {
    const changes = Array.from({ length: 40 }, (_, i) => newClient(`c${i}`));
    for (const concurrency of [1, 3, 8]) {
      const adapter = recorder();
      const outcomes = await executeChanges(plan(changes), adapter, { concurrency });
      expect(adapter.seen.maxInFlight).toBe(concurrency);
      expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
    }
  });

  test('a change starts only after everything it depends on has succeeded', async () => {
    const changes: Change[] = [
      newClient('alice'),
      newDomain('alice.example', 'alice'),
      newDomain('www.alice.example', 'alice', ['client:alice', 'domain:alice.example']),
      newClient('bob'),
    ];
    const succeeded = new Set<string>();
    const inner = recorder();
    const early: string[] = [];
    const adapter: ChangeAdapter = {
      apply: (change) => {
        if (!change.dependsOn.every((dep) => succeeded.has(dep))) early.push(change.id);
        return inner.apply(change);
      },
    };
    await executeChanges(plan(changes), adapter, {
      concurrency: 8,
      onEvent: (e) => {
        if (e.type === 'outcome' && e.outcome.status === 'succeeded') succeeded.add(e.outcome.change.id);
      },
    });
    expect(early).toEqual([]);
    expect(succeeded.size).toBe(4);
    // bob depends on nothing: he went out with alice, not after her domains.
    expect(inner.seen.started.slice(0, 2)).toEqual(['client:alice', 'client:bob']);
  });

  test('a failure skips its dependents, transitively, and nothing else', async () => {
    const changes: Change[] = [
      newClient('alice'),
      newDomain('alice.example', 'alice'),
      newDomain('www.alice.example', 'alice', ['domain:alice.example']),
      newClient('bob'),
      newDomain('bob.example', 'bob'),
    ];
    const adapter = recorder({ failing: ['alice'] });
    const outcomes = await executeChanges(plan(changes), adapter, { concurrency: 2 });
    expect(byId(outcomes)).toEqual({
      'client:alice': 'failed',
      'domain:alice.example': 'skipped:client:alice',
      'domain:www.alice.example': 'skipped:client:alice',
      'client:bob': 'succeeded',
      'domain:bob.example': 'succeeded',
    });
    expect(adapter.seen.started).not.toContain('domain:alice.example');
    expect(outcomes.find((o) => o.status === 'failed')).toMatchObject({ error: 'alice refused' });
  });

  test('interruption: changes in flight finish, nothing new is sent, the rest is skipped as interrupted', async () => {
    const changes = Array.from({ length: 20 }, (_, i) => newClient(`c${i}`));
    const controller = new AbortController();
    const adapter = recorder({ ms: 20 });
    const outcomes = await executeChanges(plan(changes), adapter, {
      concurrency: 4,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'outcome') controller.abort();
      },
    });
    // The first to finish aborts: only the 4 already in flight were ever sent.
    expect(adapter.seen.started).toHaveLength(4);
    expect(outcomes).toHaveLength(20);
    expect(outcomes.filter((o) => o.status === 'succeeded')).toHaveLength(4);
    expect(outcomes.filter((o) => o.status === 'skipped' && o.because === 'interrupted')).toHaveLength(16);
  });

  test('a plan with conflicts, or one the adapter refuses, sends nothing', async () => {
    const adapter = recorder();
    const conflicted: Plan = {
      ...plan([newClient('alice')]),
      conflicts: [{ domain: 'x.example', client: 'alice', owner: 'bob' }],
    };
    await expect(executeChanges(conflicted, adapter, { concurrency: 1 })).rejects.toMatchObject({
      code: 'plan_conflict',
    });
    const refusing: ChangeAdapter = {
      ...adapter,
      check: () => {
        throw new Error('no secrets file');
      },
    };
    await expect(executeChanges(plan([newClient('alice')]), refusing, { concurrency: 1 })).rejects.toThrow(
      'no secrets file',
    );
    expect(adapter.seen.started).toEqual([]);
  });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An adapter that takes a slot per request (perRequest), like the panel's: each change does
 * `flushMs` of work outside its slot (the secrets file's write-ahead), then its request
 * (`requestMs`, in the slot), then `flushMs` outside again (the record after the answer). It
 * counts requests in flight, visits under way, and the most requests seen in flight while a
 * flush was under way.
 */
function slotted(options: { flushMs: number; requestMs: number; onRequestDone?: () => void }) {
  const now = { requests: 0, visits: 0, flushing: 0 };
  const seen = { sent: [] as string[], maxRequests: 0, maxVisits: 0, maxRequestsWhileFlushing: 0 };
  const flush = async (): Promise<void> => {
    now.flushing++;
    try {
      await sleep(options.flushMs);
    } finally {
      now.flushing--;
    }
  };
  const adapter: ChangeAdapter & { seen: typeof seen } = {
    seen,
    perRequest: true,
    async apply(change, slot) {
      if (slot === undefined) throw new Error('the executor gives a slot');
      now.visits++;
      seen.maxVisits = Math.max(seen.maxVisits, now.visits);
      try {
        await flush();
        await slot.run(async () => {
          seen.sent.push(change.id);
          now.requests++;
          seen.maxRequests = Math.max(seen.maxRequests, now.requests);
          try {
            await sleep(options.requestMs);
            if (now.flushing > 0) seen.maxRequestsWhileFlushing = Math.max(seen.maxRequestsWhileFlushing, now.requests);
            options.onRequestDone?.();
          } finally {
            now.requests--;
          }
        });
        await flush();
        return { id: seen.sent.length };
      } finally {
        now.visits--;
      }
    },
  };
  return adapter;
}

describe('executeChanges, an adapter that takes a slot per request', () => {
  test('at most `concurrency` requests at once, and the bound is reached while other changes flush: a flush holds no slot', async () => {
    const changes = Array.from({ length: 40 }, (_, i) => newClient(`c${i}`));
    for (const concurrency of [1, 4]) {
      const adapter = slotted({ flushMs: 15, requestMs: 15 });
      const outcomes = await executeChanges(plan(changes), adapter, { concurrency });
      expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
      expect(adapter.seen.maxRequests).toBe(concurrency);
      // Held whole (as without perRequest), requests and flushes together would stay within the bound.
      expect(adapter.seen.maxRequestsWhileFlushing).toBe(concurrency);
      // The work begun ahead of a request is bounded too.
      expect(adapter.seen.maxVisits).toBeLessThanOrEqual(2 * concurrency);
    }
  });

  test('interruption: requests in flight finish, nothing new is sent; changes not sent yet are skipped as interrupted', async () => {
    const changes = Array.from({ length: 20 }, (_, i) => newClient(`c${i}`));
    const controller = new AbortController();
    // Aborted as the first request is answered, before its slot is given to another.
    const adapter = slotted({
      flushMs: 5,
      requestMs: 20,
      onRequestDone: () => {
        controller.abort();
      },
    });
    const outcomes = await executeChanges(plan(changes), adapter, {
      concurrency: 4,
      signal: controller.signal,
    });
    expect(adapter.seen.sent).toHaveLength(4);
    expect(outcomes).toHaveLength(20);
    expect(outcomes.filter((o) => o.status === 'succeeded')).toHaveLength(4);
    expect(outcomes.filter((o) => o.status === 'skipped' && o.because === 'interrupted')).toHaveLength(16);
  });
});

describe('walk', () => {
  test('a visit interrupted at its first request is skipped; one interrupted at a later request failed (something was sent)', async () => {
    const controller = new AbortController();
    const results = await walkAll(
      [
        { id: 'once', dependsOn: [] },
        { id: 'twice', dependsOn: [] },
      ],
      async (n, slot) => {
        if (n.id === 'twice') {
          await slot.run(() => {
            controller.abort();
            return Promise.resolve();
          });
        } else await sleep(5);
        await slot.run(() => Promise.resolve());
        return n.id;
      },
      { concurrency: 2, perRequest: true, signal: controller.signal },
    );
    const byNode = Object.fromEntries(results.map((r) => [r.node.id, r]));
    expect(byNode.once).toMatchObject({ status: 'skipped', because: 'interrupted' });
    expect(byNode.twice).toMatchObject({ status: 'failed', error: new Interrupted().message });
  });

  const node = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });

  test('refuses a graph that is not one before visiting anything', async () => {
    const visited: string[] = [];
    const visit = (n: { id: string }) => Promise.resolve(void visited.push(n.id));
    await expect(walkAll([node('a'), node('a')], visit, { concurrency: 1 })).rejects.toThrow('"a" appears twice');
    await expect(walkAll([node('a', 'b')], visit, { concurrency: 1 })).rejects.toThrow(
      '"a" depends on "b", which is not in the graph',
    );
    await expect(walkAll([node('a', 'c'), node('b', 'a'), node('c', 'b')], visit, { concurrency: 1 })).rejects.toThrow(
      /cycle/,
    );
    expect(visited).toEqual([]);
  });

  test('nodes given after their dependents still wait for them; a long chain does not overflow the stack', async () => {
    const n = 20_000;
    // c0 <- c1 <- ... <- c(n-1), given last first.
    const nodes = Array.from({ length: n }, (_, i) => node(`c${i}`, ...(i === 0 ? [] : [`c${i - 1}`]))).reverse();
    const visited: string[] = [];
    const results = await walkAll(nodes, (x) => Promise.resolve(void visited.push(x.id)), {
      concurrency: 8,
    });
    expect(results).toHaveLength(n);
    expect(visited[0]).toBe('c0');
    expect(visited.at(-1)).toBe(`c${n - 1}`);
  });

  test('the nodes that wait hold no promise: only the visits under way are promises', async () => {
    // Every promise made while the walk runs, counted (async_hooks sees each one V8 makes).
    let promises = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'PROMISE') promises++;
      },
    });
    const nodes = Array.from({ length: 3000 }, (_, i) => node(`n${i}`, ...(i % 2 === 1 ? [`n${i - 1}`] : [])));
    let atFirstVisit: number | undefined;
    let mostUnderWay = 0;
    let underWay = 0;
    hook.enable();
    try {
      const results = await walkAll(
        nodes,
        async (x) => {
          atFirstVisit ??= promises;
          mostUnderWay = Math.max(mostUnderWay, ++underWay);
          await Promise.resolve();
          underWay--;
          return x.id;
        },
        { concurrency: 8, perRequest: true },
      );
      expect(results.every((r) => r.status === 'succeeded')).toBe(true);
      expect(results).toHaveLength(3000);
    } finally {
      hook.disable();
    }
    // Started node by node ahead of their turn, 3,000 nodes made several promises each first.
    expect(atFirstVisit).toBeLessThan(50);
    expect(mostUnderWay).toBeLessThanOrEqual(16);
  });

  test('a node two failures would skip is skipped once, naming the first; one that only waits goes on', async () => {
    const results = await walkAll(
      [node('a'), node('b'), node('both', 'a', 'b'), node('after', 'both'), node('waits', 'a')],
      (x) => (x.id === 'a' || x.id === 'b' ? Promise.reject(new Error(`${x.id} refused`)) : Promise.resolve(x.id)),
      { concurrency: 1, waitsOnly: (n) => n.id === 'waits' },
    );
    const told = Object.fromEntries(
      results.map((r) => [r.node.id, r.status === 'skipped' ? `skipped:${r.because}` : r.status]),
    );
    expect(told).toEqual({
      a: 'failed',
      b: 'failed',
      both: 'skipped:a',
      after: 'skipped:a',
      waits: 'succeeded',
    });
    expect(results).toHaveLength(5);
  });

  test('an onVisited that throws fails the walk, and nothing starts after it', async () => {
    const nodes = Array.from({ length: 3000 }, (_, i) => node(`n${i}`));
    const visited: string[] = [];
    const walking = walkAll(nodes, (x) => Promise.resolve(void visited.push(x.id)), {
      concurrency: 8,
      perRequest: true,
      onVisited: (v) => {
        if (v.node.id === 'n3') throw new Error("the caller's callback broke");
      },
    });
    await expect(walking).rejects.toThrow("the caller's callback broke");
    // The visits under way when it threw, at most: not the 3,000.
    expect(visited.length).toBeLessThan(20);
  });
});
