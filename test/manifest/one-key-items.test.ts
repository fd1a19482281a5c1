/**
 * A sequence item that is one key and a plain string on its line (`- name: m1`, a mailbox) is
 * read in one match (src/manifest/one-key-item.ts): the fast read must still answer
 * what `yaml` answers, data and positions, or leave the batch to it, whatever follows the item
 * (a line at the key's column, deeper, at the dash's, a comment, the end) and whatever the key
 * and value are (a null, a boolean, a long key, characters the one match does not take).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readItemsWithYaml } from '../../src/manifest/chunked.js';
import type { PosNode } from '../../src/manifest/positions.js';
import { readSimpleItems } from '../../src/manifest/simple-items.js';

/** A position tree as plain objects. */
function plain(pos: PosNode): unknown {
  const entries = pos.entries?.map((e) => ({ ...e, value: e.value && plain(e.value) }));
  return { line: pos.line, column: pos.column, entries, items: pos.items?.map(plain) };
}

/** Both reads; the fast one's answer, if any, must be yaml's. Whether the fast one answered. */
function agree(text: string): boolean {
  const fast = readSimpleItems(text, 0, text.length, 0);
  const slow = readItemsWithYaml(text, 0, text.length, 0);
  if (fast !== undefined) expect({ ...fast, seq: plain(fast.seq) }).toEqual({ ...slow, seq: slow && plain(slow.seq) });
  return fast !== undefined;
}

const keys = fc.constantFrom('name', 'name', 'a_1', 'null', 'true', 'false', 'Name', 'k'.repeat(1001), 'x-y');
const values = fc.constantFrom(
  'm1',
  'info',
  'a.b@c-d_e',
  'true',
  'false',
  'null',
  'nan',
  'x ',
  'x # c',
  'Mixed',
  '1x',
  'a:b',
  '"q"',
  '',
);
/** What stands after an item line: another item, a key of its mapping, a deeper line, a comment (then one of those), nothing. */
const after = fc.constantFrom(
  'item',
  'key',
  'deeper',
  'dash',
  'comment',
  'less',
  'none',
  'hidden key',
  'hidden deeper',
  'between',
  'blank',
);

/** A client item whose domain lists mailboxes, the items in one-key form. */
const lists = fc
  .tuple(fc.array(fc.tuple(keys, values, after), { minLength: 1, maxLength: 5 }), fc.constantFrom('\n', '\r\n'))
  .map(([items, eol]) => {
    const lines = ['- username: alice', '  domains:', '    - name: alice.example', '      mailboxes:'];
    for (const [key, value, next] of items) {
      lines.push(`        - ${key}: ${value}`);
      if (next === 'key') lines.push('          quota: 1 GiB');
      if (next === 'deeper') lines.push('            more');
      if (next === 'dash') lines.push('          - x');
      if (next === 'comment') lines.push('          # a comment');
      if (next === 'less') lines.push('      state: present');
      // A comment line the one match's guess looks at instead of the line below it.
      if (next === 'hidden key') lines.push(`#${'x'.repeat(20)}`, '          quota: 1 GiB');
      if (next === 'hidden deeper') lines.push(`#${'x'.repeat(20)}`, '            more');
      // A line between the dash's column and the key's, and a blank line (a run of items stops at each).
      if (next === 'between') lines.push('         - y');
      if (next === 'blank') lines.push('   ');
    }
    return lines.join(eol) + eol;
  });

describe('one-key items read in one match', () => {
  it('answer as yaml does, or leave the batch to it', () => {
    fc.assert(
      fc.property(lists, (text) => {
        agree(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('stop at a line that is none of the items', () => {
    // A run of items stops at a line less indented than its dashes, one without a dash at their
    // column, and one without a space after its dash: the answer is yaml's or none.
    agree('- m:\n    - name: a\n    - name: b\n  ab- name: c\n- x\n');
    agree('- m:\n    - name: a\n    - name: b\n    x name: c\n- x\n');
    agree('- m:\n    - name: a\n    - name: b\n    -xname: c\n- x\n');
  });

  it('end with the batch when it ends inside a run of items', () => {
    const text = '- m:\n    - name: a\n    - name: b\n    - name: c\n    - name: d\n- x\n';
    const end = text.indexOf('    - name: c');
    const fast = readSimpleItems(text, 0, end, 0);
    expect(fast?.clients).toEqual([{ m: [{ name: 'a' }, { name: 'b' }] }]);
    expect(fast && plain(fast.seq)).toEqual(plain(readItemsWithYaml(text, 0, end, 0)?.seq ?? { line: 0, column: 0 }));
  });

  it('read a list of 800,000 items (12 MB) without overflowing the pattern engine', () => {
    // A key no other test uses: its run's pattern is new, and its first match runs interpreted.
    const n = 800_000;
    const text = `- m:\n${'      - zz_long: mx\n'.repeat(n)}- x\n`;
    const fast = readSimpleItems(text, 0, text.length, 0);
    const list = (fast?.clients[0] as { m: unknown[] } | undefined)?.m;
    expect(list?.length).toBe(n);
    expect(list?.[n - 1]).toEqual({ zz_long: 'mx' });
    const items = fast?.seq.items?.[0]?.entries?.[0]?.value?.items;
    expect(items?.[n - 1]?.line).toBe(n + 1);
  });

  it('answer as yaml does wherever the batch ends', () => {
    fc.assert(
      fc.property(lists, fc.nat(), (text, cut) => {
        const end = cut % (text.length + 1);
        const fast = readSimpleItems(text, 0, end, 0);
        const slow = readItemsWithYaml(text, 0, end, 0);
        if (fast !== undefined)
          expect({ ...fast, seq: plain(fast.seq) }).toEqual({ ...slow, seq: slow && plain(slow.seq) });
      }),
      { numRuns: 1000 },
    );
  });

  it('are read by the fast read in the shape manifests list mailboxes', () => {
    const items = ['m1', 'm2', 'info', 'a.b@c'].map((name) => `        - name: ${name}`);
    const text = ['- username: alice', '  domains:', '    - name: alice.example', '      mailboxes:', ...items].join(
      '\n',
    );
    expect(agree(`${text}\n`)).toBe(true);
    expect(agree(`${text}\n- username: bob\n`)).toBe(true);
    // An item whose mapping goes on below a comment: read as a mapping of two keys, not given up.
    expect(agree(`${text}\n#${'x'.repeat(20)}\n          quota: 1 GiB\n`)).toBe(true);
    // A run of items stops at one whose mapping goes on, or whose list ends, and the read goes on.
    expect(agree(`${text}\n          quota: 1 GiB\n        - name: m5\n`)).toBe(true);
    expect(agree(`${text}\n    - name: bob.example\n      mailboxes:\n        - name: m1\n`)).toBe(true);
    expect(agree(`${text}\n\n   \n        - name: m5\n`)).toBe(true);
  });
});
