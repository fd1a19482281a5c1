/**
 * The passwords made here (apply --generate-passwords, secrets reset): long, of letters and
 * digits only, every class present, and each character uniform over the alphabet.
 */
import { describe, expect, it } from 'vitest';
import { generatePassword, PASSWORD_ALPHABET, PASSWORD_LENGTH } from '../../src/secrets/password.js';

describe('generatePassword', () => {
  it('is 24 characters of letters and digits, with an upper case letter, a lower case letter and a digit, every time', () => {
    expect(PASSWORD_LENGTH).toBeGreaterThanOrEqual(24);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const password = generatePassword();
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[0-9]/);
      seen.add(password);
    }
    expect(seen.size).toBe(2000);
    expect(generatePassword(40)).toHaveLength(40);
    expect(() => generatePassword(8)).toThrow(RangeError);
  });

  it('draws every character of the alphabet about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const n = 4000;
    for (let i = 0; i < n; i++) for (const c of generatePassword()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe(PASSWORD_ALPHABET.split('').sort().join(''));
    // 96,000 draws over 62 characters: about 1548 each, standard deviation about 39. A
    // character favoured by a modulo (256 % 62 = 8 of them, by 1/4) would be off by ~380.
    const expected = (n * PASSWORD_LENGTH) / PASSWORD_ALPHABET.length;
    for (const [c, count] of counts) expect(Math.abs(count - expected), c).toBeLessThan(expected * 0.12);
    // Chi-squared with 61 degrees of freedom: about 61, above 120 far less than once in a million runs.
    let chi = 0;
    for (const count of counts.values()) chi += (count - expected) ** 2 / expected;
    expect(chi).toBeLessThan(120);
  });

  it('draws again a password that lacks a class, rather than forcing one in (so all valid ones are equally likely)', () => {
    // A draw that gives only lower case letters at first, then every third character of the alphabet.
    let calls = 0;
    const draw = (bound: number): number => {
      const i = calls++ - PASSWORD_LENGTH;
      return i < 0 ? 26 : (i * 3) % bound;
    };
    const password = generatePassword(PASSWORD_LENGTH, draw);
    expect(calls).toBe(2 * PASSWORD_LENGTH);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[0-9]/);
  });
});
