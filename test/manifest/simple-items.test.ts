/**
 * The fast read of client items (src/manifest/simple-items.ts) against `yaml`'s
 * (readItemsWithYaml in chunked.ts): on any text, it answers exactly what `yaml` answers,
 * data and positions, or leaves the text to `yaml`; and it does answer for the block YAML
 * manifests are written in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readItemsWithYaml } from '../../src/manifest/chunked.js';
import type { PosNode } from '../../src/manifest/positions.js';
import { readSimpleItems } from '../../src/manifest/simple-items.js';
import { anyClients, anyShape, edit, manifestText, shape, validClients } from './arbitraries.js';
import { TRICKY } from './tricky-scalars.js';

/** The chunked tests' valid layouts, written in plain style with indented domain lists: what the fast read takes. */
const plainShape = shape.map((s) => ({
  ...s,
  quote: 'plain' as const,
  domainIndent: s.domainIndent === 0 ? 2 : s.domainIndent,
}));

/**
 * Both reads of the items from `start` to `end`; the fast one's answer, if any, must be yaml's,
 * positions compared as plain data (the fast read's flow mappings read their entries when asked).
 */
function agree(text: string, start = 0, end = text.length): boolean {
  const firstLine = text.slice(0, start).split('\n').length - 1;
  const fast = readSimpleItems(text, start, end, firstLine);
  const slow = readItemsWithYaml(text, start, end, firstLine);
  if (fast !== undefined) expect({ ...fast, seq: plain(fast.seq) }).toEqual({ ...slow, seq: slow && plain(slow.seq) });
  return fast !== undefined;
}

/** A position tree as plain objects, what a getter gives read. */
function plain(pos: PosNode): unknown {
  const entries = pos.entries?.map((e) => ({ ...e, value: e.value && plain(e.value) }));
  return { line: pos.line, column: pos.column, entries, items: pos.items?.map(plain) };
}

/** The `clients:` section of a manifest's text: from the line after `clients:` to the next top-level key. */
function clientsSection(text: string): [number, number] | undefined {
  const at = /^clients:[^\n]*\n/m.exec(text);
  if (at === null) return undefined;
  const start = at.index + at[0].length;
  const after = /^[A-Za-z%.]/m.exec(text.slice(start));
  return [start, after === null ? text.length : start + after.index];
}

const scalar = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'alice',
      'shop.example',
      'Premium Plus',
      'ops@example.com',
      'bücher.example',
      'c0',
      'true',
      'false',
      'a-b_c',
    ),
    weight: 3,
  },
  { arbitrary: fc.constantFrom(...TRICKY), weight: 1 },
  {
    arbitrary: fc.string({
      unit: fc.constantFrom('a', 'B', '0', '1', '.', '-', '+', ' ', '#', ':', 'e', 'x', 'ü', '"', "'"),
      maxLength: 8,
    }),
    weight: 1,
  },
  // Quoted: well formed (a quote inside doubled or escaped), or not; with trailing text or not.
  {
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom(...TRICKY), fc.constantFrom('alice', 'a, b', 'x]', 'y}', "it's", '"q"', '')),
        fc.constantFrom('"', "'"),
        fc.constantFrom('', '', '', ' ', ':', ' :x', '"', "'", ' #c', '#c'),
      )
      .map(([v, q, after]) => `${q}${q === "'" ? v.replaceAll("'", "''") : v.replaceAll('"', '\\"')}${q}${after}`),
    weight: 2,
  },
);
const key = fc.oneof(
  {
    arbitrary: fc.constantFrom('username', 'plan', 'email', 'suspended', 'domains', 'name', 'state', 'Plan', 'a-b'),
    weight: 5,
  },
  {
    arbitrary: fc.constantFrom(
      '_x',
      '__proto__',
      '1x',
      'x y',
      '',
      'null',
      'Null',
      'NULL',
      'True',
      'TRUE',
      'true',
      'False',
      'false',
      'k'.repeat(1025),
    ),
    weight: 1,
  },
);
const indent = fc.constantFrom(0, 1, 2, 3, 4, 6);

/** Item lines of any shape: dashes, keys, scalars, comments, blank lines, at any indentation. */
const itemLines = fc.array(
  fc.oneof(
    fc.tuple(indent, key, scalar).map(([i, k, v]) => `${' '.repeat(i)}- ${k}: ${v}`),
    fc.tuple(indent, key, scalar).map(([i, k, v]) => `${' '.repeat(i)}${k}: ${v}`),
    fc.tuple(indent, key).map(([i, k]) => `${' '.repeat(i)}${k}:`),
    fc.tuple(indent, scalar).map(([i, v]) => `${' '.repeat(i)}- ${v}`),
    fc.tuple(indent, key, fc.constantFrom(' # note', '  #x', '#y')).map(([i, k, c]) => `${' '.repeat(i)}${k}:${c}`),
    fc
      .tuple(indent, fc.constantFrom('# comment', '', '-', '- ', '--', '-  x', '- - x', '- key:value'))
      .map(([i, l]) => `${' '.repeat(i)}${l}`),
  ),
  { minLength: 1, maxLength: 12 },
);

