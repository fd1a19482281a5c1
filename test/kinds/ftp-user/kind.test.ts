/**
 * The FTP user's descriptor (src/kinds/ftp-user/kind.ts), member by member, as the stages
 * ask it: its requests, the plan document both ways, its
 * phrases, its weight and order (after the domain its home names), its secret (a panel that names
 * the user itself), and the facts a saved plan's fingerprint checks.
 */
import { describe, expect, it } from 'vitest';
import { readsForSavedPlan } from '../../../src/plan/reads.js';
import { changeId } from '../../../src/kinds/common.js';
import { factKey } from '../../../src/kinds/facts.js';
import { FTP_USER_KIND } from '../../../src/kinds/ftp-user/kind.js';
import {
  createFtpUser,
  deleteFtpUser,
  type FtpUserChange,
  type FtpUserChangeJson,
  type LiveFtpUser,
  updateFtpUser,
} from '../../../src/kinds/ftp-user/index.js';
import type { FtpUserFactIndex } from '../../../src/kinds/ftp-user/facts.js';
import { ftpUsersIndex } from '../../../src/kinds/ftp-user/read.js';

const K = FTP_USER_KIND;

const CREATE = createFtpUser(
  'alice_deploy',
  { home: '/www/alice.example', description: 'deploys' },
  { client: 'alice', clientId: 3, dependsOn: [changeId('domain', 'alice.example')] },
);
const CREATE_NEW_CLIENT = createFtpUser(
  'alice_files',
  {},
  { client: 'alice', clientId: null, dependsOn: [changeId('client', 'alice')] },
);
const UPDATE = updateFtpUser('alice_deploy', 'alice', 4, [
  { field: 'home', before: '/www', after: '/www/alice.example' },
]);
const DELETE = deleteFtpUser('alice_old', 'alice', 7, 'not in the manifest (prune.ftp_users)');
const ALL: FtpUserChange[] = [CREATE, CREATE_NEW_CLIENT, UPDATE, DELETE];

const never = (): undefined => undefined;

/** A change through the plan document and back, as plan/saved-changes.ts writes and reads it. */
function roundTrip(change: FtpUserChange): FtpUserChange {
  const item = JSON.parse(
    JSON.stringify({ action: change.action, ...K.toJson(change), request: K.request(change) }),
  ) as FtpUserChangeJson;
  return K.fromJson(item, { name: change.name, reason: change.reason, dependsOn: change.dependsOn });
}

describe('the FTP user descriptor: identity, order, weight', () => {
  it('is named by the kind, after clients and domains, at its client entry', () => {
    expect(K.name).toBe('ftp_user');
    expect(K.noun).toEqual({ one: 'FTP user', many: 'FTP users' });
    expect(K.order).toEqual({ after: ['client', 'domain'], at: 'client' });
    expect(K.waitsForCreatesBelow).toBe(false);
    // Nothing of its own: a saved plan reads its list again for the section (plan/reads.ts).
    expect(K.readsAgain(CREATE)).toEqual({});
    const saved = { changes: [CREATE], conflicts: [], unknowns: [], unmanaged: { clients: [], domains: [] } };
    expect(readsForSavedPlan(saved as never)).toMatchObject({ ftpUsers: true });
  });

  it('weighs a create 1 created, a delete 1 destroyed, an update nothing', () => {
    expect(K.weight(CREATE)).toEqual({ creates: 1, deletes: 0 });
    expect(K.weight(UPDATE)).toEqual({ creates: 0, deletes: 0 });
    expect(K.weight(DELETE)).toEqual({ creates: 0, deletes: 1 });
  });
});

describe('the FTP user descriptor: requests and secret', () => {
  it('a create POSTs its client, name, home and description, never a password', () => {
    expect(K.request(CREATE)).toEqual({
      method: 'POST',
      path: '/ftp-users',
      body: { id_user: 3, username: 'alice_deploy', home_directory: '/www/alice.example', description: 'deploys' },
    });
    expect(K.request(CREATE_NEW_CLIENT).body).toEqual({
      id_user: null,
      username: 'alice_files',
      home_directory: '/www',
    });
    expect(K.request(CREATE_NEW_CLIENT, new Map([[changeId('client', 'alice'), 12]])).body?.id_user).toBe(12);
  });

  it('an update PUTs only the fields that differ, a delete is a DELETE by id', () => {
    expect(K.request(UPDATE)).toEqual({
      method: 'PUT',
      path: '/ftp-users/4',
      body: { home_directory: '/www/alice.example' },
    });
    expect(K.request(DELETE)).toEqual({ method: 'DELETE', path: '/ftp-users/7', body: null });
  });

  it('its secret: the engine makes the password, a reset PUTs one, the panel may name the user', () => {
    const secret = K.secret!;
    expect(secret.journalKind).toBe('ftp_user');
    expect(secret.panelMakesOne).toBe(false);
    expect(secret.withPassword(K.request(CREATE), 'pw-123456789').body).toMatchObject({
      username: 'alice_deploy',
      password: 'pw-123456789',
    });
    expect(secret.resetRequest(4, 'pw-123456789')).toEqual({
      method: 'PUT',
      path: '/ftp-users/4',
      body: { password: 'pw-123456789' },
    });
    expect(secret.namePattern.test('alice.deploy-1')).toBe(true);
    expect(secret.namePattern.test('-alice')).toBe(false);
    const naming = secret.panelNaming!;
    expect(naming.renamed('alice_deploy', 'alice_deploy')).toBeUndefined();
    const renamed = naming.renamed('alice_deploy', 'alice_ftp1')!;
    expect(renamed.message).toBe(
      'FTP user "alice_deploy" was created by the panel as "alice_ftp1": the panel names FTP users itself; ' +
        'its password is recorded under "alice_ftp1"',
    );
    expect(renamed.hint).toContain('custom FTP usernames');
  });
});

