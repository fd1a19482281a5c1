/**
 * A mailbox's address: its comparison form (the local part and the domain in lowercase ASCII,
 * an international domain in punycode), its Unicode form for people, and what is wrong with text
 * that is not an address. The identity of a mailbox, an alias and a forwarding alike. Pure.
 */
import { domainToUnicode } from 'node:url';
import { quote, safeText } from '../../escape.js';
import { globMatcher, isNormalDomain, normalizeDomain } from '../../names.js';
import { compare } from '../../util.js';

/** An address in comparison form, and its two parts. */
export interface Address {
  /** `info@xn--bcher-kva.example`: lowercase ASCII. */
  readonly address: string;
  /** `info`: lowercase ASCII. */
  readonly local: string;
  /** `xn--bcher-kva.example`: lowercase ASCII (normalizeDomain). */
  readonly domain: string;
}

/** What an address looks like, as messages show it. */
export const ADDRESS_EXAMPLE = 'info@example.com';

/** The longest local part (RFC 5321) and the longest address a mailbox can have. */
export const LOCAL_MAX = 64;
export const ADDRESS_MAX = 254;

/** A dot-atom of RFC 5322 in lowercase: the characters a local part may hold unquoted. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/**
 * Whether `input` is a local part in comparison form already (a lowercase dot-atom: normalizeLocalPart
 * gives it back as it is, when it is at most LOCAL_MAX long).
 */
export function isPlainLocalPart(input: string): boolean {
  return LOCAL_PART.test(input);
}

/**
 * A local part (`info`, `Info.Desk`) in comparison form (lowercase), or what is wrong with it as
 * the end of a sentence about it (`is empty`, `has spaces around it`, ...).
 */
export function normalizeLocalPart(input: string): { readonly local: string } | { readonly problem: string } {
  if (input === '') return { problem: 'is empty: write the part before the "@", like info' };
  if (input.trim() !== input) return { problem: 'has spaces around it: write it without them' };
  const local = input.toLowerCase();
  if (local.includes('@')) return { problem: 'holds an "@": write only the part before it, like info' };
  if (local.length > LOCAL_MAX) return { problem: `is longer than ${LOCAL_MAX} characters` };
  if (LOCAL_PART.test(local)) return { local };
  if (/[^\x21-\x7e]/.test(local))
    return {
      problem:
        'holds a space, a control or a non-ASCII character: use letters a-z, digits and . _ - + ' +
        '(an international name is for the domain only)',
    };
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..'))
    return { problem: 'has a dot at its start or end, or two in a row: write dots only between other characters' };
  return { problem: 'holds a character an address cannot hold unquoted: use letters a-z, digits and . _ - +' };
}

/**
 * An address in comparison form (Address), or what is wrong with it as the end of a sentence
 * about it: `is not an address: write one like info@example.com`, `has an invalid domain: ...`.
 * Refused, never rewritten, but for case and the domain's IDN form.
 */
export function normalizeAddress(input: string): Address | { readonly problem: string } {
  if (input.trim() === '') return { problem: `is empty: write an address like ${ADDRESS_EXAMPLE}` };
  if (input.trim() !== input) return { problem: 'has spaces around it: write it without them' };
  const at = input.lastIndexOf('@');
  if (at < 0) return { problem: `has no "@": write a whole address like ${ADDRESS_EXAMPLE}` };
  if (input.indexOf('@') !== at)
    return { problem: `holds more than one "@": write one address like ${ADDRESS_EXAMPLE}` };
  const local = normalizeLocalPart(input.slice(0, at));
  if ('problem' in local) return { problem: `has a local part (before the "@") that ${local.problem}` };
  const domain = normalizeDomain(input.slice(at + 1));
  if ('problem' in domain) return { problem: `has a domain (after the "@") that ${domain.problem}` };
  const address = `${local.local}@${domain.name}`;
  if (address.length > ADDRESS_MAX) return { problem: `is longer than ${ADDRESS_MAX} characters` };
  return { address, local: local.local, domain: domain.name };
}

/**
 * The address of local part `local` (in comparison form) on `domain`, as normalizeAddress of
 * `local@domain` gives it: without its steps when the domain is in comparison form already (a
 * domain item's name), which holds for every item of a `mailboxes` list.
 */
