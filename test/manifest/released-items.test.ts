import { describe, expect, it } from 'vitest';
import { ClientsBuilder } from '../../src/manifest/build.js';
import { CHUNKED_DIAGNOSTICS_ABOVE, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { type PosNode, PositionMap } from '../../src/manifest/positions.js';

/**
 * A client's domains are let go as the read takes them (issue 30, 7f: one client of 100,000
 * domains is one batch, and its items stood beside all that was made of them): the checks that
 * look back at earlier domains (a name listed twice, a subdomain's zone, a mailbox's alias on
 * another domain of the client) find them in what was made, and say what the whole read says.
 */

const FILE = 'big.yaml';

/** One client of `count` plain domains and, between them, the items `special` gives at some places. */
function oneClient(count: number, special: ReadonlyMap<number, string>): string {
  const lines = ['version: 1', 'clients:', '  - username: big', '    domains:'];
  for (let k = 0; k < count; k++) lines.push(special.get(k) ?? `      - d${k}.example`);
  const text = `${lines.join('\n')}\n`;
  expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
  return text;
}

const PROBLEMS = new Map([
  [10, '      - name: shop.late.example\n        dns:\n          records: [{host: www, type: A, value: 192.0.2.1}]'],
  [20, '      - name: mail.example\n        mailboxes:\n          - {name: info, aliases: [hello@late.example]}'],
  [30, '      - not a domain'],
  [3500, '      - late.example'],
  [3900, '      - D25.example'],
]);

describe("a client's domains, let go as they are taken", () => {
  it('say what the whole read says of names listed twice, subdomain zones and aliases', () => {
    const text = oneClient(4000, PROBLEMS);
    const chunked = validateManifest(text, FILE);
    expect(chunked.diagnostics).toEqual(parseManifestWhole(text, FILE).diagnostics);
    const said = chunked.diagnostics.map((d) => `${d.line}:${d.column}`);
    // The zone of shop.late.example (line 16), the name that is none (line 39), D25 listed again
    // (its first listing at line 34); the alias on late.example, listed later, is no problem.
    expect(said).toEqual(['16:9', '39:9', '3909:9']);
    expect(chunked.diagnostics[2]?.message).toContain(
      '"D25.example" (same as "d25.example") is listed twice in client "big"',
    );
    expect(chunked.diagnostics[2]?.message).toContain('line 34');
  });

  it('and read in JSON, the same', () => {
    const domains = Array.from({ length: 4000 }, (_, k) => (k === 3999 ? 'd7.example' : `d${k}.example`));
    const text = JSON.stringify({ version: 1, clients: [{ username: 'big', domains }] }, null, 1);
    const chunked = validateManifest(text, FILE);
    expect(chunked.diagnostics).toEqual(parseManifestWhole(text, FILE).diagnostics);
    expect(chunked.diagnostics).toHaveLength(1);
  });

  it('a valid client keeps every domain, in order', () => {
    const text = oneClient(4000, new Map());
    const desired = validateManifest(text, FILE).desired;
    expect(desired?.clients[0]?.domains.map((d) => d.name)).toEqual(
      Array.from({ length: 4000 }, (_, k) => `d${k}.example`),
    );
    expect(desired?.clients[0]?.domains[3999]?.loc).toEqual({ file: FILE, line: 4004, column: 9 });
  });

  it('go from a batch the read owns, and stay in one that may share them', () => {
    const batch = (): { data: Record<string, unknown>; seq: PosNode } => {
      const items = Array.from({ length: 3 }, (_, k) => ({ line: 3 + k, column: 9 }));
      const client: PosNode = {
        line: 1,
        column: 5,
        entries: [
          { key: 'username', line: 1, column: 5, value: { line: 1, column: 15 } },
          { key: 'domains', line: 2, column: 5, value: { line: 3, column: 7, items } },
        ],
      };
      return { data: { username: 'big', domains: ['a.example', 'b.example', 'c.example'] }, seq: client };
    };
    for (const owned of [true, false]) {
      const { data, seq } = batch();
      const builder = new ClientsBuilder([]);
      builder.add(new PositionMap(FILE, '', seq, owned), data, 0, { node: seq, via: undefined });
      expect(builder.clients[0]?.domains.map((d) => [d.name, d.loc?.line])).toEqual([
        ['a.example', 3],
        ['b.example', 4],
        ['c.example', 5],
      ]);
      const items = seq.entries?.[1]?.value?.items ?? [];
      expect(data.domains).toEqual(owned ? [undefined, undefined, undefined] : ['a.example', 'b.example', 'c.example']);
      expect((items as readonly unknown[]).every((item) => item === undefined)).toBe(owned);
    }
  });
});
