/**
 * The shapes a real panel's `/databases` may answer (docs/panel-api.md, "Mailboxes, databases, FTP
 * users: what public code shows"), fed to the record reader and, over real HTTP, to the list read:
 * the list item a v2 dashboard reads, the v1 create body read back, an owner the record does not
 * name (null or 0), `localhost` in `remote_hosts` (local connections, never a remote host), a PHP
 * array that JSON carries as an object keyed by digits, a wrapped list; and what cannot be read,
 * refused with a panel_contract error naming the method, the path and the field.
 */
import { describe, expect, it } from 'vitest';
import { parseDatabaseRecord } from '../../src/kinds/database/index.js';
import { DATABASE_READ } from '../../src/kinds/database/read.js';
import { listReader } from '../../src/panel/read.js';
import { client, contractRefusal, rejection } from '../helpers/panel.js';
import { jsonPanel } from '../helpers/raw-panel.js';

const WHERE = 'GET https://panel.example/api/v2/databases';

/** The parse's error message; fails the test when it parses. */
const refusal = (record: unknown): string => contractRefusal(parseDatabaseRecord, record, WHERE);

describe('a database as a real panel answers it', () => {
  it('reads the list item a v2 dashboard reads (no id_user, remote_hosts [])', () => {
    expect(
      parseDatabaseRecord(
        {
          id: 12,
          database_name: 'alice_wp',
          database_username: 'alice_wp',
          description: '',
          size: 4194304,
          remote_hosts: [],
        },
        WHERE,
      ),
    ).toEqual({
      id: 12,
      idUser: undefined,
      name: 'alice_wp',
      user: 'alice_wp',
      description: '',
      remoteHosts: [],
      size: 4194304,
    });
  });

  it('reads the v1 create body read back, its password left out and fields it does not know ignored', () => {
    expect(
      parseDatabaseRecord(
        {
          id: 12,
          id_user: 3,
          database_name: 'alice_shop',
          database_username: 'alice_shop',
          description: 'Database migrated',
          remote_hosts: ['192.0.2.10', '198.51.100.0/24'],
          created_at: '2026-11-29T10:00:00+01:00',
          charset: 'utf8mb4',
        },
        WHERE,
      ),
    ).toMatchObject({ idUser: 3, name: 'alice_shop', remoteHosts: ['192.0.2.10', '198.51.100.0/24'] });
  });

  it.each([null, 0, '0'])('reads an owner of %j as not said (unknown), not as an error', (owner) => {
    expect(parseDatabaseRecord({ id: 12, id_user: owner, database_name: 'a' }, WHERE).idUser).toBeUndefined();
  });

  it('reads localhost in remote_hosts as the local connections every user has: no remote host', () => {
    const read = (hosts: unknown) => parseDatabaseRecord({ id: 1, database_name: 'a', remote_hosts: hosts }, WHERE);
    expect(read(['localhost']).remoteHosts).toEqual([]);
    expect(read(['LOCALHOST', '192.0.2.10']).remoteHosts).toEqual(['192.0.2.10']);
    expect(read('localhost, 192.0.2.10').remoteHosts).toEqual(['192.0.2.10']);
    expect(read([{ id: 1, host: 'localhost' }]).remoteHosts).toEqual([]);
    // An address of the machine itself is one the manifest can write: read as it is.
    expect(read(['127.0.0.1']).remoteHosts).toEqual(['127.0.0.1']);
  });

  it('reads a PHP array that JSON carries as an object keyed by digits, in key order', () => {
    const read = (hosts: unknown) => parseDatabaseRecord({ id: 1, database_name: 'a', remote_hosts: hosts }, WHERE);
    expect(read({ '0': '192.0.2.10', '2': 'DB.Example.net' }).remoteHosts).toEqual(['192.0.2.10', 'db.example.net']);
    expect(read({ '10': { host: '192.0.2.9' }, '3': { host: '192.0.2.8' } }).remoteHosts).toEqual([
      '192.0.2.8',
      '192.0.2.9',
    ]);
    expect(read({}).remoteHosts).toEqual([]);
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(refusal({ id: 1, database_name: 'a', remote_hosts: { host: '192.0.2.1' } })).toBe(
      `${WHERE}: "remote_hosts" must be a list of hosts, got an object`,
    );
    expect(refusal({ id: 1, database_name: 'a', remote_hosts: { '0': 7 } })).toContain(
      '"remote_hosts" item 1 must be a host, got 7',
    );
    expect(refusal({ id: 1, id_user: -3, database_name: 'a' })).toContain('"id_user" must be a positive whole number');
    expect(refusal({ id: 1, database_username: 'a' })).toContain('"database_name" must be a non-empty string');
  });
});

describe("the databases' list read of a real panel's answer, over HTTP", () => {
  const ITEMS = [
    { id: '12', id_user: null, database_name: 'alice_wp', database_username: 'alice_wp', remote_hosts: ['localhost'] },
    { id: 13, id_user: 4, database_name: 'bob_shop', database_username: 'bob', remote_hosts: { '1': '192.0.2.10' } },
  ];

  it.each([
    ['a bare array', ITEMS],
    ['a wrapped one', { data: ITEMS }],
  ])('reads %s', async (_, answer) => {
    const reader = listReader(client(await jsonPanel(answer)));
    const part = await DATABASE_READ.list(reader, { databases: true }, {});
    expect(part.records.map((d) => [d.id, d.idUser, d.name, d.user, d.remoteHosts])).toEqual([
      [12, undefined, 'alice_wp', 'alice_wp', []],
      [13, 4, 'bob_shop', 'bob', ['192.0.2.10']],
    ]);
  });

  it('refuses an item it cannot read with the method, the path, the item and the field', async () => {
    const url = await jsonPanel([ITEMS[0], { id: 14, database_name: 'c', remote_hosts: 5 }]);
    const error = await rejection(DATABASE_READ.list(listReader(client(url)), { databases: true }, {}));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toContain('GET /api/v2/databases[1]: "remote_hosts" must be a list of hosts, got 5');
  });
});
