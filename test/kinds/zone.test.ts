/** The zone's room: values per type, hosts, the zone's answer read, and the diff rule. */
import { describe, expect, it } from 'vitest';
import { checkValue, recordHost } from '../../src/kinds/zone/values.js';
import { type LiveRecord, liveHost, parseZone } from '../../src/kinds/zone/record.js';
import { type DesiredZone, zoneDiff } from '../../src/kinds/zone/diff.js';
import { itemZone, zonePlace, zoneRefused } from '../../src/kinds/zone/manifest.js';

const live = (host: string, type: string, value: string, ttl = 3600): LiveRecord => ({
  host,
  type,
  value,
  ttl,
  raw: { host, ttl, type, value, id: 7 },
});
const want = (records: DesiredZone['records'], prune = false, keep: string[] = []): DesiredZone => ({
  records,
  prune,
  keep,
});

describe('record values', () => {
  it.each([
    ['A', '192.0.2.10', undefined],
    ['A', '192.0.2.300', 'error'],
    ['A', '2001:db8::1', 'error'],
    ['AAAA', '2001:db8::1', undefined],
    ['AAAA', '192.0.2.1', 'error'],
    ['CNAME', 'alice.example.', undefined],
    ['CNAME', 'www', undefined],
    ['CNAME', 'not a host', 'error'],
    ['MX', '10 mail.alice.example.', undefined],
    ['MX', 'mail.alice.example.', 'error'],
    ['MX', '70000 mail.alice.example.', 'error'],
    ['SRV', '10 5 5060 sip.alice.example.', undefined],
    ['SRV', '10 5 sip.alice.example.', 'error'],
    ['CAA', '0 issue "letsencrypt.org"', undefined],
    ['CAA', '0 issues "letsencrypt.org"', 'warning'],
    ['CAA', 'issue letsencrypt.org', 'error'],
    ['NS', 'ns1.example.net.', undefined],
    ['TXT', 'v=spf1 mx -all', undefined],
    ['TXT', 'x'.repeat(256), 'warning'],
    ['TXT', 'two\nlines', 'error'],
    ['TXT', '', 'error'],
    ['TLSA', '3 1 1 abcdef', 'warning'],
    ['A-B', '1', 'error'],
  ])('%s %j: %s', (type, value, severity) => {
    expect(checkValue(type, value)?.severity).toBe(severity);
  });
});

describe('record hosts', () => {
  it.each([
    ['@', '@'],
    ['', '@'],
    ['WWW', 'www'],
    ['_dmarc', '_dmarc'],
    ['*.shop', '*.shop'],
    ['_acme-challenge.shop', '_acme-challenge.shop'],
  ])('%j is %j', (input, host) => {
    expect(recordHost(input, 'alice.example')).toEqual({ host });
  });

  it('refuses absolute names, with the relative form when it lies in the zone', () => {
    expect(recordHost('www.alice.example.', 'alice.example')).toEqual({
      problem: 'is absolute: write it relative to the zone, as "www"',
    });
    expect(recordHost('alice.example.', 'alice.example')).toMatchObject({
      problem: expect.stringContaining('"@"') as unknown,
    });
    expect(recordHost('www.bob.example.', 'alice.example')).toMatchObject({
      problem: expect.stringContaining('another zone') as unknown,
    });
    expect(recordHost('www.alice.example', 'alice.example')).toMatchObject({
      problem: expect.stringContaining('"www.alice.example.alice.example"') as unknown,
    });
    expect(recordHost('a b', 'alice.example')).toHaveProperty('problem');
  });

  it('reads a panel host in comparison form', () => {
    expect(liveHost('WWW.Alice.Example.', 'alice.example')).toBe('www');
    expect(liveHost('alice.example.', 'alice.example')).toBe('@');
    expect(liveHost('', 'alice.example')).toBe('@');
    expect(liveHost('mail.other.example.', 'alice.example')).toBe('mail.other.example.');
  });
});