describe('the FTP user descriptor: the plan document', () => {
  it.each(ALL.map((c) => [`${c.action} ${c.name}`, c] as const))('%s reads back as written', (_, change) => {
    expect(roundTrip(change)).toEqual(change);
  });

  it('a change read back whose request was edited is refused; one as written is not', () => {
    const item = { action: 'update', ...K.toJson(UPDATE), request: K.request(UPDATE) } as FtpUserChangeJson;
    expect(K.problems(UPDATE, item, 'changes[0]', never)).toEqual([]);
    const edited = { ...item, request: { ...K.request(UPDATE), body: { home_directory: '/files' } } };
    expect(K.problems(UPDATE, edited, 'changes[0]', never)).toEqual([
      'changes[0].request: is not the request the change makes: the file was edited',
    ]);
  });

  it("a create for a client made in the same run must depend on the client's create", () => {
    const item = { action: 'create', ...K.toJson(CREATE_NEW_CLIENT) } as FtpUserChangeJson;
    const withRequest = { ...item, request: K.request(CREATE_NEW_CLIENT) };
    expect(K.problems(CREATE_NEW_CLIENT, withRequest, 'changes[1]', never)).toEqual([]);
    expect(K.problems({ ...CREATE_NEW_CLIENT, dependsOn: [] }, withRequest, 'changes[1]', never)).toEqual([
      'changes[1].client_id: null, yet the change does not depend on "client:alice"',
    ]);
  });
});

describe('the FTP user descriptor: phrases', () => {
  it('says each change in people words', () => {
    expect(K.subject(CREATE)).toBe('FTP user "alice_deploy" of client "alice"');
    expect(K.lineSubject(CREATE)).toBe('ftp_user "alice_deploy"');
    expect(K.clientOf(DELETE)).toBe('alice');
    expect(K.createdParts(CREATE)).toEqual(['home /www/alice.example', 'description "deploys"']);
    expect(K.createdParts(CREATE_NEW_CLIENT)).toEqual(['home /www']);
    expect(K.updatedParts(UPDATE)).toEqual(['home: /www -> /www/alice.example']);
    expect(K.goesWith(DELETE)).toBe('');
    expect(K.deleteTakes).toBe('an FTP user alone (the files in its home stay)');
    expect(K.createsRow).toBe('some');
  });

  it("names another client's FTP user in a conflict only when others may be named", () => {
    const conflict = { ftp_user: 'alice_deploy', client: 'alice', owner: 'bob' };
    expect(K.conflictLine?.(conflict, true)).toContain('belongs to client "bob"');
    expect(K.conflictLine?.(conflict, false)).toContain('belongs to another client');
    expect(K.conflictLine?.(conflict, false)).not.toContain('bob');
    expect(K.conflictLine?.({ database: 'x', client: 'alice', reason: 'owner', owner: 'bob' }, true)).toBeUndefined();
  });
});

describe('the FTP user descriptor: facts', () => {
  const LIVE: LiveFtpUser = { id: 4, idUser: 3, name: 'alice_deploy', description: '', home: '/www' };

  function index(users: readonly LiveFtpUser[], clients: Record<string, number> = { alice: 3 }): FtpUserFactIndex {
    const byName = new Map(Object.entries(clients).map(([username, id]) => [username, { id, username }]));
    return { clients: byName, indexOf: () => ftpUsersIndex(users) };
  }

  function holds(change: FtpUserChange, live: FtpUserFactIndex): Record<string, boolean> {
    return Object.fromEntries(K.facts(change).map((f) => [factKey(f), f.actual(live) === f.expected]));
  }

  it('a create holds while the name is free and its client stays', () => {
    expect(holds(CREATE, index([]))).toEqual({ 'ftp_user:alice_deploy': true, 'owner:alice': true });
    expect(holds(CREATE, index([LIVE]))['ftp_user:alice_deploy']).toBe(false);
    expect(holds(CREATE_NEW_CLIENT, index([]))).toEqual({ 'ftp_user:alice_files': true });
  });

  it("an update holds while the user and each field's value before stay", () => {
    expect(holds(UPDATE, index([LIVE]))).toEqual({
      'ftp_user:alice_deploy': true,
      'ftp-user-field:alice_deploy:home': true,
    });
    expect(holds(UPDATE, index([{ ...LIVE, home: '/www/' }]))['ftp-user-field:alice_deploy:home']).toBe(true);
    expect(holds(UPDATE, index([{ ...LIVE, home: '/files' }]))['ftp-user-field:alice_deploy:home']).toBe(false);
  });

  it('a delete holds while the user keeps its id', () => {
    const old: LiveFtpUser = { ...LIVE, id: 7, name: 'alice_old' };
    expect(holds(DELETE, index([old]))).toEqual({ 'ftp_user:alice_old': true });
    expect(holds(DELETE, index([]))).toEqual({ 'ftp_user:alice_old': false });
  });
});
