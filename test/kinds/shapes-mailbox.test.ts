/**
 * The shapes a real panel's `/emails` may answer (docs/panel-api.md, "Mailboxes, databases, FTP
 * users: what public code shows"), fed to the record reader and, over real HTTP, to the list read:
 * the list item a v2 dashboard reads (with its `_utf8` twins), the v1 create body read back, flags
 * as 0/1 and text, quotas as strings and -1, IDN addresses, aliases as local parts or objects; an
 * owner the record does not name (null or 0), the `is_catchall` spelling, a `_utf8` twin that is
 * null beside its list, a PHP array that JSON carries as an object keyed by digits; and what cannot
 * be read, refused with a panel_contract error naming the method, the path and the field.
 */
import { describe, expect, it } from 'vitest';
import { parseMailboxRecord } from '../../src/kinds/mailbox/index.js';
import { MAILBOX_READ } from '../../src/kinds/mailbox/read.js';
import { listReader } from '../../src/panel/read.js';
import { client, contractRefusal, rejection } from '../helpers/panel.js';
import { jsonPanel } from '../helpers/raw-panel.js';

const WHERE = 'GET https://panel.example/api/v2/emails';

/** The parse's error message; fails the test when it parses. */
const refusal = (record: unknown): string => contractRefusal(parseMailboxRecord, record, WHERE);

/** `fields` on a mailbox `info@alice.example` (id 1), read. */
const read = (fields: Record<string, unknown>) =>
  parseMailboxRecord({ id: 1, email: 'info@alice.example', ...fields }, WHERE);

