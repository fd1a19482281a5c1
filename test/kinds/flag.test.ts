/**
 * The one reader of the panel's flags (common.ts readFlag), and the readers built on it: a
 * client's field reader (flagReader), a domain's system and subdomain flags, a setting's flags.
 */
import { describe, expect, it } from 'vitest';
import { flagReader, readFlag } from '../../src/kinds/common.js';
import { readSettings, settingRow, subdomainFlag, systemFlag } from '../../src/kinds/domain.js';
import { parseClientRecord } from '../../src/panel/index.js';

const TABLE: readonly (readonly [unknown, boolean | undefined])[] = [
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ['1', true],
  ['0', false],
  ['true', true],
  ['false', false],
  [' TRUE ', true],
  ['False', false],
  ['\t1\n', true],
  ['', undefined],
  ['yes', undefined],
  ['on', undefined],
  [2, undefined],
  [-1, undefined],
  [0.5, undefined],
  ['01', undefined],
  [null, undefined],
  [undefined, undefined],
  [[true], undefined],
  [{}, undefined],
];

describe('readFlag', () => {
  it.each(TABLE)('reads %j as %j', (value, expected) => {
    expect(readFlag(value)).toBe(expected);
  });
});

describe('every boolean reader agrees with readFlag', () => {
  it.each(TABLE)('%j', (value, expected) => {
    // A client's field: the value, or a problem.
    expect(flagReader(value)).toEqual(
      expected === undefined ? { problem: 'a boolean (or 0 or 1)' } : { value: expected },
    );
    // A domain's system flag: null, "" (spaces aside) and absence do not say; else as readFlag, or a problem.
    const silent = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    expect(systemFlag(value)).toEqual(
      silent ? undefined : expected === undefined ? { problem: 'a boolean (or 0 or 1)' } : expected,
    );
    // A domain's subdomain flag, and a setting's flag.
    expect(subdomainFlag({ is_subdomain: value })).toBe(expected);
    const live = readSettings({ security: { lets_encrypt: value === undefined ? null : value } });
    expect(live && settingRow('https.lets_encrypt').read(live)).toBe(expected);
  });

  it('reads a client\'s is_suspended "1" as true', () => {
    const where = 'GET /api/v2/clients[0]';
    expect(parseClientRecord({ id: 7, username: 'alice', is_suspended: '1' }, where).suspended).toBe(true);
    expect(parseClientRecord({ id: 7, username: 'alice', suspended: ' false ' }, where).suspended).toBe(false);
  });
});