export function addressOn(local: string, domain: string): Address | { readonly problem: string } {
  const address = `${local}@${domain}`;
  const plain = local.length <= LOCAL_MAX && address.length <= ADDRESS_MAX && LOCAL_PART.test(local);
  if (plain && isNormalDomain(domain)) return { address, local, domain };
  return normalizeAddress(address);
}

/**
 * An address of a lowercase dot-atom local part (LOCAL_PART) on a plain ASCII domain: two labels or
 * more, each of a-z, 0-9 and inner hyphens, 1 to 63 long, none an international label's `xn--`,
 * the last starting with a letter (never read as a number). The domain's read (names.ts) gives such
 * a domain back as it is: a sufficient test of isNormalAddress's, in one match (its lengths aside).
 */
const PLAIN_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:(?!xn--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?!xn--)[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether `input` is an address in comparison form already (normalizeAddress gives it back as it
 * is), checked without building the answer: a lowercase dot-atom local part, one "@", a domain
 * in comparison form (names.ts isNormalDomain). The panel sends most addresses so.
 */
export function isNormalAddress(input: string): boolean {
  // Most addresses: one match, without the domain's read (isNormalDomain, a look-up of its slice).
  if (input.length <= ADDRESS_MAX && PLAIN_ADDRESS.test(input) && input.indexOf('@') <= LOCAL_MAX) return true;
  const at = input.indexOf('@');
  if (at <= 0 || at > LOCAL_MAX || input.length > ADDRESS_MAX) return false;
  // The local part's pattern holds no "@" and no space, and only lowercase letters: it is its own comparison form.
  return LOCAL_PART.test(input.slice(0, at)) && isNormalDomain(input.slice(at + 1));
}

/**
 * An address as the panel holds it, in comparison form: normalised (normalizeAddress), or, for one
 * the manifest would refuse, lowercased as it is (the panel has it: it must still be seen).
 */
export function addressOf(raw: string): string {
  const normal = normalizeAddress(raw);
  return 'address' in normal ? normal.address : raw.toLowerCase();
}

/** The domain of an address in comparison form (after its last "@"); '' when it has none. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1);
}

/** The Unicode form of an address in comparison form: its domain decoded (`info@bücher.example`); the address itself when none. */
export function unicodeAddress(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  if (at < 0 || !domain.includes('xn--')) return address;
  const unicode = domainToUnicode(domain);
  return unicode === '' ? address : `${address.slice(0, at)}@${unicode}`;
}

/**
 * ` (info@bücher.example)` beside an address whose domain has a Unicode form, so people can read
 * it; else ''. Data like the address (safeText).
 */
export function unicodeAddressForm(address: string): string {
  const unicode = unicodeAddress(address);
  return unicode === address ? '' : ` (${safeText(unicode)})`;
}

/** `"info@alice.example"`: an address in running text, as data. */
export function addressText(address: string): string {
  return quote(address);
}

/**
 * The order addresses are listed in: by domain (labels read from the right, as domains are),
 * then by local part. Code-unit comparison: the same everywhere.
 */
export function addressOrder(a: string, b: string): number {
  const da = domainOf(a).split('.').reverse().join('.');
  const db = domainOf(b).split('.').reverse().join('.');
  return compare(da, db) || compare(a, b);
}

/**
 * A list of addresses in comparison form, each once, in addressOrder: the form in which aliases
 * and forwardings compare (their order and repeats never a difference).
 */
export function addressSet(addresses: readonly string[]): readonly string[] {
  return [...new Set(addresses)].sort(addressOrder);
}

/** Whether two lists of addresses in comparison form hold the same addresses, order and repeats aside. */
export function sameAddresses(a: readonly string[], b: readonly string[]): boolean {
  const x = addressSet(a);
  const y = addressSet(b);
  return x.length === y.length && x.every((address, i) => address === y[i]);
}

/**
 * The test of `prune.keep` patterns against addresses in comparison form: `*` any run of
 * characters, `?` one, case-insensitive, the whole address (`info@*`, `*@alice.example`); an
 * address is kept when a pattern matches it or its Unicode form.
 */
export function addressKeepMatcher(patterns: readonly string[]): (address: string) => boolean {
  const matches = globMatcher(patterns);
  return (address) => matches(address) || matches(unicodeAddress(address));
}
