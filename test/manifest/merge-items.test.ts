/**
 * Merge keys in the fast read of client items (src/manifest/simple-items.ts, Reading.mergeSource
 * in positions.ts): `<<: *name` of an anchored mapping of scalars in the header is merged as
 * `yaml` merges it (the keys the item lacks, in order, an item's own key winning wherever it
 * stands), with the same positions (the merge at its alias) and the same count for the alias
 * guard; any other merge is left to `yaml`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { readItemsWithYaml } from '../../src/manifest/chunked.js';
import { aliasLimit, nodesIn, type PosNode, Reading } from '../../src/manifest/positions.js';
import { readSimpleItems } from '../../src/manifest/simple-items.js';

/** A position tree as plain objects, what a getter gives read. */
function plain(pos: PosNode): unknown {
  return {
    line: pos.line,
    column: pos.column,
    entries: pos.entries?.map((e) => ({ ...e, value: e.value && plain(e.value) })),
    items: pos.items?.map(plain),
    merges: pos.merges?.map(plain),
    alias: pos.alias && plain(pos.alias),
  };
}

/**
 * A Reading that has read `header` (the manifest up to and including `clients:`), as chunked.ts's
 * skeleton read; undefined where that read gives up (an alias before its anchor).
 */
function readingOf(header: string, text: string): Reading | undefined {
  const reading = new Reading(aliasLimit(text));
  const lineCounter = new LineCounter();
  const doc = parseDocument(header, { lineCounter, merge: true, uniqueKeys: true });
  if (doc.errors.length > 0 || doc.contents === null) return undefined;
  const top = reading.position(
    doc.contents,
    (offset) => {
      const { line, col } = lineCounter.linePos(offset);
      return { line, column: col };
    },
    header,
  );
  if (top === undefined) return undefined;
  // As chunked.ts reads the header: its aliases resolved within it.
  reading.toJS(doc);
  return reading;
}

/** Both reads of the items after `header`; the fast one's answer, if any, is yaml's. */
function agree(header: string, items: string): boolean {
  const text = header + items;
  const firstLine = header.split('\n').length - 1;
  const fastReading = readingOf(header, text);
  const slowReading = readingOf(header, text);
  if (fastReading === undefined || slowReading === undefined) return false;
  const fast = readSimpleItems(text, header.length, text.length, firstLine, (name) => fastReading.mergeSource(name));
  const before = slowReading.nodes;
  const slow = readItemsWithYaml(text, header.length, text.length, firstLine, slowReading);
  if (fast === undefined) return false;
  expect(slow).toBeDefined();
  if (slow === undefined) return false;
  // Key order too: messages list an item's keys in it.
  expect(JSON.stringify(fast.clients)).toBe(JSON.stringify(slow.clients));
  expect(plain(fast.seq)).toEqual(plain(slow.seq));
  expect(nodesIn(fast.seq)).toBe(slowReading.nodes - before);
  expect(fastReading.aliased).toBe(slowReading.aliased);
  return true;
}

const KEYS = ['username', 'plan', 'language', 'email', 'state'] as const;
/** An item's values (a null the fast read leaves to yaml: see simple-items.test.ts). */
const VALUE = fc.constantFrom('Basic', 'de', '1', 'true', '"quoted"', "'it''s'", 'x # comment');
/** A merged mapping's values: yaml's scalars of any kind, nulls too. */
const MERGED = fc.constantFrom('Basic', '1', '0x1F', 'true', 'null', '~', '"quoted"', "'it''s'", 'x # comment', '');

/** An anchored header entry: a mapping of scalars (merged by the fast read), or what it leaves to yaml. */
const anchor = fc.oneof(
  {
    arbitrary: fc
      .uniqueArray(fc.tuple(fc.constantFrom(...KEYS, ...KEYS, 'true', 'n-1', 'other'), MERGED), {
        selector: ([k]) => k,
        maxLength: 4,
      })
      .map((pairs) =>
        pairs.length === 0 ? ' {}' : `\n${pairs.map(([k, v]) => `  ${k}:${v === '' ? '' : ` ${v}`}`).join('\n')}`,
      ),
    weight: 6,
  },
  {
    arbitrary: fc.constantFrom(' Basic', ' {plan: Basic}', '\n  plan: [a]', '\n  plan:\n    x: 1', '\n  plan: *d'),
    weight: 1,
  },
);

/** Anchors `d` and `e`, and now and then `d` again (an alias stands for the last before it). */
const header = fc
  .tuple(anchor, anchor, fc.option(anchor, { nil: undefined, freq: 3 }))
  .map(([d, e, again]) =>
    [
      'version: 1',
      `x-0: &d${d}`,
      `x-1: &e${e}`,
      ...(again === undefined ? [] : [`x-2: &d${again}`]),
      'clients:',
      '',
    ].join('\n'),
  );

