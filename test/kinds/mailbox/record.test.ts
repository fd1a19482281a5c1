/**
 * The mailbox's record as the panel answers it: every plausible shape docs/panel-api.md allows
 * (v1 and v2 spellings, `_utf8` twins, numbers as strings, missing fields) read into one
 * LiveMailbox, and what it cannot read refused with an error naming the record and the field.
 */
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../../src/errors.js';
import { MAILBOX_RECORD, parseMailboxRecord } from '../../../src/kinds/mailbox/index.js';

const WHERE = 'GET https://panel.example/api/v2/emails';

/** The parse's error message, or a note that it parsed. */
function refusal(record: unknown): string {
  try {
    parseMailboxRecord(record, WHERE);
    return 'parsed';
  } catch (error) {
    expect(error).toBeInstanceOf(ProvisionError);
    expect((error as ProvisionError).code).toBe('panel_contract');
    return (error as Error).message;
  }
}

describe('a mailbox record', () => {
  it('reads the simulator-like shape whole', () => {
    expect(
      parseMailboxRecord(
        {
          id: 7,
          id_user: 3,
          email: 'info@xn--bcher-kva.example',
          email_utf8: 'info@bücher.example',
          description: 'Front desk',
          size: 1234,
          max_size: 2147483648,
          catch_all: false,
          store_forwarded_emails: true,
          aliases: ['hello@xn--bcher-kva.example'],
          aliases_utf8: ['hello@bücher.example'],
          forwardings: ['Owner@Example.net'],
          forwardings_utf8: ['owner@example.net'],
        },
        WHERE,
      ),
    ).toEqual({
      id: 7,
      idUser: 3,
      address: 'info@xn--bcher-kva.example',
      unicode: 'info@bücher.example',
      description: 'Front desk',
      maxSize: 2147483648,
      catchAll: false,
      storeForwardedEmails: true,
      aliases: ['hello@xn--bcher-kva.example'],
      forwardings: ['owner@example.net'],
    });
  });

  it('takes numbers as strings, flags as panels send them, and leaves what is missing unknown', () => {
    const live = parseMailboxRecord(
      { id: '12', email: 'Info@Alice.Example', max_size: '0', catch_all: '1', store_forwarded_emails: 0 },
      WHERE,
    );
    expect(live).toEqual({
      id: 12,
      idUser: undefined,
      address: 'info@alice.example',
      unicode: 'info@alice.example',
      description: undefined,
      maxSize: 0,
      catchAll: true,
      storeForwardedEmails: false,
      aliases: undefined,
      forwardings: undefined,
    });
  });

  it('reads other spellings, an unlimited -1, null and lists of objects or of text', () => {
    const live = parseMailboxRecord(
      {
        id: 4,
        user_id: '9',
        email_utf8: 'post@bücher.example',
        description: null,
        max_size_bytes: -1,
        is_catch_all: 'true',
        store_forwarded_emails: null,
        aliases: [{ id: 1, email: 'hallo@xn--bcher-kva.example' }, 'kontakt'],
        forwardings: 'a@example.net, b@example.net',
      },
      WHERE,
    );
    expect(live).toMatchObject({
      id: 4,
      idUser: 9,
      address: 'post@xn--bcher-kva.example',
      unicode: 'post@bücher.example',
      description: '',
      maxSize: 0,
      catchAll: true,
      storeForwardedEmails: undefined,
      aliases: ['hallo@xn--bcher-kva.example', 'kontakt@xn--bcher-kva.example'],
      forwardings: ['a@example.net', 'b@example.net'],
    });
    expect(parseMailboxRecord({ id: 1, email: 'a@x.example', aliases: null, max_size: null }, WHERE)).toMatchObject({
      aliases: [],
      maxSize: undefined,
    });
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(refusal('x')).toBe(`${WHERE}: expected an object, got a string`);
    expect(refusal({ email: 'a@x.example' })).toBe(`${WHERE}: "id" must be a positive whole number, got nothing`);
    expect(refusal({ id: 0, email: 'a@x.example' })).toBe(`${WHERE}: "id" must be a positive whole number, got 0`);
    expect(refusal({ id: 1 })).toBe(`${WHERE}: "email" must be an address, got nothing`);
    expect(refusal({ id: 1, email: 5 })).toBe(`${WHERE}: "email" must be an address, got 5`);
    expect(refusal({ id: 1, email: 'a@x.example', email_utf8: 'b@x.example' })).toBe(
      `${WHERE}: "email" and "email_utf8" name different addresses`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', max_size: '2G' })).toBe(
      `${WHERE}: "max_size" must be a whole number of bytes (0: unlimited), got a string`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', catch_all: 'yes' })).toBe(
      `${WHERE}: "catch_all" must be a boolean (or 0 or 1), got a string`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', description: 3 })).toBe(
      `${WHERE}: "description" must be a string ("" or null: none), got 3`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', aliases: { a: 1 } })).toBe(
      `${WHERE}: "aliases" must be a list of addresses, got an object`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', forwardings: ['b@y.example', 7] })).toBe(
      `${WHERE}: "forwardings" item 2 must be an address, got 7`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', aliases: ['b@x.example'], aliases_utf8: ['c@x.example'] })).toBe(
      `${WHERE}: "aliases" and "aliases_utf8" hold different addresses`,
    );
    expect(refusal({ id: 1, email: 'a@x.example', max_size: 5, max_size_bytes: 6 })).toBe(
      `${WHERE}: "max_size" and "max_size_bytes" disagree (5 and 6)`,
    );
  });

  it('is read by its id at /emails/{id}', () => {
    expect(MAILBOX_RECORD.path(7)).toBe('/emails/7');
    expect(MAILBOX_RECORD.parse({ id: 7, email: 'a@x.example' }, WHERE).address).toBe('a@x.example');
  });
});
