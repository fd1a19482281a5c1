/**
 * The chunked read of the shapes users write beside plain block YAML (src/manifest/chunked.ts,
 * chunked-json.ts): a document that opens with `---`, and a manifest written as JSON. For any
 * text the reads agree (the chunked read, when it answers, answers exactly what the whole read
 * does: data, every location, every diagnostic), and valid manifests of these shapes take the
 * chunked read, whose memory is a batch's (bench/manifest-memory.ts).
 */
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { anyClients, anyShape, manifestText, shape, validClients } from './arbitraries.js';

const FILE = 'm.json';

/** The three reads of `text` agree; returns whether the chunked read answered. */
function agree(text: string, batchChars?: number): boolean {
  const whole = parseManifestWhole(text, FILE);
  expect(validateManifest(text, FILE)).toEqual(whole);
  const chunked = parseManifestChunked(text, FILE, batchChars);
  if (chunked !== undefined) {
    expect(chunked).toEqual(whole);
    expect(whole.diagnostics).toEqual([]);
  }
  const keeping = parseManifestChunked(text, FILE, batchChars, true);
  if (keeping !== undefined) expect(keeping).toEqual(whole);
  return chunked !== undefined;
}

/** The manifest's data as JSON text: compact, indented, or indented with CRLF line breaks. */
const asJson = fc.constantFrom(
  (data: unknown) => JSON.stringify(data),
  (data: unknown) => `${JSON.stringify(data, null, 2)}\n`,
  (data: unknown) => `${JSON.stringify(data, null, 4).replaceAll('\n', '\r\n')}\r\n`,
);

