/**
 * An FTP user's change in the plan document (both ways, checked against the published schemas,
 * which the room's schema.json fragment is composed into), its secret parts, and its export entry.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  createFtpUser,
  deleteFtpUser,
  type FtpUserChange,
  type FtpUserChangeJson,
  ftpUserEntry,
  ftpUserFromJson,
  ftpUserProblems,
  ftpUserRequest,
  ftpUserResetRequest,
  ftpUserSecretName,
  ftpUserToJson,
  ftpUserWithPassword,
  updateFtpUser,
} from '../../../src/kinds/ftp-user/index.js';
import { FTP_USER_READ } from '../../../src/kinds/ftp-user/read.js';

/** The published schemas (schemas/*.schema.json), by document. */
function published(): Map<string, unknown> {
  return new Map(
    ['manifest', 'plan', 'snapshot'].map((document) => [
      document,
      JSON.parse(readFileSync(new URL(`../../../schemas/${document}.schema.json`, import.meta.url), 'utf8')) as unknown,
    ]),
  );
}

const CHANGES: FtpUserChange[] = [
  createFtpUser(
    'deploy',
    { home: '/www/a.example', description: 'd' },
    { client: 'alice', clientId: null, dependsOn: ['client:alice'] },
  ),
  updateFtpUser('deploy', 'alice', 4, [{ field: 'home', before: '/www', after: '/files/x' }]),
  deleteFtpUser('old', 'alice', 5, 'state: absent in the manifest'),
];

/** A change as the plan document writes it. */
function item(change: FtpUserChange): Record<string, unknown> {
  return {
    id: change.id,
    action: change.action,
    type: change.type,
    name: change.name,
    reason: change.reason,
    depends_on: change.dependsOn,
    request: ftpUserRequest(change),
    ...ftpUserToJson(change),
  };
}

describe("an FTP user's change in the plan document", () => {
  const schemas = published();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const plan = schemas.get('plan') as { $defs: Record<string, unknown> };
  const validChange = ajv.compile({ $defs: plan.$defs, $ref: '#/$defs/change' });

  it('is written as the schema says, read back the same, its request checked', () => {
    for (const change of CHANGES) {
      const json = item(change);
      expect(validChange(json), JSON.stringify(validChange.errors)).toBe(true);
      const back = ftpUserFromJson(json as unknown as FtpUserChangeJson, {
        name: change.name,
        reason: change.reason,
        dependsOn: change.dependsOn,
      });
      expect(back).toEqual(change);
      expect(ftpUserProblems(back, json as unknown as FtpUserChangeJson, 'changes[0]')).toEqual([]);
    }
    const edited = { ...item(CHANGES[1]!), fields: [{ field: 'home', before: '/www', after: '/files/y' }] };
    const back = ftpUserFromJson(edited as unknown as FtpUserChangeJson, { name: 'deploy', reason: '', dependsOn: [] });
    expect(ftpUserProblems(back, edited as unknown as FtpUserChangeJson, 'changes[1]')).toEqual([
      'changes[1].request: is not the request the change makes: the file was edited',
    ]);
    expect(validChange({ ...item(CHANGES[0]!), values: { home: '/etc' } })).toBe(false);
    expect(validChange({ ...item(CHANGES[2]!), name: 'Bad Name' })).toBe(false);
  });

  it('gives the manifest ftp_users under a client and prune.ftp_users, and the plan its conflict', () => {
    const valid = ajv.compile(schemas.get('manifest') as object);
    const manifest = {
      version: 1,
      clients: [
        {
          username: 'alice',
          ftp_users: [
            { name: 'alice_deploy', home: '/www/alice.example', description: 'deploys' },
            { name: 'old', state: 'absent' },
          ],
        },
      ],
      prune: { ftp_users: true },
    };
    expect(valid(manifest), JSON.stringify(valid.errors)).toBe(true);
    const bad = structuredClone(manifest);
    (bad.clients[0]!.ftp_users[0] as Record<string, unknown>).password = 'secret';
    expect(valid(bad)).toBe(false);
    const validConflict = ajv.compile({
      $defs: plan.$defs,
      ...(schemas.get('plan') as { properties: { conflicts: object } }).properties.conflicts,
    });
    expect(
      validConflict([
        { ftp_user: 'deploy', client: 'alice', owner: 'bob' },
        { ftp_user: 'd', client: 'a' },
      ]),
    ).toBe(true);
  });
});

describe("the FTP users' part of a snapshot", () => {
  it('is what their read writes, optional (a read without them has none)', () => {
    const snapshot = published().get('snapshot') as { properties: Record<string, object>; required: unknown[] };
    expect(snapshot.required).not.toContain('ftp_users');
    const valid = new Ajv2020({ strict: false, allErrors: true }).compile(snapshot.properties.ftp_users!);
    const part = {
      read: true,
      records: [
        { id: 4, idUser: 3, name: 'alice_deploy', description: 'd', home: '/www/alice.example' },
        { id: 5, idUser: undefined, name: 'old', description: undefined, home: undefined },
      ],
    };
    const written = JSON.parse(JSON.stringify(FTP_USER_READ.snapshot.write(part))) as { ftp_users: unknown[] };
    expect(valid(written.ftp_users), JSON.stringify(valid.errors)).toBe(true);
    expect(valid([{ username: 'x' }])).toBe(false);
  });
});

describe("an FTP user's secret parts", () => {
  it('adds the password only as it is sent, resets by PUT, names any case', () => {
    const request = ftpUserRequest(CHANGES[0]!);
    expect(JSON.stringify(request)).not.toContain('password');
    expect(ftpUserWithPassword(request, 'pw-123456').body).toMatchObject({ username: 'deploy', password: 'pw-123456' });
    expect(ftpUserResetRequest(4, 'pw')).toEqual({ method: 'PUT', path: '/ftp-users/4', body: { password: 'pw' } });
    expect(ftpUserSecretName(' Alice_Deploy ')).toEqual({ name: 'alice_deploy' });
    const refused = ftpUserSecretName('a b');
    expect('problem' in refused && refused.problem).toMatch(/^is not an FTP user name: /);
  });
});

describe("an FTP user's export entry", () => {
  it('writes name, a home other than /www, a description', () => {
    expect(ftpUserEntry({ id: 1, idUser: 3, name: 'deploy', home: '/www', description: '' })).toEqual({
      entry: { name: 'deploy' },
      left: [],
    });
    expect(ftpUserEntry({ id: 1, idUser: 3, name: 'deploy', home: '/files/x', description: 'd' })).toEqual({
      entry: { name: 'deploy', home: '/files/x', description: 'd' },
      left: [],
    });
    expect(ftpUserEntry({ id: 1, idUser: 3, name: 'deploy', home: '/etc', description: undefined }).left).toEqual([
      "its home is not under /www or /files of its client's home: home left out",
    ]);
    expect(ftpUserEntry({ id: 1, idUser: 3, name: 'a b', home: '/www', description: undefined }).entry).toBeUndefined();
  });
});