/**
 * Items in the shape the fast read takes (block mappings under dashes, sequences and mappings
 * below, one-line flow sequences), each value a tricky or random scalar, at random indentation.
 */
const structuredItems = fc
  .tuple(
    fc.constantFrom(0, 2, 4),
    fc.array(
      fc.record({
        inner: fc.constantFrom(1, 1, 2, 3),
        deeper: fc.constantFrom(-2, 0, 1, 2, 2, 2, 4),
        entries: fc.uniqueArray(
          fc.tuple(
            key,
            fc.oneof(
              scalar.map((v) => ({ kind: 'scalar' as const, v })),
              fc.array(scalar, { maxLength: 3 }).map((v) => ({ kind: 'block' as const, v })),
              fc.array(scalar, { maxLength: 3 }).map((v) => ({ kind: 'flow' as const, v })),
              fc
                .uniqueArray(fc.tuple(key, scalar), {
                  minLength: 1,
                  maxLength: 2,
                  selector: ([k]) => k,
                })
                .map((v) => ({ kind: 'map' as const, v })),
            ),
            fc.constantFrom('', '', ' # c', '   #c'),
          ),
          { minLength: 1, maxLength: 4, selector: ([k]) => k },
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([pad, items]) =>
    items
      .map(({ inner, deeper, entries }) => {
        const column = pad + 1 + inner;
        const below = ' '.repeat(Math.max(0, column + deeper));
        return entries
          .map(([k, value, comment], i) => {
            const lead = i === 0 ? `${' '.repeat(pad)}-${' '.repeat(inner)}` : ' '.repeat(column);
            switch (value.kind) {
              case 'scalar':
                return `${lead}${k}: ${value.v}${comment}`;
              case 'flow':
                return `${lead}${k}: [${value.v.join(', ')}]${comment}`;
              case 'block':
                return [`${lead}${k}:${comment}`, ...value.v.map((v) => `${below}- ${v}`)].join('\n');
              case 'map':
                return [`${lead}${k}:${comment}`, ...value.v.map(([mk, mv]) => `${below}${mk}: ${mv}`)].join('\n');
            }
          })
          .join('\n');
      })
      .join('\n'),
  );

describe('the fast read of client items', () => {
  it('answers as yaml does, or not at all, on item lines of any shape', () => {
    fc.assert(
      fc.property(itemLines, fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        agree(lines.join(eol) + eol);
        agree(lines.join(eol));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers as yaml does, or not at all, on items of its own shape with tricky scalars; and answers often', () => {
    let answered = 0;
    fc.assert(
      fc.property(structuredItems, fc.constantFrom('\n', '\r\n'), (text, eol) => {
        if (agree(text.replaceAll('\n', eol) + eol)) answered++;
      }),
      { numRuns: 3000 },
    );
    // Not a vacuous test: the fast read answered (and was compared) in many of the runs.
    expect(answered).toBeGreaterThan(80);
  });

  it('answers as yaml does, or not at all, on every manifest the chunked tests generate, cut anywhere between items', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.oneof(shape, anyShape, plainShape),
        fc.oneof(validClients, anyClients),
        edit,
        fc.nat(),
        (s, clients, change, cut) => {
          const text = change(manifestText(s, clients));
          const section = clientsSection(text);
          if (section === undefined) return;
          const [start, end] = section;
          if (agree(text, start, end)) answered++;
          // A batch that starts at a later item's line, as chunked.ts cuts them.
          const items = [...text.slice(start, end).matchAll(/^ *- /gm)].map((m) => start + m.index);
          const from = items[cut % Math.max(items.length, 1)];
          if (from !== undefined) agree(text, from, end);
        },
      ),
      { numRuns: 1500 },
    );
    expect(answered).toBeGreaterThan(35);
  });

  it("keys YAML reads as booleans or nulls, keys over yaml's length, nesting deeper than a manifest's, a lone carriage return: left to yaml", () => {
    for (const key of ['null', 'Null', 'NULL', 'True', 'TRUE', 'False', 'FALSE', 'true', 'false', 'k'.repeat(1025)]) {
      expect(readSimpleItems(`- ${key}: x\n`, 0, `- ${key}: x\n`.length, 0), key.slice(0, 10)).toBeUndefined();
    }
    expect(agree('- true: a\n  True: b\n')).toBe(false);
    // 3,000 keys, each one space deeper: yaml gives up (resource exhaustion); so does the fast read, without throwing.
    const deep = `- username: u\n  a:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 3)}a${i}:`).join('\n')} x\n`;
    expect(() => readSimpleItems(deep, 0, deep.length, 0)).not.toThrow();
    expect(readSimpleItems(deep, 0, deep.length, 0)).toBeUndefined();
    const cr = '- username: u\n  state: absent\n\r';
    expect(readSimpleItems(cr, 0, cr.length, 0)).toBeUndefined();
    expect(agree('- username: u\r\n  state: absent\r\n')).toBe(true);
  });

  it('each tricky scalar, as a value and as a sequence item: as yaml reads it, or left to yaml', () => {
    for (const value of TRICKY) {
      for (const text of [
        `- username: u\n  plan: ${value}\n`,
        `- username: u\n  domains:\n    - ${value}\n`,
        `- ${value}\n`,
      ])
        agree(text);
    }
  });

  it("reads the manifests people write (the examples, the benchmark's shape), so the fast path is taken", () => {
    const bench = Array.from(
      { length: 50 },
      (_, i) =>
        `  - username: c${i}\n    plan: Basic\n    email: c${i}@example.com\n    domains:\n      - c${i}.example\n      - s1.c${i}.example\n`,
    ).join('');
    expect(agree(bench)).toBe(true);
    const quoted = bench.replace(/: (\S+)\n/g, ': "$1"\n').replace(/- (s1\S+)\n/g, "- '$1'\n");
    expect(quoted).toContain("- 's1.c0.example'");
    expect(agree(quoted)).toBe(true);
    for (const example of ['agency.yaml', 'quickstart.yaml']) {
      const text = readFileSync(join(import.meta.dirname, '..', '..', 'examples', example), 'utf8');
      const section = clientsSection(text);
      expect(section, example).toBeDefined();
      if (section !== undefined) expect(agree(text, ...section), example).toBe(true);
    }
  });

  it('one-line flow mappings (DNS records), with tricky keys, values and spacing: as yaml reads them, or left to yaml', () => {
    const value = fc.oneof(
      { arbitrary: scalar, weight: 3 },
      {
        arbitrary: fc
          .tuple(fc.array(scalar, { maxLength: 3 }), fc.constantFrom(', ', ',', ' ,'), fc.constantFrom('', ' '))
          .map(([vs, comma, pad]) => `[${pad}${vs.join(comma)}${pad}]`),
        weight: 1,
      },
    );
    const pair = fc
      .tuple(key, value, fc.constantFrom(': ', ':  ', ':'), fc.constantFrom(', ', ',', ' , ', ',  '))
      .map(([k, v, colon, comma]) => ({ k, text: `${k}${colon}${v}`, comma }));
    const mapping = fc
      .tuple(fc.array(pair, { maxLength: 4 }), fc.constantFrom('{', '{ '), fc.constantFrom('}', ' }'))
      .map(
        ([pairs, open, close]) => `${open}${pairs.map((p, i) => (i === 0 ? '' : p.comma) + p.text).join('')}${close}`,
      );
    // A sequence of mappings on one line (`records: [{host: www, ...}]`), one in a mapping's value too.
    const mappings = fc
      .tuple(fc.array(mapping, { maxLength: 3 }), fc.constantFrom(', ', ',', ' , '), fc.constantFrom('', ' '))
      .map(([ms, comma, pad]) => `[${pad}${ms.join(comma)}${pad}]`);
    const line = fc.oneof(
      fc.tuple(mapping, fc.constantFrom('', ' # c', '#c', ' x')).map(([m, c]) => `  - ${m}${c}`),
      fc.tuple(key, mapping).map(([k, m]) => `    ${k}: ${m}`),
      fc.tuple(mapping).map(([m]) => `      - ${m}`),
      fc.tuple(key, mappings, fc.constantFrom('', ' # c', ' x', ': y')).map(([k, ms, c]) => `    ${k}: ${ms}${c}`),
      fc.tuple(key, mappings).map(([k, ms]) => `  - {${k}: ${ms}}`),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        agree(`  - username: a\n    records:\n${lines.join(eol)}${eol}`);
        agree(lines.join(eol) + eol);
      }),
      { numRuns: 1500 },
    );
    const zone = [
      '  - username: big',
      '    domains:',
      '      - name: big.example',
      '        dns:',
      '          records:',
      '            - {host: www, type: A, value: 192.0.2.1}',
      '            - {host: mail,type: MX, value: mx.example., priority: 10}  # the relay',
      '            - { host: sub , type: CNAME, value: www.big.example. }',
      '',
    ].join('\n');
    expect(agree(zone)).toBe(true);
    const inline = [
      '  - username: big',
      '    domains:',
      '      - name: big.example',
      '        dns:',
      '          records: [{host: www, type: A, value: 192.0.2.1}, { host: mail , type: MX, value: "10 mx.example." }]',
      '      - name: two.example',
      '        dns: {records: [], ttl: 300}',
      '',
    ].join('\n');
    expect(agree(inline)).toBe(true);
    // A mapping in a sequence in a mapping is yaml's to read.
    expect(agree('  - {username: a, records: [{host: www}]}\n')).toBe(false);
    const perClient = [
      '  - {username: c1, plan: Basic, email: c1@example.com, domains: [c1.example, s1.c1.example]}',
      '  - { username: \'c2\', plan: "Basic" , domains: [ \'c2.example\' ,"s1.c2.example" ] } # two',
      '  - {username: c3, domains: []}',
      '',
    ].join('\n');
    expect(agree(perClient)).toBe(true);
  });
});
