/**
 * A client item's `databases` list as the database room reads it: real YAML parsed with positions
 * and located by the manifest's own SourceMap, so each problem is checked at its file:line:column,
 * with the rule or what to write; and `prune.databases` refused.
 */
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { findPath, locateIn, SourceMap } from '../../../src/manifest/locate.js';
import type { Location } from '../../../src/manifest/types.js';
import {
  databaseItems,
  databasePruneProblem,
  databaseSeen,
  type DatabaseSeen,
} from '../../../src/kinds/database/index.js';

/** The databases of the `index`th client in `text`, read as the manifest stage will. */
function read(text: string, options: { file?: string; index?: number; seen?: DatabaseSeen<Location> } = {}) {
  const file = options.file ?? 'm.yaml';
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const source = new SourceMap(file, doc, lineCounter);
  const data = doc.toJS() as { clients: { username: string; state?: string; databases?: unknown }[] };
  const index = options.index ?? 0;
  const client = data.clients[index]!;
  const list = findPath(source, ['clients', index, 'databases'])!;
  const result = databaseItems(client.databases, {
    client: `client "${client.username}"`,
    locate: (path, atKey) => locateIn(source, list, path, atKey),
    seen: options.seen ?? databaseSeen(),
    clientAbsent: client.state === 'absent',
  });
  return {
    ...result,
    lines: result.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`),
  };
}

const HEAD = 'version: 1\nclients:\n  - username: alice\n    databases:\n';

describe('a databases list', () => {
  it('gives each database with its user (default: the name) and the fields it manages', () => {
    const { databases, lines } = read(
      HEAD +
        '      - name: alice_wp\n' +
        '        user: wp_user\n' +
        '        remote_hosts: ["192.0.2.0/24", DB.Example.net, "2001:DB8::1"]\n' +
        '        description: WordPress\n' +
        '      - name: alice_shop\n' +
        '        remote_hosts: []\n' +
        '      - name: old_db\n' +
        '        state: absent\n',
    );
    expect(lines).toEqual([]);
    expect(databases).toEqual([
      {
        name: 'alice_wp',
        user: 'wp_user',
        userGiven: true,
        state: 'present',
        wants: { remote_hosts: ['192.0.2.0/24', '2001:db8::1', 'db.example.net'], description: 'WordPress' },
        loc: { file: 'm.yaml', line: 5, column: 15 },
      },
      expect.objectContaining({
        name: 'alice_shop',
        user: 'alice_shop',
        userGiven: false,
        wants: { remote_hosts: [] },
      }),
      expect.objectContaining({ name: 'old_db', state: 'absent', wants: {} }),
    ]);
  });

  it('leaves remote_hosts unmanaged when left out', () => {
    const { databases } = read(HEAD + '      - name: a\n');
    expect(databases[0]!.wants).toEqual({});
  });

  it('refuses, at file:line:column with the rule or what to write, what the panel would refuse', () => {
    const { databases, lines } = read(
      HEAD +
        '      - name: Alice-WP\n' +
        '      - name: a_very_long_database_name_that_is_over_32\n' +
        '      - name: b\n' +
        '        user: B-User\n' +
        '        remote_hosts: ["192.0.2.5/24", "%", localhost, 10.0.0.1, 10.0.0.1]\n' +
        '      - name: gone\n' +
        '        state: absent\n' +
        '        description: x\n',
    );
    expect(lines).toEqual([
      'm.yaml:5:15: error: "name" "Alice-WP" of database #1 of client "alice" is not a name the panel accepts: ' +
        'a database\'s name is lowercase letters a-z, digits and "_", 1 to 64 characters',
      'm.yaml:6:15: error: database "a_very_long_database_name_that_is_over_32" has no "user", so its user is its ' +
        'name, which the panel refuses as a user (a database user is lowercase letters a-z, digits and "_", 1 to 32 ' +
        'characters): give a "user"',
      'm.yaml:8:15: error: "user" "B-User" of database "b" is not a user the panel accepts: a database user is ' +
        'lowercase letters a-z, digits and "_", 1 to 32 characters',
      'm.yaml:9:24: error: remote host "192.0.2.5/24" of database "b" has bits set past its prefix: write the ' +
        "network's first address, 192.0.2.0/24",
      'm.yaml:9:40: error: remote host "%" of database "b" holds a wildcard ("%" or "*"): write an IP address ' +
        '(192.0.2.10), a network in CIDR form (192.0.2.0/24) or a host name (db.example.net); [] allows local ' +
        'connections only; a network covers many addresses',
      expect.stringContaining('m.yaml:9:45: error: remote host "localhost" of database "b" is not a remote host'),
      'm.yaml:9:66: error: remote host "10.0.0.1" of database "b" is listed twice in its remote_hosts: remove one',
      'm.yaml:12:9: error: database "gone" has state: absent: remove "description" (a database that is deleted has ' +
        'no other keys than "name" and "state"), or remove "state: absent" to keep the database and its data',
    ]);
    expect(databases.map((d) => d.name)).toEqual(['a_very_long_database_name_that_is_over_32', 'b', 'gone']);
    expect(databases[1]!.wants).toEqual({});
  });

  it('refuses a name or a user listed twice, across clients and parts through the shared seen', () => {
    const seen = databaseSeen<Location>();
    const first = read(HEAD + '      - name: shared\n      - name: other\n        user: wp\n', {
      file: 'a.yaml',
      seen,
    });
    expect(first.lines).toEqual([]);
    const second = read(
      HEAD +
        '      - name: shared\n      - name: third\n        user: wp\n      - name: wp\n      - name: other_gone\n',
      { file: 'b.yaml', seen },
    );
    expect(second.lines).toEqual([
      'b.yaml:5:15: error: database "shared" is listed twice (first at a.yaml:5, under client "alice"): ' +
        'a database name is unique on the whole panel; remove one',
      'b.yaml:7:15: error: the user "wp" of database "third" is already the user of database "other" (at a.yaml:7): ' +
        'a database user belongs to one database; give another "user"',
      'b.yaml:8:15: error: the user "wp" of database "wp" is already the user of database "other" (at a.yaml:7): ' +
        'a database user belongs to one database; give another "user"',
    ]);
  });

  it('lets a database marked absent free its user for another', () => {
    const { lines } = read(HEAD + '      - name: old\n        state: absent\n      - name: new\n        user: old\n');
    expect(lines).toEqual([]);
  });

  it('refuses databases under a client marked absent', () => {
    const { lines, databases } = read(
      'version: 1\nclients:\n  - username: alice\n    state: absent\n    databases:\n      - name: a\n',
    );
    expect(databases).toEqual([]);
    expect(lines).toEqual([
      'm.yaml:6:7: error: client "alice" has state: absent and "databases": a client that is deleted has no ' +
        'databases (they go with it, with their data); remove "databases", or the state',
    ]);
  });
});

describe('prune.databases', () => {
  it('is an error that says databases are deleted only by state: absent', () => {
    expect(databasePruneProblem({ file: 'm.yaml', line: 9, column: 3 })).toEqual({
      file: 'm.yaml',
      line: 9,
      column: 3,
      severity: 'error',
      message:
        'prune.databases is not accepted: a database is never deleted for not being listed, only by "state: absent" ' +
        'on its name (its data goes with it); remove prune.databases',
    });
  });
});
