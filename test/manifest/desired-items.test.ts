import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { packPlace, placeIn } from '../../src/manifest/desired-items.js';
import type { Desired } from '../../src/manifest/types.js';
import { manifestYaml } from '../../bench/fixtures.js';

const FILE = 'm.yaml';

/** Desired as plain data: what JSON makes of it. */
function plain(desired: Desired | undefined): unknown {
  return JSON.parse(JSON.stringify(desired)) as unknown;
}

describe('a place kept as one number', () => {
  it('gives back the same line and column, a long line and a far one included', () => {
    for (const [line, column] of [
      [1, 1],
      [3, 1023],
      [3, 1024],
      [7, 250_000],
      [1, 0],
      [0, 1024],
      [1, 2 ** 26 - 1],
      [1, 2 ** 26],
      [2 ** 20, 5_000_000],
      [2 ** 28, 2 ** 25],
      [4_000_000, 17],
      [2 ** 40, 5],
    ] as const) {
      expect(placeIn('f.yaml', packPlace({ file: 'f.yaml', line, column }))).toEqual({ file: 'f.yaml', line, column });
    }
  });

  it('a wide column on the first lines too (JSON on one line: issue 30, 7f)', () => {
    expect(typeof packPlace({ file: 'f.json', line: 1, column: 5_000_000 })).toBe('number');
    expect(typeof packPlace({ file: 'f.json', line: 1, column: 2 ** 26 })).toBe('object');
  });
});

describe('the clients and domains a read keeps', () => {
  const text = [
    'version: 1',
    'clients:',
    '  - username: alice',
    '    plan: Basic',
    '    email: alice@example.com',
    '    send_login_credentials: false',
    '    domains:',
    '      - alice.example',
    '      - {name: Old.Alice.Example, state: absent}',
    '  - username: bob',
    '    state: absent',
    '',
  ].join('\n');
  const at = (line: number, column: number) => ({ file: FILE, line, column });
  const expected = {
    file: FILE,
    clients: [
      {
        username: 'alice',
        state: 'present',
        plan: 'Basic',
        email: 'alice@example.com',
        sendLoginCredentials: false,
        planLoc: at(4, 11),
        domains: [
          { name: 'alice.example', input: 'alice.example', state: 'present', loc: at(8, 9) },
          { name: 'old.alice.example', input: 'Old.Alice.Example', state: 'absent', loc: at(9, 16) },
        ],
        loc: at(3, 15),
      },
      { username: 'bob', state: 'absent', domains: [], loc: at(10, 15) },
    ],
    prune: { domains: false, clients: false, keep: [] },
  };

  it('read whole or in chunks, are plain data to JSON, a spread and toEqual, keys in their order', () => {
    for (const result of [parseManifestWhole(text, FILE), parseManifestChunked(text, FILE)]) {
      expect(result?.diagnostics).toEqual([]);
      const desired = result?.desired;
      expect(plain(desired)).toEqual(expected);
      expect(desired).toEqual(expected);
      const [alice, bob] = desired?.clients ?? [];
      expect(Object.keys(alice ?? {})).toEqual(Object.keys(expected.clients[0] ?? {}));
      expect(Object.keys(alice?.domains[1] ?? {})).toEqual(['name', 'input', 'state', 'loc']);
      expect(Object.keys(bob ?? {})).toEqual(['username', 'state', 'domains', 'loc']);
      // A copy by spread holds the places as data.
      expect(Object.getOwnPropertyDescriptor({ ...alice }, 'planLoc')).toEqual({
        value: at(4, 11),
        writable: true,
        enumerable: true,
        configurable: true,
      });
      // A place that differs is a difference to toEqual.
      expect(alice).not.toEqual({ ...alice, loc: at(3, 16) });
      expect(alice?.domains[0]).not.toEqual({ ...alice?.domains[0], loc: at(9, 9) });
    }
  });

  it('past column 1024 of a long line, at the same place through both reads', () => {
    const clients = Array.from({ length: 60 }, (_, i) => `{username: u${i}, plan: Basic, domains: [u${i}.example]}`);
    const long = `version: 1\nclients: [${clients.join(', ')}]\n`;
    const whole = parseManifestWhole(long, FILE);
    expect(whole.diagnostics).toEqual([]);
    const last = whole.desired?.clients[59];
    // Columns count from the start of line 2.
    const columnOf = (part: string): number => long.indexOf(part) - long.indexOf('\n');
    expect(columnOf('u59, plan')).toBeGreaterThan(2048);
    expect(last?.loc).toEqual(at(2, columnOf('u59, plan')));
    expect(last?.planLoc).toEqual(at(2, columnOf('Basic, domains: [u59')));
    expect(last?.domains[0]?.loc).toEqual(at(2, columnOf('u59.example')));
    expect(validateManifest(long, FILE)).toEqual(whole);
  });
});

describe('memory', () => {
  it('a read of 20,000 clients of block YAML keeps under 5 bytes a byte of it (issue 30, 7f)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const text = manifestYaml({ clients: 20_000, domainsPerClient: 2 });
    gc();
    const before = process.memoryUsage().heapUsed;
    const result = validateManifest(text, FILE);
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    expect(result.desired?.clients).toHaveLength(20_000);
    // Kept before: 7.3 bytes a byte (each place an object, strings slices of the text, which
    // they kept whole, lists grown by push); now about 3.5. The text itself is counted apart.
    expect(kept / text.length).toBeLessThan(5);
  });
});
