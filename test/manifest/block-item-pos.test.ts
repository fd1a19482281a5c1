/**
 * A long list's block mapping items keep only their place and read their entries again when
 * asked (BlockItemPos, src/manifest/simple-items.ts; issue 30, 7f): what they answer when asked
 * is what `yaml` answers, the alias guard counts them as it counts the rest, and the checks
 * locate problems in them as the whole read does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readItemsWithYaml } from '../../src/manifest/chunked.js';
import { CHUNKED_DIAGNOSTICS_ABOVE, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { aliasLimit, nodesIn, type PosNode, Reading } from '../../src/manifest/positions.js';
import { readSimpleItems } from '../../src/manifest/simple-items.js';

/** A position tree as plain objects, what a getter gives read. */
function plain(pos: PosNode): unknown {
  const entries = pos.entries?.map((e) => ({ ...e, value: e.value && plain(e.value) }));
  return { line: pos.line, column: pos.column, entries, items: pos.items?.map(plain) };
}

/** A record of a zone, in block or flow form, `pad` spaces in. */
const record = fc.tuple(fc.constantFrom('www', 'mail', '@'), fc.constantFrom('A', 'TXT', 'MX'), fc.boolean()).map(
  ([host, type, flow]) =>
    (pad: string): string =>
      flow
        ? `${pad}- {host: ${host === '@' ? '"@"' : host}, type: ${type}, value: v1}\n`
        : `${pad}- host: ${host === '@' ? '"@"' : host}\n${pad}  type: ${type}\n${pad}  value: v1\n`,
);

/** A domain item at `pad` (the dash's indentation) of one of the shapes manifests write. */
const domain = fc.oneof(
  fc.nat(999).map(
    (n) =>
      (pad: string): string =>
        `${pad}- d${n}.example\n`,
  ),
  fc.nat(999).map(
    (n) =>
      (pad: string): string =>
        `${pad}- name: d${n}.example\n`,
  ),
  fc.nat(999).map(
    (n) =>
      (pad: string): string =>
        `${pad}- name: d${n}.example\n${pad}  state: absent\n`,
  ),
  fc.tuple(fc.nat(999), fc.array(record, { maxLength: 40 })).map(
    ([n, records]) =>
      (pad: string): string =>
        `${pad}- name: d${n}.example\n${pad}  dns:\n${pad}    records:\n${records.map((r) => r(`${pad}      `)).join('')}` +
        (records.length === 0 ? `${pad}      - {host: www, type: A, value: v1}\n` : ''),
  ),
  fc.tuple(fc.nat(999), fc.integer({ min: 1, max: 40 })).map(
    ([n, boxes]) =>
      (pad: string): string =>
        `${pad}- name: d${n}.example\n${pad}  mailboxes:\n` +
        Array.from({ length: boxes }, (_, b) => `${pad}    - name: m${b}\n${pad}      quota: 1 GiB\n`).join(''),
  ),
);

/** Client items, each with a list of domains long enough that most are read again when asked. */
const clients = fc.array(
  fc.tuple(fc.nat(99), fc.array(domain, { maxLength: 40 })).map(([n, domains]) => {
    const list = domains.map((d) => d('      ')).join('');
    return `  - username: c${n}\n    domains:\n${list === '' ? '      - a.example\n' : list}`;
  }),
  { minLength: 1, maxLength: 3 },
);

describe('the items of a long list, read again when asked', () => {
  it("answer as yaml does, and count as yaml's nodes for the alias guard", () => {
    fc.assert(
      fc.property(clients, (items) => {
        const text = `version: 1\nclients:\n${items.join('')}`;
        const start = 'version: 1\nclients:\n'.length;
        const fast = readSimpleItems(text, start, text.length, 2);
        const reading = new Reading(aliasLimit(text));
        const slow = readItemsWithYaml(text, start, text.length, 2, reading);
        expect(fast).toBeDefined();
        expect(slow).toBeDefined();
        if (fast === undefined || slow === undefined) return;
        expect(fast.clients).toEqual(slow.clients);
        expect(nodesIn(fast.seq)).toBe(reading.nodes);
        expect(plain(fast.seq)).toEqual(plain(slow.seq));
      }),
      { numRuns: 300 },
    );
  });

  it('keep no entries past the first ones until asked', () => {
    const domains = Array.from({ length: 40 }, (_, k) => `      - name: d${k}.example\n        state: absent\n`);
    const text = `version: 1\nclients:\n  - username: big\n    domains:\n${domains.join('')}`;
    const read = readSimpleItems(text, 'version: 1\nclients:\n'.length, text.length, 2);
    const list = read?.seq.items?.[0]?.entries?.find((e) => e.key === 'domains')?.value?.items ?? [];
    expect(list).toHaveLength(40);
    const kept = list.map((item) => Object.keys(item).includes('entries'));
    expect(kept).toEqual(Array.from({ length: 40 }, (_, k) => k < 16));
    expect(list[30]?.entries?.map((e) => [e.key, e.line, e.column])).toEqual([
      ['name', 65, 9],
      ['state', 66, 9],
    ]);
  });

  it('locate the problems in them as the whole read does', () => {
    const lines = ['version: 1', 'clients:', '  - username: big', '    domains:'];
    for (let k = 0; k < 1500; k++) {
      if (k === 700) lines.push('      - name: d700.example', '        colour: blue');
      else if (k === 900)
        lines.push(
          '      - name: d900.example',
          '        dns:',
          '          records:',
          ...Array.from(
            { length: 30 },
            (_, r) =>
              `            - host: h${r}\n              type: ${r === 25 ? 'AAAA' : 'A'}\n              value: 192.0.2.${r + 1}`,
          ),
        );
      else if (k === 1200) lines.push('      - name: D3.example', '        state: absent');
      else lines.push(`      - name: d${k}.example`, '        state: absent');
    }
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
    const chunked = validateManifest(text, 'big.yaml');
    expect(chunked.diagnostics.length).toBeGreaterThanOrEqual(3);
    expect(chunked.diagnostics).toEqual(parseManifestWhole(text, 'big.yaml').diagnostics);
  });
});