describe('a mailbox as a real panel answers it', () => {
  it('reads the list item a v2 dashboard reads, with its _utf8 twins', () => {
    expect(
      parseMailboxRecord(
        {
          id: 31,
          email: 'info@alice.example',
          email_utf8: 'info@alice.example',
          description: '',
          size: 52428,
          max_size: 2147483648,
          aliases: ['office@alice.example'],
          aliases_utf8: ['office@alice.example'],
          forwardings: ['owner@mail.example'],
          forwardings_utf8: ['owner@mail.example'],
        },
        WHERE,
      ),
    ).toEqual({
      id: 31,
      idUser: undefined,
      address: 'info@alice.example',
      unicode: 'info@alice.example',
      description: '',
      maxSize: 2147483648,
      catchAll: undefined,
      storeForwardedEmails: undefined,
      aliases: ['office@alice.example'],
      forwardings: ['owner@mail.example'],
    });
  });

  it('reads the v1 create body read back, its password left out', () => {
    expect(
      read({
        id_user: 3,
        description: 'Email migrated',
        max_size: 1073741824,
        catch_all: false,
        store_forwarded_emails: true,
        aliases: [],
        forwardings: [],
      }),
    ).toMatchObject({ idUser: 3, maxSize: 1073741824, catchAll: false, storeForwardedEmails: true, aliases: [] });
  });

  it('reads flags as 0/1 and as text, quotas as strings and -1 (unlimited), null as unknown', () => {
    expect(read({ catch_all: 1, store_forwarded_emails: '0' })).toMatchObject({
      catchAll: true,
      storeForwardedEmails: false,
    });
    expect(read({ catch_all: 'true', store_forwarded_emails: 'FALSE' })).toMatchObject({
      catchAll: true,
      storeForwardedEmails: false,
    });
    expect(read({ max_size: '1073741824' }).maxSize).toBe(1073741824);
    expect(read({ max_size: -1 }).maxSize).toBe(0);
    expect(read({ max_size: 0 }).maxSize).toBe(0);
    expect(read({ max_size: null, catch_all: null }).maxSize).toBeUndefined();
  });

  it('reads IDN addresses by their ASCII form, the twins agreeing', () => {
    expect(
      parseMailboxRecord(
        {
          id: 1,
          email: 'Info@xn--bcher-kva.example',
          email_utf8: 'info@bücher.example',
          aliases: ['kasse@xn--bcher-kva.example'],
          aliases_utf8: ['kasse@bücher.example'],
        },
        WHERE,
      ),
    ).toMatchObject({
      address: 'info@xn--bcher-kva.example',
      unicode: 'info@bücher.example',
      aliases: ['kasse@xn--bcher-kva.example'],
    });
  });

  it('reads aliases as local parts of its domain, as text, or as objects holding an address', () => {
    expect(read({ aliases: ['office', 'Sales@Alice.Example'] }).aliases).toEqual([
      'office@alice.example',
      'sales@alice.example',
    ]);
    expect(read({ aliases: 'office, sales' }).aliases).toEqual(['office@alice.example', 'sales@alice.example']);
    expect(read({ forwardings: [{ id: 9, email: 'owner@mail.example' }] }).forwardings).toEqual(['owner@mail.example']);
  });

  it.each([null, 0, '0'])('reads an owner of %j as not said (unknown), not as an error', (owner) => {
    expect(read({ id_user: owner }).idUser).toBeUndefined();
  });

  it('reads the catch-all spelled is_catchall', () => {
    expect(read({ is_catchall: true }).catchAll).toBe(true);
    expect(read({ is_catchall: 0 }).catchAll).toBe(false);
  });

  it('reads a twin that is null beside a list as not said: the list is read', () => {
    expect(read({ aliases: ['office@alice.example'], aliases_utf8: null }).aliases).toEqual(['office@alice.example']);
    expect(read({ forwardings: ['owner@mail.example'], forwardings_utf8: null }).forwardings).toEqual([
      'owner@mail.example',
    ]);
    expect(read({ aliases: null, aliases_utf8: ['kasse@alice.example'] }).aliases).toEqual(['kasse@alice.example']);
    // Alone, null is none, as before.
    expect(read({ aliases: null }).aliases).toEqual([]);
  });

  it('reads a PHP array that JSON carries as an object keyed by digits, in key order', () => {
    expect(read({ aliases: { '0': 'office@alice.example', '2': 'sales' } }).aliases).toEqual([
      'office@alice.example',
      'sales@alice.example',
    ]);
    expect(
      read({ forwardings: { '1': 'owner@mail.example' }, forwardings_utf8: { '1': 'owner@mail.example' } }),
    ).toMatchObject({ forwardings: ['owner@mail.example'] });
    expect(read({ aliases: {} }).aliases).toEqual([]);
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(refusal({ id: 1 })).toBe(`${WHERE}: "email" must be an address, got nothing`);
    expect(refusal({ id: 1, email: 'info@alice.example', aliases: 5 })).toContain(
      '"aliases" must be a list of addresses, got 5',
    );
    expect(refusal({ id: 1, email: 'info@alice.example', aliases: { alias: 'x' } })).toContain(
      '"aliases" must be a list of addresses, got an object',
    );
    expect(refusal({ id: 1, email: 'info@alice.example', catch_all: 'maybe' })).toContain('"catch_all" must be');
    expect(refusal({ id: 1, email: 'info@alice.example', id_user: -2 })).toContain('"id_user" must be');
  });
});

describe("the mailboxes' list read of a real panel's answer, over HTTP", () => {
  const ITEMS = [
    { id: 31, id_user: 3, email: 'info@alice.example', email_utf8: 'info@alice.example', max_size: '0', catch_all: 1 },
    { id: '32', email: 'office@alice.example', aliases: ['team'], forwardings: [] },
  ];

  it.each([
    ['a bare array', ITEMS],
    ['a wrapped one', { data: ITEMS }],
  ])('reads %s', async (_, answer) => {
    const part = await MAILBOX_READ.list(listReader(client(await jsonPanel(answer))), { mailboxes: true }, {});
    expect(part.records.map((m) => [m.id, m.idUser, m.address, m.maxSize, m.catchAll, m.aliases])).toEqual([
      [31, 3, 'info@alice.example', 0, true, undefined],
      [32, undefined, 'office@alice.example', undefined, undefined, ['team@alice.example']],
    ]);
  });

  it('refuses an item it cannot read with the method, the path, the item and the field', async () => {
    const url = await jsonPanel([ITEMS[0], { id: 33, email: 'x@alice.example', max_size: 'big' }]);
    const error = await rejection(MAILBOX_READ.list(listReader(client(url)), { mailboxes: true }, {}));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toContain('GET /api/v2/emails[1]: "max_size" must be a whole number of bytes');
  });
});
