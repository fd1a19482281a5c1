/**
 * The kinds' list reads (Kind.read, src/kinds/read.ts), as the table holds them: the read order
 * names every kind with a read once, a read comes after the kinds it needs, and a kind with a
 * password gives the secrets code its look-ups. The reads themselves are tested against the
 * simulator (test/panel/read.test.ts, zones-requests.test.ts) and through snapshots
 * (test/cli/snapshot.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { KIND_READS, READ_ORDER, readOf } from '../../src/kinds/reads.js';

describe("the kinds' list reads", () => {
  test("the reads' own table holds each room's read (what reads the panel loads it, not KINDS)", () => {
    for (const name of READ_ORDER) expect(KIND_READS[name], name).toBe(KINDS[name].read);
  });

  test('the read order names each kind with a read once', () => {
    const reading = KIND_NAMES.filter((name) => KINDS[name].read !== undefined);
    expect([...READ_ORDER].sort()).toEqual([...reading].sort());
    expect(new Set(READ_ORDER).size).toBe(READ_ORDER.length);
  });

  test.each(READ_ORDER)('%s is read after the kinds its read needs', (name) => {
    for (const before of readOf(name).after) {
      expect(READ_ORDER).toContain(before);
      expect(READ_ORDER.indexOf(before as never)).toBeLessThan(READ_ORDER.indexOf(name));
    }
  });

  test('each kind with a password gives its look-ups', () => {
    for (const name of KIND_NAMES) {
      if (KINDS[name].secret === undefined) continue;
      expect(READ_ORDER).toContain(name);
      expect(readOf(name as never).lookUps, name).toBeDefined();
    }
  });

  test("a snapshot's keys are each written by one kind", () => {
    const empty = READ_ORDER.flatMap((name) => Object.keys(readOf(name).snapshot.write(readOf(name).empty as never)));
    expect(new Set(empty).size).toBe(empty.length);
  });
});
