/**
 * The mailbox record's lean read (src/kinds/mailbox/record.ts leanRecord): a record in the form
 * the panel sends most is read without the general reader's steps, and must give exactly what
 * the general reader gives. Each record is read twice: as it is, and with its id written as a
 * string of digits (which the lean read leaves to the general reader, and which means the same
 * id); the two readings must agree, refusals included. The address checks it relies on
 * (isNormalAddress, addressOn) must agree with normalizeAddress on any text.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addressOn, isNormalAddress, normalizeAddress } from '../../../src/kinds/mailbox/address.js';
import { parseMailboxRecord } from '../../../src/kinds/mailbox/index.js';
import { MAILBOX_SPELLINGS } from '../../../src/kinds/mailbox/record.js';

const WHERE = 'GET https://panel.example/api/v2/emails';

/** The reading of a record, or its refusal's message. */
function reading(record: unknown): unknown {
  try {
    return parseMailboxRecord(record, WHERE);
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

const locals = fc.constantFrom('info', 'm1', 'Info', 'a.b', 'a..b', '', ' x', 'x@y', 'ünï', 'o+tag', 'x'.repeat(65));
const domains = fc.constantFrom(
  'alice.example',
  'Alice.Example',
  'xn--bcher-kva.example',
  'bücher.example',
  '127.0.0.1',
  'example',
  'a-.example',
  `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.${'g'.repeat(60)}.example`,
  // Labels at the plain pattern's edges (src/kinds/mailbox/address.ts PLAIN_ADDRESS).
  `${'d'.repeat(63)}.example`,
  `${'d'.repeat(64)}.example`,
  'ab--cd.example',
  'xn--zz.example',
  'a.xn--bcher-kva',
  'a.xn--zz',
  `a.${'e'.repeat(64)}`,
  'XN--bcher-kva.example',
  '-a.example',
  'a.example.',
  'a.e-',
  'a.e1',
  'a.1e',
  'a.0x1f',
  'a.123',
  'a..example',
  'a_b.example',
  'a.b',
);
const addresses = fc.oneof(
  fc.tuple(locals, domains).map(([l, d]) => `${l}@${d}`),
  fc.string(),
  fc.constantFrom('a@b@c.example', '@alice.example', 'info@', ' info@alice.example'),
);
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const lists = maybe(fc.oneof(fc.constant([]), fc.constant(null), fc.constant(['hello']), fc.constant('a, b')));

/** Records mostly in the common form, with each field now and then missing, null, or of another type. */
const records = fc
  .record({
    id: fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(0, -0, -1, 1.5, 2 ** 53 - 1, 2 ** 53)),
    id_user: maybe(
      fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(0, -0, null, '3', 1.5, 2 ** 53 - 1, 2 ** 53)),
    ),
    email: fc.oneof(addresses, fc.constantFrom(null, 3)),
    email_utf8: maybe(fc.oneof(addresses, fc.constant('info@bücher.example'))),
    description: maybe(fc.oneof(fc.string(), fc.constant(null))),
    max_size: maybe(
      fc.oneof(
        fc.integer(),
        fc.constantFrom(-1, -0, 0.5, -1.5, null, '1024', 2 ** 60, 2 ** 53 - 1, 2 ** 53, 1 - 2 ** 53, -(2 ** 53)),
      ),
    ),
    catch_all: maybe(fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 'true', null))),
    store_forwarded_emails: maybe(fc.oneof(fc.boolean(), fc.constantFrom(0, null))),
    aliases: lists,
    aliases_utf8: lists,
    forwardings: lists,
    forwardings_utf8: lists,
    user_id: maybe(fc.integer({ min: 1, max: 9 })),
    forwards: maybe(fc.constant([])),
    address: maybe(addresses),
  })
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));

/** The same record with its email field copied as the simulator writes it (`email_utf8` the same). */
const common = fc
  .record({
    id: fc.integer({ min: 1, max: 1e6 }),
    id_user: fc.integer({ min: 1, max: 1e6 }),
    email: fc.tuple(locals, domains).map(([l, d]) => `${l}@${d}`),
    description: fc.string(),
    max_size: fc.integer({ min: -1, max: 2 ** 40 }),
    catch_all: fc.boolean(),
    store_forwarded_emails: fc.boolean(),
  })
  .map((r) => ({
    ...r,
    email_utf8: r.email,
    size: 0,
    aliases: [],
    aliases_utf8: [],
    forwardings: [],
    forwardings_utf8: [],
  }));