describe('a zone as read', () => {
  const answer = {
    is_custom_dns: false,
    is_dns_disabled: false,
    dkim_record: 'default._domainkey IN TXT ( "v=DKIM1; k=rsa;" )',
    records: {
      soa: { ttl: 86400, primary_ns: 'ns.example.com.' },
      other: [{ host: '@', ttl: '86400', type: 'a', value: '192.0.2.1' }],
    },
  };

  it('reads records in comparison form, TTLs in strings, the SOA and DKIM record as read', () => {
    const read = parseZone(answer, 'alice.example');
    expect(read).toMatchObject({
      zone: {
        isCustom: false,
        isDisabled: false,
        dkim: answer.dkim_record,
        soa: answer.records.soa,
        records: [{ host: '@', type: 'A', value: '192.0.2.1', ttl: 86400 }],
      },
    });
  });

  it('digests what a PUT replaces: the same zone twice alike, any record changed not', () => {
    const digest = (a: unknown): string =>
      'zone' in parseZone(a, 'x.example')
        ? (parseZone(a, 'x.example') as { zone: { digest: string } }).zone.digest
        : '';
    const again = JSON.parse(JSON.stringify(answer)) as typeof answer;
    expect(digest(again)).toBe(digest(answer));
    again.records.other.push({ host: '_acme-challenge', ttl: '120', type: 'TXT', value: 'x' });
    expect(digest(again)).not.toBe(digest(answer));
    expect(digest({ ...answer, is_custom_dns: true })).toBe(digest(answer));
  });

  it.each([
    [null, 'expected an object'],
    [{ records: [] }, '"records" must be an object'],
    [{ records: { other: {} } }, '"records.other" must be a list'],
    [{ records: { other: [{ host: '@', type: 'A', value: '1.2.3.4', ttl: -1 }] } }, '"records.other[0].ttl"'],
    [{ records: { other: [{ host: 1, type: 'A', value: '1.2.3.4', ttl: 1 }] } }, '"records.other[0].host"'],
    [{ records: { other: [{ host: '@', type: '', value: '1.2.3.4', ttl: 1 }] } }, '"records.other[0].type"'],
    [{ records: { other: [{ host: '@', type: 'A', value: null, ttl: 1 }] } }, '"records.other[0].value"'],
  ])('refuses %j', (value, problem) => {
    expect(parseZone(value, 'alice.example')).toMatchObject({ problem: expect.stringContaining(problem) as unknown });
  });
});

describe('the diff rule', () => {
  const a = { host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 };
  const txt = { host: '@', type: 'TXT', value: 'v=spf1 -all', ttl: 300 };

  it('adds what is missing, updates a TTL, leaves unlisted records without prune', () => {
    const zone = [live('@', 'A', '192.0.2.10', 86400), live('www', 'A', '192.0.2.10')];
    const { ops, other } = zoneDiff(want([a, txt]), zone);
    expect(ops).toEqual([
      { op: 'update', ...a, ttl_before: 86400 },
      { op: 'add', ...txt },
    ]);
    expect(other).toEqual([
      { host: '@', ttl: 3600, type: 'A', value: '192.0.2.10', id: 7 },
      zone[1]?.raw,
      { host: '@', ttl: 300, type: 'TXT', value: 'v=spf1 -all' },
    ]);
  });

  it('with prune removes unlisted records, except keep matches and the apex NS it does not manage', () => {
    const zone = [
      live('@', 'A', '192.0.2.10'),
      live('www', 'A', '192.0.2.10'),
      live('_acme-challenge', 'TXT', 'token'),
      live('@', 'NS', 'ns1.example.net.'),
    ];
    const { ops, other } = zoneDiff(want([a], true, ['_acme-challenge*']), zone);
    expect(ops).toEqual([{ op: 'remove', host: 'www', type: 'A', value: '192.0.2.10', ttl: 3600 }]);
    expect(other.map((r) => r.host)).toEqual(['@', '_acme-challenge', '@']);
    // Listing an apex NS record manages the set: the other goes. An ACME challenge's record stays without keep.
    const ns = { host: '@', type: 'NS', value: 'ns2.example.net.', ttl: 3600 };
    expect(zoneDiff(want([a, ns], true), zone).ops.map((o) => `${o.op} ${o.host} ${o.type}`)).toEqual([
      'add @ NS',
      'remove www A',
      'remove @ NS',
    ]);
  });

  it('counts two equal records on the panel as two: one listed, the other goes (the set is exactly the listed ones)', () => {
    const zone = [live('@', 'A', '192.0.2.10'), live('@', 'A', '192.0.2.10')];
    expect(zoneDiff(want([a]), zone).ops).toEqual([{ op: 'remove', ...a }]);
    expect(zoneDiff(want([a], true), zone).ops).toEqual([{ op: 'remove', ...a }]);
  });

  it('compares values exactly: a value in another case is another record (and the listed set replaces it)', () => {
    const zone = [live('@', 'TXT', 'V=SPF1 -all', 300)];
    expect(zoneDiff(want([txt]), zone).ops).toEqual([
      { op: 'add', ...txt },
      { op: 'remove', ...txt, value: 'V=SPF1 -all' },
    ]);
  });
});

