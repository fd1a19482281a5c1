/**
 * HSTS whose flag (`security.is_hsts`) is missing or does not read while its details do (issue
 * 30, 9): the setting is "not compared", naming the flag, whatever the manifest asks and
 * whatever the details say: never guessed on from a max_age, nor off from a missing flag.
 */
import { describe, expect, it } from 'vitest';
import { type DomainSettings, readSettings, settingRow } from '../../src/kinds/domain.js';
import { diff } from '../../src/plan/diff.js';
import { desired, live } from '../helpers/builders.js';

const DETAILS = {
  id_certificate: 4,
  lets_encrypt: true,
  hsts_max_age: 31536000,
  hsts_include: true,
  hsts_preload: false,
};
const SAME = { max_age: 31536000, include_subdomains: true, preload: false };
const OTHER = { max_age: 600, include_subdomains: false, preload: false };

const RECORDS: [string, Record<string, unknown>][] = [
  ['missing', DETAILS],
  ['null', { ...DETAILS, is_hsts: null }],
  ['a word', { ...DETAILS, is_hsts: 'maybe' }],
  ['a number other than 0 or 1', { ...DETAILS, is_hsts: 2 }],
  ['an object', { ...DETAILS, is_hsts: { on: true } }],
];

describe('HSTS whose flag does not read while its details do', () => {
  it.each(RECORDS)('is_hsts %s: not compared, naming the flag, for every manifest value', (_name, security) => {
    const settings = readSettings({ php_version: '8.1', security, target: { is_forwarding: false } });
    const row = settingRow('https.hsts');
    expect(row.on?.(settings ?? {})).toBeUndefined();
    expect(row.read(settings ?? {})).toBeUndefined();
    for (const hsts of [false, SAME, OTHER] as const) {
      const wants: DomainSettings = { 'https.hsts': hsts, 'https.lets_encrypt': true };
      const d = desired({ alice: { domains: [{ name: 'shop.example', settings: wants }] } });
      const plan = diff(d, live([[7, 'alice']], [[70, 'shop.example', 7, false, { php_version: '8.1', security }]]));
      expect(plan.changes, JSON.stringify(hsts)).toEqual([]);
      expect(plan.unknowns).toEqual([
        { client: 'alice', domain: 'shop.example', field: 'https.hsts', keys: ['security.is_hsts'] },
      ]);
    }
  });
});
