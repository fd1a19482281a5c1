/**
 * The domain's room: its manifest keys, its changes and the requests they become, its phrases
 * and its written form. The stages' own tests (test/manifest, test/plan, test/render,
 * test/export) pin what they make of it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECTION_KINDS } from '../../src/kinds/index.js';
import {
  createDomain,
  DOMAIN_KEYS,
  domainItem,
  domainItemName,
  listedAgain,
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
    expect(domainRequest(create, new Map([['client:alice', 12]])).body).toEqual({
      domain: 'shop.alice.example',
      id_user: 12,
    });
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

describe("the domain room's manifest keys", () => {
  it('reads a string as a present domain, and a mapping by its name and state', () => {
    expect(domainItem('a.example')).toEqual({ input: 'a.example', state: 'present', nameKey: undefined });
    expect(domainItem({ name: 'a.example' })).toEqual({ input: 'a.example', state: 'present', nameKey: 'name' });
    expect(domainItem({ name: 'a.example', state: 'absent' })).toMatchObject({ state: 'absent' });
    expect([7, null, {}, { name: 3 }, ['a.example']].map(domainItem)).toEqual(Array(5).fill(undefined));
  });

  it('normalises a name, or says what is wrong with it', () => {
    expect(domainItemName('Bücher.Example', 'client "alice"')).toEqual({ name: 'xn--bcher-kva.example' });
    expect(domainItemName('a.example.', 'client "alice"')).toEqual({
      severity: 'error',
      message: 'domain "a.example." in client "alice" ends with a dot: write it without the trailing dot',
    });
  });

  it('names the first listing of a name listed again, and its spelling when it differs', () => {
    const first = { input: 'A.example', client: 'client "alice"', at: 'line 4' };
    expect(listedAgain('a.example', 'client "alice"', first, true)).toBe(
      'domain "a.example" (same as "A.example") is listed twice in client "alice" (first at line 4): remove one',
    );
    expect(listedAgain('A.example', 'client "bob"', first, false)).toBe(
      'domain "A.example" is already listed under client "alice" at line 4: a domain belongs to one client only',
    );
  });

  it("has exactly the manifest schema's keys of a domain in object form, then its sections'", () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/manifest.schema.json', import.meta.url), 'utf8')) as {
      $defs: { client: { properties: { domains: { items: { anyOf: { properties?: Record<string, unknown> }[] } } } } };
    };
    const entry = schema.$defs.client.properties.domains.items.anyOf.find((branch) => branch.properties !== undefined);
    const sections = SECTION_KINDS.filter((kind) => kind.section.parent === 'domain').map((kind) => kind.section.key);
    expect(sections).toEqual(['mailboxes']);
    expect([...DOMAIN_KEYS.map((row) => row.key), ...sections]).toEqual(Object.keys(entry?.properties ?? {}));
  });
});
