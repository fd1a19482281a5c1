/**
 * A client item's `ftp_users` list as the FTP user room reads it: real YAML parsed with positions
 * and located by the manifest's own SourceMap, so each problem is checked at its file:line:column.
 */
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { findPath, locateIn, SourceMap } from '../../../src/manifest/locate.js';
import type { Location } from '../../../src/manifest/types.js';
import { ftpUserItems, ftpUserSeen, type FtpUserSeen } from '../../../src/kinds/ftp-user/index.js';

/** The FTP users of the `index`th client in `text`, read as the manifest stage will. */
function read(
  text: string,
  options: { file?: string; index?: number; seen?: FtpUserSeen<Location>; clientAbsent?: boolean } = {},
) {
  const file = options.file ?? 'm.yaml';
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const source = new SourceMap(file, doc, lineCounter);
  const data = doc.toJS() as { clients: { username: string; ftp_users?: unknown }[] };
  const index = options.index ?? 0;
  const client = data.clients[index]!;
  const list = findPath(source, ['clients', index, 'ftp_users'])!;
  const result = ftpUserItems(client.ftp_users, {
    client: `client "${client.username}"`,
    usernames: new Set(data.clients.map((c) => c.username)),
    locate: (path, atKey) => locateIn(source, list, path, atKey),
    seen: options.seen ?? ftpUserSeen(),
    ...(options.clientAbsent === undefined ? {} : { clientAbsent: options.clientAbsent }),
  });
  return {
    ...result,
    lines: result.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`),
  };
}

const HEAD = 'version: 1\nclients:\n  - username: alice\n    ftp_users:\n';

describe('an ftp_users list', () => {
  it('gives each FTP user with the fields it manages and the domain its home names', () => {
    const { ftpUsers, lines } = read(
      HEAD +
        '      - name: alice_deploy\n' +
        '        home: /www/Alice.example/\n' +
        '        description: deploys\n' +
        '      - name: alice.backup\n' +
        '      - name: alice_old\n' +
        '        state: absent\n',
    );
    expect(lines).toEqual([]);
    expect(ftpUsers.map(({ loc, ...u }) => ({ ...u, line: loc.line }))).toEqual([
      {
        name: 'alice_deploy',
        state: 'present',
        wants: { home: '/www/Alice.example', description: 'deploys' },
        homeDomain: 'alice.example',
        line: 5,
      },
      { name: 'alice.backup', state: 'present', wants: {}, homeDomain: undefined, line: 8 },
      { name: 'alice_old', state: 'absent', wants: {}, homeDomain: undefined, line: 9 },
    ]);
  });

  it('refuses a name the panel would refuse, saying the rule', () => {
    const { ftpUsers, lines } = read(HEAD + '      - name: -deploy\n      - name: Alice_Deploy\n      - name: alice\n');
    expect(ftpUsers.map((u) => u.name)).toEqual(['alice']);
    expect(lines).toEqual([
      'm.yaml:5:15: error: "name" "-deploy" of FTP user #1 of client "alice" is not one the panel takes: ' +
        'an FTP user name is 1 to 64 characters: lowercase letters a-z, digits and . _ -, starting with a letter or a digit',
      'm.yaml:6:15: error: "name" "Alice_Deploy" of FTP user #2 of client "alice" has capital letters: write alice_deploy ' +
        '(an FTP user name is 1 to 64 characters: lowercase letters a-z, digits and . _ -, starting with a letter or a digit)',
      'm.yaml:7:15: error: FTP user "alice" of client "alice" has the name of a client the manifest lists: ' +
        "the panel's usernames and FTP user names are one namespace; choose another name",
    ]);
  });

  it("refuses a home outside the client's /www or /files, saying what to write", () => {
    const { ftpUsers, lines } = read(
      HEAD +
        '      - name: a1\n        home: /www/../../etc\n' +
        '      - name: a2\n        home: /etc\n' +
        '      - name: a3\n        home: "\\\\www\\\\x"\n',
    );
    expect(ftpUsers.map((u) => [u.name, u.wants])).toEqual([
      ['a1', {}],
      ['a2', {}],
      ['a3', {}],
    ]);
    expect(lines).toEqual([
      'm.yaml:6:15: error: home "/www/../../etc" of FTP user "a1" of client "alice" climbs out with "..": an FTP user ' +
        "stays inside its client's home; write a folder under /www or /files of the client's home, written from there, " +
        'like /www/alice.example or /files/backup',
      'm.yaml:8:15: error: home "/etc" of FTP user "a2" of client "alice" is not under /www or /files of the client\'s ' +
        "home (a path is written from the client's home, not from the server's root): write a folder under /www or " +
        "/files of the client's home, written from there, like /www/alice.example or /files/backup",
      'm.yaml:10:15: error: home "\\\\www\\\\x" of FTP user "a3" of client "alice" holds a backslash: folders are ' +
        'separated by "/" (write a folder under /www or /files of the client\'s home, written from there, like ' +
        '/www/alice.example or /files/backup)',
    ]);
  });

  it('refuses a name listed twice, across clients and parts through the shared seen', () => {
    const seen = ftpUserSeen<Location>();
    const text =
      'version: 1\nclients:\n  - username: alice\n    ftp_users:\n      - name: deploy\n' +
      '  - username: bob\n    ftp_users:\n      - name: deploy\n        state: absent\n';
    expect(read(text, { seen }).lines).toEqual([]);
    expect(read(text, { seen, index: 1 }).lines).toEqual([
      'm.yaml:8:15: error: FTP user "deploy" of client "bob" is listed twice (first under client "alice" at line 5): ' +
        'an FTP user name is unique on the panel; remove one',
    ]);
    expect(read(text, { seen, index: 1, file: 'b.yaml' }).lines[0]).toContain(
      '(first under client "alice" at m.yaml:5)',
    );
  });

  it('refuses other keys on an FTP user marked absent, and a list on a client marked absent', () => {
    const { lines } = read(HEAD + '      - name: old\n        state: absent\n        home: /www\n');
    expect(lines).toEqual([
      'm.yaml:7:9: error: FTP user "old" of client "alice" has state: absent: remove "home" (an FTP user that is ' +
        'deleted has no other keys than "name" and "state"), or remove "state: absent" to keep the FTP user',
    ]);
    const absent = read(HEAD + '      - name: old\n', { clientAbsent: true });
    expect(absent.ftpUsers).toEqual([]);
    expect(absent.lines).toEqual([
      'm.yaml:5:7: error: client "alice" has state: absent and "ftp_users": a client that is deleted has no FTP users ' +
        '(they go with it); remove "ftp_users", or the state',
    ]);
  });
});
