/**
 * plan/types.ts phasesOf: a delete moves to phase 0 when waits link it to a create or an update
 * (directly, or through other deletes); nothing else moves. Held, on random plans, to the
 * definition: a flood from every create and update along waits, both ways.
 */
import { describe, expect, test } from 'vitest';
import { type Change, phaseOf, phasesOf } from '../../src/plan/types.js';

/** The definition, spelled out: every change reached from a create or update by waits, either way, is in phase 0. */
function byFlood(changes: readonly Change[]): (change: Change) => 0 | 1 {
  const ids = new Set<string>(changes.map((c) => c.id));
  const next = new Map<string, string[]>();
  const add = (a: string, b: string): void => void next.set(a, [...(next.get(a) ?? []), b]);
  for (const c of changes)
    for (const dep of c.dependsOn)
      if (ids.has(dep)) {
        add(c.id, dep);
        add(dep, c.id);
      }
  const early = new Set<string>(changes.filter((c) => phaseOf(c) === 0).map((c) => c.id));
  const todo = [...early];
  for (let id = todo.pop(); id !== undefined; id = todo.pop())
    for (const n of next.get(id) ?? [])
      if (!early.has(n)) {
        early.add(n);
        todo.push(n);
      }
  return (c) => (early.has(c.id) ? 0 : 1);
}

/** A small random generator (a fixed seed: a failure is found again). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const change = (id: string, action: 'create' | 'update' | 'delete', dependsOn: string[]): Change =>
  ({ id, action, type: 'client', name: id, dependsOn }) as unknown as Change;

describe('phasesOf', () => {
  test('no delete: every change in phase 0', () => {
    const changes = [change('a', 'create', []), change('b', 'update', ['a'])];
    expect(changes.map(phasesOf(changes))).toEqual([0, 0]);
  });

  test('a delete a create waits for, and a delete that one waits for, move; others stay last', () => {
    const changes = [
      change('new', 'create', ['frees']),
      change('frees', 'delete', ['first']),
      change('first', 'delete', []),
      change('alone', 'delete', []),
      change('waits', 'delete', ['missing']),
    ];
    expect(changes.map(phasesOf(changes))).toEqual([0, 0, 0, 1, 1]);
  });

  test('random plans: the same phases as the flood', () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const n = 1 + Math.floor(next() * 12);
      const actions = ['create', 'update', 'delete', 'delete'] as const;
      const changes = Array.from({ length: n }, (_, i) => {
        const deps = Array.from({ length: Math.floor(next() * 3) }, () => `c${Math.floor(next() * (n + 2))}`);
        return change(`c${i}`, actions[Math.floor(next() * actions.length)] ?? 'create', deps);
      });
      const want = byFlood(changes);
      expect(changes.map(phasesOf(changes)), JSON.stringify(changes)).toEqual(changes.map(want));
    }
  });
});
