/**
 * The types of the kinds' list reads (src/kinds/read.ts KindRead) hold what readLive does:
 * `after` names only kinds the read takes parts of, `list` sees only those (the rest of its wave
 * is not read yet), and Live holds every part a read takes, under its kind's name (readOf hands
 * each read the whole Live through a cast). These are checked by the compiler (`npx tsc`): each
 * `@ts-expect-error` below is a mistake that must not compile.
 */
import { describe, expect, test } from 'vitest';
import { type ReadsFromLive, READ_ORDER, readOf } from '../../src/kinds/reads.js';
import type { KindRead } from '../../src/kinds/read.js';
import { ZONE_READ } from '../../src/kinds/zone/read.js';
import { DOMAIN_READ } from '../../src/kinds/domain/read.js';

interface Domains {
  readonly domain: { readonly records: readonly { readonly name: string; readonly id: number }[] };
}
interface Clients {
  readonly client: readonly { readonly id: number }[];
}

const SNAPSHOT = { write: () => ({}), read: () => [] };

describe("the kinds' list reads, as typed", () => {
  test('`after` names only kinds whose parts the read takes', () => {
    const typo: KindRead<readonly string[], object, Domains, never, 'domain'> = {
      // @ts-expect-error -- "domains" is no part the read takes: it would be read in the first wave
      after: ['domains'],
      needed: () => true,
      empty: [],
      list: (_panel, _ask, earlier) => Promise.resolve(earlier.domain.records.map((d) => d.name)),
      snapshot: SNAPSHOT,
    };
    expect(typo.after).toEqual(['domains']);
  });

  test('`list` sees only the parts of `after`: the rest of its wave is not read yet; `check` sees them', () => {
    const sees = (earlier: Clients): number => earlier.client.length;
    const early: KindRead<readonly number[], object, Clients> = {
      after: [],
      needed: () => true,
      empty: [],
      list: (_panel, _ask, earlier) => {
        // @ts-expect-error -- the clients are read in the same wave: undefined when the list runs
        return Promise.resolve([sees(earlier)]);
      },
      check: (_part, _panel, _ask, earlier) => Promise.resolve(void sees(earlier)),
      snapshot: SNAPSHOT,
    };
    expect(early.after).toEqual([]);
  });

  test('Live holds every part a read takes, under its kind name and in its shape', () => {
    const zone: ReadsFromLive<typeof ZONE_READ> = true;
    const domain: ReadsFromLive<typeof DOMAIN_READ> = true;
    type Misnamed = KindRead<readonly string[], object, { readonly domains: Domains['domain'] }, never, 'domains'>;
    type Reshaped = KindRead<readonly string[], object, { readonly domain: readonly string[] }, never, 'domain'>;
    // @ts-expect-error -- Live has no "domains": the read would take undefined
    const lacks: ReadsFromLive<Misnamed> = true;
    // @ts-expect-error -- Live's domains are { records, complete }, not a list
    const differs: ReadsFromLive<Reshaped> = true;
    expect([zone, domain, lacks, differs]).toEqual([true, true, true, true]);
  });

  test('the table reads each kind after the kinds of its `after`', () => {
    for (const name of READ_ORDER)
      for (const before of readOf(name).after)
        expect(READ_ORDER.indexOf(before)).toBeLessThan(READ_ORDER.indexOf(name));
  });
});
