/**
 * The FTP user's field table, diff rule, prune, conflicts, changes and phrases: what differs
 * between the manifest and the panel (a home in its normal form, a field the record lacks
 * unknown), the requests the changes become, how the plan's text says them, and the failure of a
 * create the panel named itself.
 */
import { describe, expect, it } from 'vitest';
import {
  diffFtpUser,
  FTP_USER_FIELD_NAMES,
  ftpUserConflictText,
  ftpUserFieldChanges,
  type FtpUserDiffView,
  ftpUserLine,
  ftpUserRequest,
  ftpUserSubject,
  isFtpUserConflict,
  type LiveFtpUser,
  panelNamedFtpUser,
  pruneFtpUsers,
  type WantedFtpUser,
} from '../../../src/kinds/ftp-user/index.js';

const LIVE: LiveFtpUser = { id: 4, idUser: 3, name: 'alice_deploy', description: 'deploys', home: '/www' };

const VIEW: FtpUserDiffView = {
  client: 'alice',
  clientId: 3,
  domainCreated: (domain) => domain === 'new.example',
  ownerName: (id) => (id === 9 ? 'bob' : `#${id}`),
};

function want(name: string, wants: WantedFtpUser['wants'] = {}, homeDomain?: string): WantedFtpUser {
  return { name, state: 'present', wants, homeDomain };
}

describe("an FTP user's fields", () => {
  it("has the manifest's names, in order", () => {
    expect(FTP_USER_FIELD_NAMES).toEqual(['home', 'description']);
  });

  it('compares homes in their normal form, and says which fields the record lacks', () => {
    expect(ftpUserFieldChanges({ home: '/www/', description: 'deploys' }, LIVE)).toEqual([]);
    expect(ftpUserFieldChanges({ home: '/www/a.example' }, LIVE)).toEqual([
      { field: 'home', before: '/www', after: '/www/a.example' },
    ]);
    const unknowns: string[] = [];
    const bare: LiveFtpUser = { id: 4, idUser: 3, name: 'x', description: undefined, home: undefined };
    expect(ftpUserFieldChanges({ home: '/www', description: '' }, bare, (f) => unknowns.push(f))).toEqual([]);
    expect(unknowns).toEqual(['home', 'description']);
  });
});