/** A merge the fast read takes when its anchor is a mapping of scalars, now and then one it leaves to yaml. */
const MERGE = fc.oneof(
  { arbitrary: fc.constantFrom('<<: *d', '<<: *e', '<<: *d  # defaults', '<<:  *e'), weight: 9 },
  { arbitrary: fc.constantFrom('<<: *zz', '<<: [*d]', '<<: *d x', '<<: *d\n  x: 1'), weight: 1 },
);

/** One entry of a mapping at `pad`: a key and a value, or a merge. */
const entry = fc.oneof(
  {
    arbitrary: fc.tuple(fc.constantFrom(...KEYS), VALUE).map(([k, v]) => `${k}: ${v}`),
    weight: 3,
  },
  { arbitrary: MERGE, weight: 2 },
);

/** A domain item: a name, or a mapping with a merge. */
const domainItem = fc.oneof(
  fc.constant('- a.example'),
  fc
    .tuple(fc.nat(99), fc.option(MERGE, { nil: undefined }))
    .map(([n, merge]) => (merge === undefined ? `- name: d${n}.example` : `- name: d${n}.example\n  ${merge}`)),
);

const item = fc
  .tuple(
    // Now and then a key twice, or two merges (yaml's error: left to it).
    fc.oneof(
      { arbitrary: fc.uniqueArray(entry, { selector: (e) => e.split(':')[0], minLength: 1, maxLength: 5 }), weight: 9 },
      { arbitrary: fc.array(entry, { minLength: 1, maxLength: 5 }), weight: 1 },
    ),
    fc.array(domainItem, { maxLength: 20 }),
  )
  .map(([entries, domains]) => {
    const lines = entries.map((e, i) => `${i === 0 ? '  - ' : '    '}${e}`);
    if (domains.length > 0)
      lines.push(
        '    domains:',
        ...domains.map((d) => d.replaceAll(/^/gm, '      ').replace(/\n {6}(?! )/g, '\n        ')),
      );
    return `${lines.join('\n')}\n`;
  });

describe('merge keys in the fast read of client items', () => {
  it('are read as yaml reads them, or left to yaml; and often read', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(header, fc.array(item, { minLength: 1, maxLength: 4 }), (head, items) => {
        runs++;
        if (agree(head, items.join(''))) answered++;
      }),
      { numRuns: 1500 },
    );
    expect(answered / runs).toBeGreaterThan(0.2);
  });

  it('a merge in every client, an own key before and after it, an item read again: as yaml reads them', () => {
    const head = 'version: 1\nx-defaults: &d\n  plan: Basic\n  language: de\nclients:\n';
    const domains = Array.from({ length: 20 }, (_, k) => `      - name: d${k}.example\n        <<: *d\n`).join('');
    const items = [
      '  - <<: *d\n    username: a\n',
      '  - username: b\n    plan: Premium\n    <<: *d # defaults\n',
      '  - language: en\n    <<: *d\n    plan: Premium\n',
      `  - username: c\n    domains:\n${domains}`,
    ];
    expect(agree(head, items.join(''))).toBe(true);
  });

  it('of what the fast read does not merge: left to yaml', () => {
    const cases: [string, string][] = [
      ['version: 1\nx: &d Basic\nclients:\n', '  - <<: *d\n    username: a\n'],
      ['version: 1\nx: &d\n  plan: [a]\nclients:\n', '  - <<: *d\n    username: a\n'],
      ['version: 1\nx: &d\n  __proto__: a\nclients:\n', '  - <<: *d\n    username: a\n'],
      ['version: 1\nx: &d\n  plan: a\nclients:\n', '  - <<: *d\n    <<: *d\n'],
      ['version: 1\nx: &d\n  plan: a\nclients:\n', '  - <<: [*d]\n    username: a\n'],
      ['version: 1\nx: &d\n  plan: a\nclients:\n', '  - username: a\n    <<: *d\n    username: b\n'],
      ['version: 1\nx: &d\n  plan: a\nclients:\n', '  - <<: *d\n    plan: b\n    plan: c\n'],
      ['version: 1\nx: &d\n  plan: a\nclients:\n', '  - <<: *e\n    username: a\n'],
      ['version: 1\nx: &d\n  plan: a\nclients:\n', '  - <<: *d\n      username: a\n'],
    ];
    for (const [head, items] of cases) expect(agree(head, items), items).toBe(false);
  });
});