describe('a dns block as the manifest gives it', () => {
  const domain = 'domain "alice.example" in client "alice"';
  const lineOf = (path: readonly (string | number)[]): number => 10 + Number(path[2] ?? 0);
  const read = (item: unknown) => itemZone(item, domain, 'alice.example', lineOf);

  it('gives the zone in comparison form, TTLs resolved, and nothing for an item without dns', () => {
    expect(read('alice.example')).toEqual({ dns: undefined, problems: [] });
    expect(read({ name: 'alice.example' })).toEqual({ dns: undefined, problems: [] });
    expect(
      read({
        name: 'alice.example',
        dns: {
          ttl: 120,
          records: [
            { host: 'WWW', type: 'a', value: '192.0.2.1' },
            { host: '@', type: 'TXT', value: ' spaced ', ttl: 60 },
          ],
          prune: true,
          keep: ['_ACME*'],
        },
      }),
    ).toEqual({
      dns: {
        records: [
          { host: 'www', type: 'A', value: '192.0.2.1', ttl: 120 },
          { host: '@', type: 'TXT', value: ' spaced ', ttl: 60 },
        ],
        prune: true,
        keep: ['_ACME*'],
      },
      problems: [],
    });
  });

  it('says each problem at its path, naming an earlier record by its line', () => {
    const { problems } = read({
      name: 'alice.example',
      dns: {
        records: [
          { host: '@', type: 'MX', value: '10 mail.alice.example.' },
          { host: '@', type: 'mx', value: '10 mail.alice.example.' },
        ],
      },
    });
    expect(problems).toEqual([
      {
        path: ['dns', 'records', 1],
        severity: 'error',
        message: expect.stringContaining('record #1 (line 10) has the same host "@", type MX') as unknown,
      },
    ]);
    expect(read({ name: 'alice.example', state: 'absent', dns: { records: [] } }).problems).toMatchObject([
      { path: ['dns'], atKey: true, severity: 'error' },
    ]);
  });

  it('words the schema refusals of its values, and where an unknown key stands', () => {
    expect(zoneRefused(['dns', 'records', 0, 'value'], 'type', 10, domain)).toContain('quote it');
    expect(zoneRefused(['dns', 'records', 2], 'required', {}, domain, 'host')).toBe(
      `"dns" record #3 of ${domain} has no "host": add one, like host: "@" (the domain itself) or host: www`,
    );
    expect(zoneRefused(['dns', 'ttl'], 'minimum', 59, domain)).toContain('from 60 to 2592000');
    expect(zonePlace(['dns', 'records', 1], domain)).toBe(`in "dns" record #2 of ${domain}`);
    expect(zonePlace(['dns'], domain)).toBe(`in "dns" of ${domain}`);
  });
});
