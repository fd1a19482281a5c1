/**
 * The domain's room: its changes and the requests they become, its phrases and its written
 * form. The stages' own tests (test/plan, test/render, test/export) pin what they make of it.
 */
import { describe, expect, it } from 'vitest';
import {
  createDomain,
  deleteDomain,
  domainForm,
  domainName,
  domainOrder,
  domainRequest,
  domainSubject,
  systemFlag,
} from '../../src/kinds/domain.js';

describe('the domain room', () => {
  it("reads a record's name in ASCII, and says when the record does not tell a system domain", () => {
    expect(domainName('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(domainName('not a name')).toBe('not a name');
    expect([undefined, null, '', true, '0'].map(systemFlag)).toEqual([undefined, undefined, undefined, true, false]);
    expect(systemFlag('yes')).toEqual({ problem: 'a boolean (or 0 or 1)' });
  });

  it('creates after the client and the parent created in the same run; the id_user is known after apply', () => {
    const create = createDomain('shop.alice.example', 'alice', null, 'alice.example');
    expect(create.dependsOn).toEqual(['client:alice', 'domain:alice.example']);
    expect(domainRequest(create)).toEqual({
      method: 'POST',
      path: '/domains',
      body: { domain: 'shop.alice.example', id_user: null },
    });
    expect(domainRequest(create, new Map([['alice', 12]])).body).toEqual({ domain: 'shop.alice.example', id_user: 12 });
    expect(createDomain('alice.example', 'alice', 7).dependsOn).toEqual([]);
  });

  it('deletes by id, and names itself with its Unicode form', () => {
    const gone = deleteDomain(
      { id: 70, name: 'xn--bcher-kva.example', idUser: 7, isSystem: false },
      { id: 7, username: 'alice' },
      'pruned',
    );
    expect(domainRequest(gone)).toEqual({ method: 'DELETE', path: '/domains/70', body: null });
    expect(domainSubject(gone)).toBe('domain "xn--bcher-kva.example" (bücher.example) of client "alice"');
  });

  it('is written in Unicode, parents before their subdomains', () => {
    expect(domainForm('xn--bcher-kva.example')).toEqual({ name: 'xn--bcher-kva.example', text: 'bücher.example' });
    expect(['shop.alice.example', 'bob.example', 'alice.example'].sort(domainOrder)).toEqual([
      'alice.example',
      'shop.alice.example',
      'bob.example',
    ]);
  });
});
