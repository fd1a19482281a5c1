/**
 * The walk at its edges: a visit's error that cannot be told (the walk fails, never hangs),
 * a dependency listed twice, what only waits after a skip, no nodes at all.
 */
import { describe, expect, test } from 'vitest';
import { walkAll } from '../helpers/walk-all.js';

const node = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });
/** `walking`'s end, or 'hung' when it has not ended after `ms`. */
const within = <T>(walking: Promise<T>, ms = 1000): Promise<T | 'hung'> =>
  Promise.race([
    walking,
    new Promise<'hung'>((resolve) => {
      setTimeout(() => {
        resolve('hung');
      }, ms);
    }),
  ]);

describe('walk at its edges', () => {
  test('a visit that rejects with a value no message can be made of fails the walk: it does not hang', async () => {
    // String(Object.create(null)) throws: the failure cannot be told as a message.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the case under test
    const walking = walkAll([node('a'), node('b', 'a')], () => Promise.reject(Object.create(null) as unknown), {
      concurrency: 2,
    });
    await expect(within(walking)).rejects.toThrow('Cannot convert object to primitive value');
  });

  test('an onVisited that throws a value no message can be made of fails the walk: it does not hang', async () => {
    const walking = walkAll([node('a'), node('b', 'a')], () => Promise.resolve(), {
      concurrency: 2,
      onVisited: () => {
        throw Object.create(null) as unknown;
      },
    });
    await expect(within(walking)).rejects.toThrow('a visit or its report threw a value that is not an Error');
  });

  test('a dependency listed twice is waited for once; its failure skips the dependent once', async () => {
    const ok = await walkAll([node('a'), node('b', 'a', 'a')], (x) => Promise.resolve(x.id), { concurrency: 1 });
    expect(ok.map((r) => `${r.node.id}:${r.status}`)).toEqual(['a:succeeded', 'b:succeeded']);
    const failed = await walkAll([node('b', 'a', 'a'), node('a')], () => Promise.reject(new Error('no')), {
      concurrency: 1,
    });
    expect(failed.map((r) => `${r.node.id}:${r.status === 'skipped' ? r.because : r.status}`)).toEqual([
      'a:failed',
      'b:a',
    ]);
  });

  test('a node that only waits goes on after a skipped dependency, not after an interrupted one', async () => {
    const results = await walkAll(
      [node('a'), node('b', 'a'), node('w', 'b')],
      (x) => (x.id === 'a' ? Promise.reject(new Error('no')) : Promise.resolve(x.id)),
      { concurrency: 1, waitsOnly: (n) => n.id === 'w' },
    );
    expect(results.map((r) => `${r.node.id}:${r.status}`)).toEqual(['a:failed', 'b:skipped', 'w:succeeded']);
    const controller = new AbortController();
    controller.abort();
    const interrupted = await walkAll([node('a'), node('w', 'a')], (x) => Promise.resolve(x.id), {
      concurrency: 1,
      signal: controller.signal,
      waitsOnly: () => true,
    });
    expect(interrupted.map((r) => (r.status === 'skipped' ? r.because : r.status))).toEqual([
      'interrupted',
      'interrupted',
    ]);
  });

  test('no nodes: the walk ends at once with no results', async () => {
    expect(await within(walkAll([], () => Promise.resolve(1), { concurrency: 4 }))).toEqual([]);
  });
});
