/**
 * The database's record as the panel answers it: every plausible shape docs/panel-api.md allows
 * (v1 and v2 spellings, numbers as strings, remote_hosts as an array or as text, missing fields)
 * read into one LiveDatabase, and what it cannot read refused with an error naming the field.
 */
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../../src/errors.js';
import { DATABASE_RECORD, parseDatabaseRecord } from '../../../src/kinds/database/index.js';

const WHERE = 'GET https://panel.example/api/v2/databases';

/** The parse's error message, or a note that it parsed. */
function refusal(record: unknown): string {
  try {
    parseDatabaseRecord(record, WHERE);
    return 'parsed';
  } catch (error) {
    expect(error).toBeInstanceOf(ProvisionError);
    expect((error as ProvisionError).code).toBe('panel_contract');
    return (error as Error).message;
  }
}

describe('a database record', () => {
  it('reads the v1 shape whole, hosts in comparison form', () => {
    expect(
      parseDatabaseRecord(
        {
          id: 4,
          id_user: 3,
          database_name: 'alice_wp',
          database_username: 'alice_wp',
          description: 'WordPress',
          size: 1234,
          remote_hosts: ['DB.Example.net', '192.0.2.0/24', '2001:DB8:0:0::1'],
        },
        WHERE,
      ),
    ).toEqual({
      id: 4,
      idUser: 3,
      name: 'alice_wp',
      user: 'alice_wp',
      description: 'WordPress',
      remoteHosts: ['192.0.2.0/24', '2001:db8::1', 'db.example.net'],
      size: 1234,
    });
  });

  it('reads v2 names, numbers as strings, hosts as comma text or objects, and null as none or unknown', () => {
    expect(
      parseDatabaseRecord(
        {
          id: '4',
          user_id: '3',
          name: 'alice_wp',
          database_user: 'wp',
          size: '2048',
          remote_hosts: '10.0.0.1, 192.0.2.0/24',
        },
        WHERE,
      ),
    ).toEqual({
      id: 4,
      idUser: 3,
      name: 'alice_wp',
      user: 'wp',
      description: undefined,
      remoteHosts: ['10.0.0.1', '192.0.2.0/24'],
      size: 2048,
    });
    const read = parseDatabaseRecord(
      { id: 5, database_name: 'b', description: null, size: null, remote_hosts: [{ id: 1, host: '192.0.2.9' }] },
      WHERE,
    );
    expect(read).toMatchObject({ description: '', size: undefined, user: undefined, remoteHosts: ['192.0.2.9'] });
    expect(parseDatabaseRecord({ id: 6, database_name: 'c', remote_hosts: null }, WHERE).remoteHosts).toEqual([]);
    expect(parseDatabaseRecord({ id: 6, database_name: 'c' }, WHERE).remoteHosts).toBeUndefined();
  });

  it('keeps a host the manifest cannot write as text (a MySQL wildcard), never an error', () => {
    expect(
      parseDatabaseRecord({ id: 6, database_name: 'c', remote_hosts: ['%', ' 10.0.0.% '] }, WHERE).remoteHosts,
    ).toEqual(['%', '10.0.0.%']);
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(refusal([])).toBe(`${WHERE}: expected an object, got an array`);
    expect(refusal({ database_name: 'a' })).toContain('"id" must be a positive whole number, got nothing');
    expect(refusal({ id: 0, database_name: 'a' })).toContain('"id" must be a positive whole number');
    expect(refusal({ id: 1 })).toContain('"database_name" must be a non-empty string, got nothing');
    expect(refusal({ id: 1, database_name: '' })).toContain('"database_name" must be a non-empty string, got a string');
    expect(refusal({ id: 1, database_name: 'a', name: 'b' })).toContain('"database_name" and "name" disagree');
    expect(refusal({ id: 1, database_name: 'a', remote_hosts: 5 })).toContain('"remote_hosts" must be a list of hosts');
    expect(refusal({ id: 1, database_name: 'a', remote_hosts: ['x.example', 7] })).toContain(
      '"remote_hosts" item 2 must be a host, got 7',
    );
    expect(refusal({ id: 1, database_name: 'a', description: 3 })).toContain('"description" must be a string');
    expect(refusal({ id: 1, database_name: 'a', size: 'big' })).toContain('"size" must be a whole number of bytes');
    expect(
      refusal({ id: 1, database_name: 'a', remote_hosts: ['10.0.0.1'], remote_access_hosts: '10.0.0.2' }),
    ).toContain('"remote_hosts" and "remote_access_hosts" hold different hosts');
  });

  it('is read by id at /databases/{id}', () => {
    expect(DATABASE_RECORD.path(9)).toBe('/databases/9');
  });
});