describe("the FTP user's diff rule", () => {
  it('creates one the panel lacks, with /www by default, after its client and its home domain', () => {
    const plain = diffFtpUser(want('deploy'), undefined, { ...VIEW, clientId: null });
    expect(plain).toMatchObject({
      action: 'change',
      change: { id: 'ftp_user:deploy', action: 'create', clientId: null, wants: { home: '/www' } },
    });
    expect(plain.action === 'change' && plain.change?.dependsOn).toEqual(['client:alice']);
    const inDomain = diffFtpUser(want('deploy', { home: '/www/new.example' }, 'new.example'), undefined, VIEW);
    expect(inDomain.action === 'change' && inDomain.change?.dependsOn).toEqual(['domain:new.example']);
    const old = diffFtpUser(want('deploy', { home: '/www/old.example' }, 'old.example'), undefined, VIEW);
    expect(old.action === 'change' && old.change?.dependsOn).toEqual([]);
    if (inDomain.action !== 'change' || inDomain.change === undefined) throw new Error('no change');
    expect(ftpUserRequest(inDomain.change)).toEqual({
      method: 'POST',
      path: '/ftp-users',
      body: { id_user: 3, username: 'deploy', home_directory: '/www/new.example' },
    });
    expect(ftpUserLine(inDomain.change)).toBe('+ ftp_user "deploy" (home /www/new.example)');
  });

  it("takes a new client's id from the ids apply learnt", () => {
    const made = diffFtpUser(want('deploy', { description: 'd' }), undefined, { ...VIEW, clientId: null });
    if (made.action !== 'change' || made.change === undefined) throw new Error('no change');
    expect(ftpUserRequest(made.change, new Map([['client:alice', 12]])).body).toEqual({
      id_user: 12,
      username: 'deploy',
      home_directory: '/www',
      description: 'd',
    });
    expect(ftpUserRequest(made.change).body).toMatchObject({ id_user: null });
    expect(ftpUserLine(made.change)).toBe('+ ftp_user "deploy" (home /www, description "d")');
  });

  it('updates only the fields that differ', () => {
    const decision = diffFtpUser(want('alice_deploy', { home: '/files/x/', description: 'deploys' }), LIVE, VIEW);
    if (decision.action !== 'change' || decision.change === undefined) throw new Error('no change');
    expect(ftpUserRequest(decision.change)).toEqual({
      method: 'PUT',
      path: '/ftp-users/4',
      body: { home_directory: '/files/x' },
    });
    expect(ftpUserLine(decision.change)).toBe('~ ftp_user "alice_deploy": home: /www -> /files/x');
    expect(diffFtpUser(want('alice_deploy', { home: '/www/' }), LIVE, VIEW)).toEqual({
      action: 'change',
      change: undefined,
      unknowns: [],
    });
  });

  it('deletes one marked absent that the panel has', () => {
    const decision = diffFtpUser({ ...want('alice_deploy'), state: 'absent' }, LIVE, VIEW);
    if (decision.action !== 'change' || decision.change === undefined) throw new Error('no change');
    expect(ftpUserRequest(decision.change)).toEqual({ method: 'DELETE', path: '/ftp-users/4', body: null });
    expect(ftpUserLine(decision.change)).toBe('- ftp_user "alice_deploy"');
    expect(ftpUserSubject(decision.change)).toBe('FTP user "alice_deploy" of client "alice"');
    expect(diffFtpUser({ ...want('gone'), state: 'absent' }, undefined, VIEW)).toMatchObject({ change: undefined });
  });

  it('is a conflict naming the owner when another client holds the name, absent or not', () => {
    const bobs = { ...LIVE, idUser: 9 };
    for (const state of ['present', 'absent'] as const) {
      const decision = diffFtpUser({ ...want('alice_deploy'), state }, bobs, VIEW);
      expect(decision).toEqual({
        action: 'conflict',
        conflict: { ftp_user: 'alice_deploy', client: 'alice', owner: 'bob' },
      });
    }
    const conflict = { ftp_user: 'alice_deploy', client: 'alice', owner: 'bob' };
    expect(isFtpUserConflict(conflict)).toBe(true);
    expect(isFtpUserConflict({ domain: 'x', client: 'a', owner: 'b' })).toBe(false);
    expect(ftpUserConflictText(conflict)).toBe(
      'FTP user "alice_deploy" is listed under client "alice" but belongs to client "bob" on the panel: ' +
        'an FTP user name is unique on the panel; choose another name, or move the entry under client "bob"',
    );
    expect(ftpUserConflictText(conflict, false)).not.toContain('bob');
    expect(diffFtpUser(want('alice_deploy'), LIVE, { ...VIEW, clientId: null })).toMatchObject({
      conflict: { owner: '#3' },
    });
    const unsaid = diffFtpUser(want('alice_deploy'), { ...LIVE, idUser: undefined }, VIEW);
    expect(unsaid).toEqual({ action: 'conflict', conflict: { ftp_user: 'alice_deploy', client: 'alice' } });
    if (unsaid.action === 'conflict')
      expect(ftpUserConflictText(unsaid.conflict)).toContain('its record does not say which client owns it');
  });
});

describe('prune.ftp_users', () => {
  it("deletes a listed client's unlisted FTP users, sorted, never a keep match", () => {
    const live: LiveFtpUser[] = [
      { ...LIVE, id: 5, name: 'zed' },
      { ...LIVE, id: 6, name: 'legacy_ftp' },
      { ...LIVE, id: 7, name: 'alpha' },
      LIVE,
    ];
    const deletes = pruneFtpUsers(live, new Set(['alice_deploy']), (n) => n.startsWith('legacy'), 'alice');
    expect(deletes.map((d) => [d.name, d.ftpUserId, d.reason])).toEqual([
      ['alpha', 7, 'not in the manifest (prune.ftp_users)'],
      ['zed', 5, 'not in the manifest (prune.ftp_users)'],
    ]);
  });
});

describe('an FTP user the panel named itself', () => {
  it('fails naming both, with the hint to turn on custom FTP usernames', () => {
    expect(panelNamedFtpUser('alice_deploy', 'alice_deploy')).toBeUndefined();
    expect(panelNamedFtpUser('alice_deploy', 'Alice_Deploy')).toBeUndefined();
    const failure = panelNamedFtpUser('alice_deploy', 'c3ftp1');
    expect(failure?.message).toBe(
      'FTP user "alice_deploy" was created by the panel as "c3ftp1": the panel names FTP users itself; ' +
        'its password is recorded under "c3ftp1"',
    );
    expect(failure?.hint).toContain('turn on "custom FTP usernames"');
    expect(failure?.hint).toContain('"c3ftp1"');
  });
});
