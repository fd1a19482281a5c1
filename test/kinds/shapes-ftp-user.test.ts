/**
 * The shapes a real panel's `/ftp-users` may answer (docs/panel-api.md, "Mailboxes, databases, FTP
 * users: what public code shows"), fed to the record reader and, over real HTTP, to the list read:
 * the list item a v2 dashboard reads, the v1 create body read back, a home written from the
 * server's root (`/home/users/alice/www/alice.example`) as well as from the client's home, an
 * empty home (unknown), names in any case, ids as strings; and what cannot be read, refused with a
 * panel_contract error naming the method, the path and the field.
 */
import { describe, expect, it } from 'vitest';
import { parseFtpUserRecord } from '../../src/kinds/ftp-user/index.js';
import { FTP_USER_READ } from '../../src/kinds/ftp-user/read.js';
import { listReader } from '../../src/panel/read.js';
import { client, contractRefusal, rejection } from '../helpers/panel.js';
import { jsonPanel } from '../helpers/raw-panel.js';

const WHERE = 'GET https://panel.example/api/v2/ftp-users';

/** The parse's error message; fails the test when it parses. */
const refusal = (record: unknown): string => contractRefusal(parseFtpUserRecord, record, WHERE);

/** The home read from `home_directory: value`. */
const home = (value: unknown) => parseFtpUserRecord({ id: 1, username: 'a', home_directory: value }, WHERE).home;

describe('an FTP user as a real panel answers it', () => {
  it('reads the list item a v2 dashboard reads (no id_user)', () => {
    expect(
      parseFtpUserRecord(
        { id: 21, username: 'alice_deploy', description: 'Deploys', home_directory: '/www/alice.example' },
        WHERE,
      ),
    ).toEqual({ id: 21, idUser: undefined, name: 'alice_deploy', description: 'Deploys', home: '/www/alice.example' });
  });

  it('reads the v1 create body read back, ids as strings, the name in any case', () => {
    expect(
      parseFtpUserRecord(
        {
          id: '21',
          id_user: '3',
          username: 'Alice_Deploy',
          description: null,
          home_directory: '/www/alice.example/',
          created_at: '2026-11-29T10:00:00+01:00',
        },
        WHERE,
      ),
    ).toEqual({ id: 21, idUser: 3, name: 'alice_deploy', description: '', home: '/www/alice.example' });
  });

  it("reads a home written from the server's root as the client's home sees it", () => {
    expect(home('/home/users/alice/www/alice.example')).toBe('/www/alice.example');
    expect(home('/home/users/alice/www/')).toBe('/www');
    expect(home('/home/alice/files/backup')).toBe('/files/backup');
    // The first www or files folder below the account's own: one inside it is part of the home.
    expect(home('/home/users/alice/files/www/old')).toBe('/files/www/old');
    // The account's own folder is never the root, whatever its name.
    expect(home('/home/users/www/www/site.example')).toBe('/www/site.example');
    expect(home('/home/users/files/files')).toBe('/files');
    expect(home('/home/www/files/backup')).toBe('/files/backup');
    // Written from the client's home, a home is read as it is.
    expect(home('www/alice.example')).toBe('/www/alice.example');
    expect(home('/www/home/users/x')).toBe('/www/home/users/x');
    // No www or files folder: as written, which no manifest's home is (an update, never a guess).
    expect(home('/home/users/alice')).toBe('/home/users/alice');
    expect(home('/srv/ftp/alice')).toBe('/srv/ftp/alice');
  });

  it('reads a home from both spellings that agree once each is read from the client home', () => {
    expect(
      parseFtpUserRecord(
        { id: 1, username: 'a', home_directory: '/www/a.example', path: '/home/users/alice/www/a.example' },
        WHERE,
      ).home,
    ).toBe('/www/a.example');
  });

  it('reads an empty or null home as not said (unknown, never a change)', () => {
    expect(home('')).toBeUndefined();
    expect(home('  ')).toBeUndefined();
    expect(home(null)).toBeUndefined();
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(refusal({ id: 1, username: 'a', home_directory: ['/www'] })).toBe(
      `${WHERE}: "home_directory" must be a path like /www/alice.example, got an array`,
    );
    expect(refusal({ id: 1, username: '' })).toContain('"username" must be a non-empty string, got a string');
    expect(refusal({ username: 'a' })).toContain('"id" must be a positive whole number, got nothing');
  });
});

describe("the FTP users' list read of a real panel's answer, over HTTP", () => {
  const ITEMS = [
    { id: 21, id_user: 3, username: 'alice_deploy', home_directory: '/home/users/alice/www/alice.example' },
    { id: '22', id_user: null, username: 'Bob_FTP', description: null, home_directory: '' },
  ];

  it.each([
    ['a bare array', ITEMS],
    ['a wrapped one', { data: ITEMS }],
  ])('reads %s', async (_, answer) => {
    const part = await FTP_USER_READ.list(listReader(client(await jsonPanel(answer))), { ftpUsers: true }, {});
    expect(part.records.map((u) => [u.id, u.idUser, u.name, u.home])).toEqual([
      [21, 3, 'alice_deploy', '/www/alice.example'],
      [22, undefined, 'bob_ftp', undefined],
    ]);
  });

  it('refuses an item it cannot read with the method, the path, the item and the field', async () => {
    const url = await jsonPanel([ITEMS[0], { id: 23, username: 'c', home_directory: 7 }]);
    const error = await rejection(FTP_USER_READ.list(listReader(client(url)), { ftpUsers: true }, {}));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toContain('GET /api/v2/ftp-users[1]: "home_directory" must be a path');
  });
});