/** Small changes to JSON text that the JSON reader must either read as yaml does, or leave to it. */
const jsonEdit = fc.oneof(
  fc.constant((t: string) => t),
  fc.constant((t: string) => t.replace(/\]/, ',]')), // a trailing comma
  fc.constant((t: string) => t.replace(/"username"/, '"username"\n')), // a line break before a colon
  fc.constant((t: string) => t.replace(/"version": ?1/, '"version": 1.0')),
  fc.constant((t: string) => t.replace(/"version": ?1/, '"version": 1, "version": 1')),
  fc.constant((t: string) => `${t} # a comment`),
  fc.constant((t: string) => t.replace(/("username": ?")/, '$1\\u0061')),
  fc.constant((t: string) => t.replace(/("username": ?")/, '$1\\/')),
  fc.constant((t: string) => t.replace(/"domains"/, '"__proto__"')),
  fc.constant((t: string) => t.replace(/\{/g, '{\n')),
  fc.constant((t: string) => t.replace(/, /g, ',\n')),
  fc.constant((t: string) => `${t}{}`),
  fc.record({ at: fc.nat(), cut: fc.nat({ max: 3 }) }).map(
    ({ at, cut }) =>
      (t: string) =>
        t.slice(0, at % (t.length + 1)) + t.slice((at % (t.length + 1)) + cut),
  ),
);

describe('a manifest written as JSON', () => {
  it('valid: read in chunks, exactly as the whole read reads it', () => {
    fc.assert(
      fc.property(shape, validClients, asJson, fc.integer({ min: 1, max: 400 }), (s, clients, json, batchChars) => {
        const text = json(parse(manifestText(s, clients)));
        expect(parseManifestWhole(text, FILE).diagnostics).toEqual([]);
        expect(agree(text, batchChars)).toBe(true);
        expect(agree(text)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('with mistakes, and with what JSON and YAML read differently: the reads agree', () => {
    fc.assert(
      fc.property(
        fc.oneof(shape, anyShape),
        fc.oneof(validClients, anyClients),
        asJson,
        jsonEdit,
        fc.integer({ min: 1, max: 400 }),
        (s, clients, json, change, batchChars) => {
          let data: unknown;
          try {
            data = parse(manifestText(s, clients));
          } catch {
            return;
          }
          agree(change(json(data)), batchChars);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The manifest's data in YAML's flow style, as yaml writes it (plain strings where it can, lines wrapped). */
const asFlow = fc.record({ lineWidth: fc.constantFrom(0, 20, 80), indent: fc.constantFrom(1, 2, 4) }).map(
  ({ lineWidth, indent }) =>
    (data: unknown) =>
      stringify(data, { collectionStyle: 'flow', lineWidth, indent }),
);

describe('a manifest in YAML flow style', () => {
  it('valid: read in chunks, exactly as the whole read reads it', () => {
    let chunked = 0;
    fc.assert(
      fc.property(shape, validClients, asFlow, fc.integer({ min: 1, max: 400 }), (s, clients, flow, batchChars) => {
        const text = flow(parse(manifestText(s, clients)));
        if (agree(text, batchChars)) chunked++;
      }),
      { numRuns: 150 },
    );
    // Most are read in chunks; yaml writes some scalars quoted or folded, which are left to it.
    expect(chunked).toBeGreaterThan(50);
  });

  it('with mistakes and edits: the reads agree', () => {
    fc.assert(
      fc.property(
        fc.oneof(shape, anyShape),
        fc.oneof(validClients, anyClients),
        asFlow,
        jsonEdit,
        fc.integer({ min: 1, max: 400 }),
        (s, clients, flow, change, batchChars) => {
          let data: unknown;
          try {
            data = parse(manifestText(s, clients));
          } catch {
            return;
          }
          agree(change(flow(data)), batchChars);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads the shape a person writes', () => {
    const text =
      '{version: 1, clients: [\n  {username: alice, plan: Premium Plus, domains: [alice.example]},\n  {username: bob, suspended: true}\n]}\n';
    expect(agree(text)).toBe(true);
    expect(agree(text.replace('alice.example]', 'alice.example] # a comment'))).toBe(false);
  });

  it('leaves deep nesting to the whole read, and never throws for it', () => {
    for (const depth of [33, 1000, 5000]) {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      for (const text of [
        `{"version": 1, "clients": [{"username": "a", "x": ${deep}}]}`,
        `{"version": 1, "clients": [{"username": "a"}], "x": ${deep}}`,
      ]) {
        expect(() => parseManifestChunked(text, FILE, undefined, true)).not.toThrow();
        expect(parseManifestChunked(text, FILE, undefined, true)).toBeUndefined();
        // yaml stops where its stack runs out ("nests too deeply"), so what it says depends on the stack.
        const result = validateManifest(text, FILE);
        expect(result.desired).toBeUndefined();
        if (depth === 33) expect(result).toEqual(parseManifestWhole(text, FILE));
        else expect(result.diagnostics.length).toBeGreaterThan(0);
      }
    }
    // Up to 32 deep is read (its diagnostics the whole read's).
    const nested = `{"version": 1, "clients": [{"username": "a", "x": ${'['.repeat(30)}${']'.repeat(30)}}]}`;
    expect(parseManifestChunked(nested, FILE, undefined, true)).toEqual(parseManifestWhole(nested, FILE));
    expect(parseManifestChunked(nested, FILE, undefined, true)).toBeDefined();
  });

  it('leaves to the whole read a line that opens with `... `, the end of the document, inside the flow', () => {
    // yaml refuses these (the document ends inside its flow collection): never read as a plan `... y`.
    for (const text of [
      '{"version": 1, "clients": [{"username": "a", "plan":\n... y}]}',
      '{version: 1, clients: [{username: a, plan:\n... y}]}',
      '{version: 1, clients: [{username: a,\n... y: b}]}',
      '{version: 1, clients: [{username: a}], prune: {domains:\n... true}}',
    ]) {
      expect(parseManifestWhole(text, FILE).desired).toBeUndefined();
      expect(agree(text)).toBe(false);
      expect(parseManifestChunked(text, FILE, undefined, true)).toBeUndefined();
    }
    // Not a document marker: `...` then no space, or not at the line's start.
    expect(agree('{version: 1, clients: [{username: a, plan:\n ... y}]}')).toBe(true);
    expect(agree('{version: 1, clients: [{username: a, plan:\n...y}]}')).toBe(true);
  });
});

describe('a document that opens with ---', () => {
  it('valid: read in chunks, exactly as the whole read reads it; a second --- is left to the whole read', () => {
    fc.assert(
      fc.property(shape, validClients, fc.integer({ min: 1, max: 400 }), (s, clients, batchChars) => {
        const text = manifestText(s, clients);
        expect(agree(`---\n${text}`, batchChars)).toBe(true);
        expect(agree(`# a comment\n--- # the document\n${text}`, batchChars)).toBe(true);
        expect(agree(`---\n---\n${text}`, batchChars)).toBe(false);
        agree(`${text}---\n`, batchChars);
      }),
      { numRuns: 200 },
    );
  });

  it('with mistakes: the reads agree', () => {
    fc.assert(
      fc.property(anyShape, anyClients, fc.integer({ min: 1, max: 400 }), (s, clients, batchChars) => {
        agree(`---\n${manifestText(s, clients)}`, batchChars);
      }),
      { numRuns: 200 },
    );
  });
});
