/**
 * The plain item's read (src/kinds/mailbox/manifest.ts readItem): an item that gives only its
 * name (`- name: m1`, nearly every one) is read without the general read's steps, and must give
 * exactly what the general read gives, refusals and what `seen` remembers included. Each list is
 * read twice: as it is, and with `state: present` added to every item that gives only its name
 * (which means the same, and goes through the general read); the two readings must agree, over
 * two domains of one client sharing what is seen, as the parts of a manifest directory do.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { mailboxItems, mailboxSeen } from '../../../src/kinds/mailbox/index.js';
import type { Location } from '../../../src/manifest/types.js';

const names = fc.constantFrom(
  'info',
  'm1',
  'Info',
  'INFO',
  'a.b',
  'a..b',
  '',
  ' x',
  'x@y',
  'info@alice.example',
  'ünï',
);
const localParts = fc.constantFrom('info', 'hello', 'Info', 'm1', 'info@shop.example', 'x@other.example', 'bad one');
const items = fc.oneof(
  { weight: 4, arbitrary: names.map((name) => ({ name })) },
  fc.record({ name: names, aliases: fc.array(localParts, { maxLength: 2 }) }),
  names.map((name) => ({ name, state: 'absent' })),
  names.map((name) => ({ name, catch_all: true })),
);
const lists = fc.tuple(fc.array(items, { maxLength: 6 }), fc.array(items, { maxLength: 6 }));

/** A place for each path below a list (line: the item; column: the path's length, its last key's, atKey). */
function locator(file: string): (path: readonly (string | number)[], atKey: boolean) => Location {
  return (path, atKey) => ({
    file,
    line: Number(path[0] ?? 0) + 1,
    column: path.length * 10 + String(path.at(-1) ?? '').length * 100 + (atKey ? 1 : 0),
  });
}

/** An item's value located as `locator` locates `[index, key]`, as readSections hands it in (itemAt). */
function itemAt(file: string): (index: number, key: string) => Location {
  const locate = locator(file);
  return (index, key) => locate([index, key], false);
}

/** Both lists read in turn, one `seen` shared: the mailboxes and problems of each (`itemAt` handed in with `withItemAt`). */
function readBoth(first: readonly object[], second: readonly object[], withItemAt = false): unknown {
  const seen = mailboxSeen<Location>();
  const clientDomains = new Set(['alice.example', 'shop.example']);
  return [
    ['alice.example', first],
    ['shop.example', second],
  ].map(([domain, list]) =>
    mailboxItems(list, {
      domain: domain as string,
      client: 'client "alice"',
      clientDomains,
      locate: locator(`${domain as string}.yaml`),
      ...(withItemAt ? { itemAt: itemAt(`${domain as string}.yaml`) } : {}),
      seen,
    }),
  );
}

/** The list with `state: present` on each item that gives only its name. */
function spelledOut(list: readonly object[]): object[] {
  return list.map((item) => (Object.keys(item).length === 1 ? { ...item, state: 'present' } : item));
}

describe('a mailbox item that gives only its name', () => {
  test('is read as the general read reads it, refusals and duplicates across lists included', () => {
    fc.assert(
      fc.property(lists, ([first, second]) => {
        expect(readBoth(first, second)).toEqual(readBoth(spelledOut(first), spelledOut(second)));
      }),
      { numRuns: 400 },
    );
  });

  test('is located by itemAt as by the locator, when the stage hands it in', () => {
    fc.assert(
      fc.property(lists, ([first, second]) => {
        expect(readBoth(first, second, true)).toEqual(readBoth(first, second));
      }),
      { numRuns: 200 },
    );
  });

  test('listed twice, or after an alias or a mailbox marked absent of that address, is refused as before', () => {
    const [alice, shop] = readBoth(
      [
        { name: 'info' },
        { name: 'info' },
        { name: 'desk', aliases: ['hello'] },
        { name: 'hello' },
        { name: 'old', state: 'absent' },
      ],
      [{ name: 'shop' }, { name: 'Shop' }],
    ) as { mailboxes: { address: string }[]; problems: { line: number; message: string }[] }[];
    expect(alice?.mailboxes.map((m) => m.address)).toEqual([
      'info@alice.example',
      'desk@alice.example',
      'old@alice.example',
    ]);
    expect(alice?.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '2: mailbox "info@alice.example" is listed twice (first at line 1): remove one',
      '4: mailbox "hello@alice.example" is already an alias of mailbox "desk@alice.example" (at line 3): ' +
        'an address is listed once, as a mailbox or as an alias: remove one of them',
    ]);
    expect(shop?.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '2: mailbox "shop@shop.example" (same as "shop") is listed twice (first at line 1): remove one',
    ]);
  });
});
