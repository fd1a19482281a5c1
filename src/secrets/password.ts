import { randomInt } from 'node:crypto';

/** The length of a password made here: 24 characters of 62 is about 142 bits. */
export const PASSWORD_LENGTH = 24;

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** Letters and digits only: nothing a shell, JSON, a URL or a YAML file would need escaped. */
export const PASSWORD_ALPHABET = UPPER + LOWER + DIGITS;

/**
 * A new client password (apply --generate-passwords, secrets reset), from node:crypto's CSPRNG:
 * `length` characters (at least PASSWORD_LENGTH) of PASSWORD_ALPHABET, each drawn uniformly
 * (randomInt rejects the draws that would bias it: no modulo bias), with at least one upper
 * case letter, one lower case letter and one digit, for panels whose password rules demand
 * them. A draw that lacks a class is drawn again whole (about 1.5% of draws), so every valid
 * password is equally likely: no position is forced to a class. `draw` (a uniform integer
 * below its bound) is for tests; the default is the CSPRNG.
 */
export function generatePassword(length = PASSWORD_LENGTH, draw: (bound: number) => number = randomInt): string {
  if (!Number.isSafeInteger(length) || length < PASSWORD_LENGTH)
    throw new RangeError(`a password is at least ${PASSWORD_LENGTH} characters`);
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i++) password += PASSWORD_ALPHABET.charAt(draw(PASSWORD_ALPHABET.length));
    if ([/[A-Z]/, /[a-z]/, /[0-9]/].every((set) => set.test(password))) return password;
  }
}
