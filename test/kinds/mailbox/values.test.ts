/**
 * The mailbox room's values: an address in comparison form (and what is refused, with what to
 * write), a quota in bytes from what the manifest writes, and back in the largest whole unit.
 */
import { describe, expect, it } from 'vitest';
import {
  addressOf,
  addressSet,
  exportedQuota,
  formatQuota,
  normalizeAddress,
  normalizeLocalPart,
  parseQuota,
  quotaText,
  sameAddresses,
  unicodeAddress,
  unicodeAddressForm,
} from '../../../src/kinds/mailbox/index.js';

const GiB = 1024 ** 3;

describe('a mailbox address', () => {
  it('is lowercase ASCII, an international domain in punycode', () => {
    expect(normalizeAddress('Info@Bücher.Example')).toEqual({
      address: 'info@xn--bcher-kva.example',
      local: 'info',
      domain: 'xn--bcher-kva.example',
    });
    expect(normalizeAddress('first.last+tag@Alice.EXAMPLE')).toMatchObject({ address: 'first.last+tag@alice.example' });
    expect(unicodeAddress('info@xn--bcher-kva.example')).toBe('info@bücher.example');
    expect(unicodeAddressForm('info@xn--bcher-kva.example')).toBe(' (info@bücher.example)');
    expect(unicodeAddressForm('info@alice.example')).toBe('');
  });

  it('refuses what is not an address, saying what to write', () => {
    const problem = (input: string): string => {
      const read = normalizeAddress(input);
      return 'problem' in read ? read.problem : `accepted as ${read.address}`;
    };
    expect(problem('info')).toBe('has no "@": write a whole address like info@example.com');
    expect(problem('a@b@alice.example')).toMatch(/^holds more than one "@"/);
    expect(problem(' info@alice.example')).toBe('has spaces around it: write it without them');
    expect(problem('')).toMatch(/^is empty/);
    expect(problem('@alice.example')).toMatch(/^has a local part \(before the "@"\) that is empty/);
    expect(problem('in fo@alice.example')).toMatch(/non-ASCII character: use letters a-z/);
    expect(problem('jörg@alice.example')).toMatch(/an international name is for the domain only/);
    expect(problem('.info@alice.example')).toMatch(/dot at its start or end, or two in a row/);
    expect(problem('a..b@alice.example')).toMatch(/two in a row/);
    expect(problem('info@localhost')).toMatch(/^has a domain \(after the "@"\) that needs at least two labels/);
    expect(problem('info@192.0.2.1')).toMatch(/IP address/);
    expect(problem(`${'a'.repeat(65)}@alice.example`)).toMatch(/longer than 64 characters/);
  });

  it('reads a local part alone for a mailbox name', () => {
    expect(normalizeLocalPart('Info')).toEqual({ local: 'info' });
    expect(normalizeLocalPart('info@alice.example')).toEqual({
      problem: 'holds an "@": write only the part before it, like info',
    });
  });

  it('keeps an address the manifest would refuse as the panel has it, lowercased', () => {
    expect(addressOf('Info@Alice.Example')).toBe('info@alice.example');
    expect(addressOf('Broken Address')).toBe('broken address');
  });

  it('compares lists of addresses as sets', () => {
    expect(addressSet(['b@y.example', 'a@y.example', 'b@y.example', 'z@a.example'])).toEqual([
      'z@a.example',
      'a@y.example',
      'b@y.example',
    ]);
    expect(sameAddresses(['a@x.example', 'b@x.example'], ['b@x.example', 'a@x.example', 'a@x.example'])).toBe(true);
    expect(sameAddresses(['a@x.example'], ['a@x.example', 'b@x.example'])).toBe(false);
  });
});

describe('a mailbox quota', () => {
  it('reads bytes, and a number with a unit in powers of 1000 or 1024', () => {
    const bytes = (value: unknown): number | string => {
      const read = parseQuota(value);
      return 'bytes' in read ? read.bytes : read.problem;
    };
    expect(bytes(0)).toBe(0);
    expect(bytes(1024)).toBe(1024);
    expect(bytes('1024')).toBe(1024);
    expect(bytes('2 GiB')).toBe(2 * GiB);
    expect(bytes('2GiB')).toBe(2 * GiB);
    expect(bytes('2 gib')).toBe(2 * GiB);
    expect(bytes('500 MB')).toBe(500_000_000);
    expect(bytes('500 mb')).toBe(500_000_000);
    expect(bytes('1 KB')).toBe(1000);
    expect(bytes('1 KiB')).toBe(1024);
    expect(bytes('3 MiB')).toBe(3 * 1024 ** 2);
    expect(bytes('7 GB')).toBe(7e9);
    expect(bytes('12 B')).toBe(12);
    expect(bytes('1.5 GiB')).toBe(1.5 * GiB);
    expect(bytes('0 MB')).toBe(0);
  });

  it('refuses the rest, saying what to write', () => {
    const problem = (value: unknown): string => {
      const read = parseQuota(value);
      return 'problem' in read ? read.problem : `accepted as ${read.bytes}`;
    };
    expect(problem('2 G')).toMatch(/^has the unit "G", which is not one of B, KB, KiB, MB, MiB, GB, GiB: write bytes/);
    expect(problem('1 TB')).toMatch(/^has the unit "TB"/);
    expect(problem('2 Gib')).toMatch(/^has the unit "Gib"/);
    expect(problem(-1)).toBe('is negative: write 0 for unlimited, or a size like 2 GiB');
    expect(problem('-1 GB')).toMatch(/^is negative/);
    expect(problem(1.5)).toMatch(/^is not a whole number of bytes/);
    expect(problem('1.5 B')).toBe('is not a whole number of bytes: write it in a smaller unit, or in bytes');
    expect(problem('two GiB')).toMatch(/^is not a size: write bytes \(a whole number\), or a number with B, KB/);
    expect(problem('99999999999 GiB')).toBe('is more bytes than a quota can hold');
    expect(problem(true)).toMatch(/^must be bytes/);
  });

  it('is written in the largest whole unit, and reads back the same', () => {
    expect(formatQuota(2 * GiB)).toBe('2 GiB');
    expect(formatQuota(500_000_000)).toBe('500 MB');
    expect(formatQuota(1_024_000)).toBe('1000 KiB');
    expect(formatQuota(3 * 1024 ** 2)).toBe('3 MiB');
    expect(formatQuota(1_500)).toBe('1500 B');
    expect(formatQuota(4 * 1024 ** 4)).toBe('4096 GiB');
    expect(formatQuota(0)).toBe('0');
    for (const bytes of [0, 1, 999, 1000, 1024, 1_024_000, 2 * GiB, 5e9, 123_456_789, 4 * 1024 ** 4])
      expect(parseQuota(formatQuota(bytes))).toEqual({ bytes });
    expect(quotaText(0)).toBe('unlimited');
    expect(quotaText(2 * GiB)).toBe('2 GiB');
    expect(exportedQuota(0)).toBe(0);
    expect(exportedQuota(2 * GiB)).toBe('2 GiB');
  });
});