describe('the lean read of a mailbox record gives what the general read gives', () => {
  test.each([
    ['records of any shape', records],
    ['records in the common form', common],
  ])('%s', (_, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (record) => {
        const id = (record as { id: unknown }).id;
        const general = {
          ...record,
          id: typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? String(id) : id,
        };
        expect(reading(record)).toEqual(reading(general));
      }),
      { numRuns: 1500 },
    );
  });

  test('the common form is read by the lean path, with the fields as they are', () => {
    const record = {
      id: 7,
      id_user: 3,
      email: 'm1@c000001.example',
      email_utf8: 'm1@c000001.example',
      description: '',
      size: 0,
      max_size: -1,
      aliases: [],
      aliases_utf8: [],
      forwardings: [],
      forwardings_utf8: [],
      catch_all: false,
      store_forwarded_emails: true,
    };
    expect(parseMailboxRecord(record, WHERE)).toEqual({
      id: 7,
      idUser: 3,
      address: 'm1@c000001.example',
      unicode: 'm1@c000001.example',
      description: '',
      maxSize: 0,
      catchAll: false,
      storeForwardedEmails: true,
      aliases: [],
      forwardings: [],
    });
  });

  test('a negative quota of zero is read as zero, as the general read reads it (toEqual takes -0 for 0)', () => {
    const record = { id: 7, email: 'm1@c000001.example', max_size: -0 };
    expect(Object.is(parseMailboxRecord(record, WHERE).maxSize, 0)).toBe(true);
    expect(Object.is(parseMailboxRecord({ ...record, id: '7' }, WHERE).maxSize, 0)).toBe(true);
  });
});

describe('a record that carries another spelling of a field goes to the general read', () => {
  /** A record in the common form; every field of it disagrees with `OTHER` below. */
  const lean = {
    id: 7,
    id_user: 3,
    email: 'm1@c000001.example',
    email_utf8: 'm1@c000001.example',
    description: '',
    size: 0,
    max_size: 0,
    aliases: [],
    aliases_utf8: [],
    forwardings: [],
    forwardings_utf8: [],
    catch_all: false,
    store_forwarded_emails: false,
  };
  /** A value of each field that disagrees with `lean`'s. */
  const OTHER: Readonly<Record<keyof typeof MAILBOX_SPELLINGS, unknown>> = {
    id: 8,
    idUser: 4,
    address: 'other@c000001.example',
    unicode: 'other@c000001.example',
    description: 'other',
    maxSize: 5,
    catchAll: true,
    storeForwardedEmails: true,
    aliases: ['other@c000001.example'],
    forwardings: ['other@c000001.example'],
  };
  // Every spelling the general reader reads, with the `_utf8` twins of the lists, but those of the
  // common form (a `_utf8` twin aside): each in turn beside the common form's own, disagreeing with
  // it, must be refused as the general read refuses it.
  type Field = keyof typeof MAILBOX_SPELLINGS;
  const spellings: (readonly [Field, string])[] = (Object.keys(MAILBOX_SPELLINGS) as Field[]).flatMap((field) =>
    MAILBOX_SPELLINGS[field].flatMap((key: string): (readonly [Field, string])[] =>
      field === 'aliases' || field === 'forwardings'
        ? [
            [field, key],
            [field, `${key}_utf8`],
          ]
        : [[field, key]],
    ),
  );
  const others = spellings.filter(([, key]) => !(key in lean) || key.endsWith('_utf8'));
  test('they are the spellings beside the common form', () => {
    expect(others.length).toBe(17);
  });
  test.each(others)('%s as "%s"', (field, key) => {
    const record = { ...lean, [key]: OTHER[field] };
    const general = { ...record, id: String(record.id) };
    expect(reading(record)).toEqual(reading(general));
    expect(reading(record)).toHaveProperty('refused');
  });
});

describe('the address checks of the lean reads agree with normalizeAddress', () => {
  test('isNormalAddress: exactly the addresses normalizeAddress gives back as they are', () => {
    fc.assert(
      fc.property(addresses, (text) => {
        const normal = normalizeAddress(text);
        expect(isNormalAddress(text)).toBe('address' in normal && normal.address === text);
      }),
      { numRuns: 2000 },
    );
  });

  test('addressOn: what normalizeAddress gives of local@domain', () => {
    fc.assert(
      fc.property(locals, domains, (local, domain) => {
        expect(addressOn(local.toLowerCase(), domain)).toEqual(normalizeAddress(`${local.toLowerCase()}@${domain}`));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the lean read checks numbers as the general read does', () => {
  const record = {
    id: 7,
    id_user: 3,
    email: 'm1@c000001.example',
    email_utf8: 'm1@c000001.example',
    description: '',
    max_size: 5,
    aliases: [],
    forwardings: [],
    catch_all: false,
  };
  const EDGES = [0, -0, 1, -1, 1.5, -1.5, 2 ** 53 - 1, 2 ** 53, 1 - 2 ** 53, -(2 ** 53), Infinity, -Infinity, NaN];

  test.each(EDGES)('an id of %s is read only when a safe positive whole number', (id) => {
    const read = reading({ ...record, id });
    if (Number.isSafeInteger(id) && id > 0) expect(read).toMatchObject({ id });
    else expect(read).toHaveProperty('refused');
  });

  test.each(EDGES.flatMap((value) => [['id_user', value] as const, ['max_size', value] as const]))(
    '%s of %s is read as the general read reads it',
    (field, value) => {
      // The id as a string of digits: the same record, read by the general reader.
      expect(reading({ ...record, [field]: value })).toEqual(reading({ ...record, [field]: value, id: '7' }));
    },
  );
});
