/**
 * The mailbox kind's record (and a seed's), its store lists (`mailboxes`, and
 * `mailboxPasswords`: a hash of each one's password, never the password) and the simulator's
 * reading of an address. kinds/mailbox.ts has its requests and seed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { domainToUnicode } from 'node:url';
import { normalizeDomain } from '../../names.js';
import { type ListRule, whole } from '../table.js';

/**
 * A mailbox as GET /emails answers it (docs/panel-api.md, the simulator's shape): addresses in
 * their ASCII form, lowercase, each list with its `_utf8` twin; `size` and `max_size` in bytes,
 * `max_size` 0 for unlimited.
 */
export interface SimMailbox {
  readonly id: number;
  readonly id_user: number;
  readonly email: string;
  readonly email_utf8: string;
  readonly description: string;
  /** The mail stored, in bytes: 0 for a new mailbox (a seed may give one). */
  readonly size: number;
  readonly max_size: number;
  readonly aliases: readonly string[];
  readonly aliases_utf8: readonly string[];
  readonly forwardings: readonly string[];
  readonly forwardings_utf8: readonly string[];
  readonly catch_all: boolean;
  readonly store_forwarded_emails: boolean;
}

/**
 * A mailbox of a seed domain (`domains: [{"name": "alice.example", "mailboxes": ["info"]}]`):
 * a local part, or an object with it. The fields are POST /emails's, `size` besides; aliases
 * and forwardings are full addresses, and an alias's domain must come before in the seed. No
 * `password`: the mailbox has none (`mailboxPasswordIs` answers false).
 */
export interface SimulatorSeedMailbox {
  readonly name: string;
  readonly password?: string;
  readonly description?: string;
  readonly max_size?: number;
  /** The mail stored, in bytes. Default 0. */
  readonly size?: number;
  readonly aliases?: readonly string[];
  readonly forwardings?: readonly string[];
  readonly catch_all?: boolean;
  readonly store_forwarded_emails?: boolean;
}

/** A mailbox's password as the simulator keeps it: salted SHA-256 (`sha256$<salt>$<digest>`), never the text. */
export interface SimMailboxPassword {
  readonly id: number;
  readonly hash: string;
}

/** An address read: the ASCII form (lowercase, the domain in punycode), its Unicode form, its domain. */
export interface Address {
  readonly address: string;
  readonly utf8: string;
  /** ASCII, lowercase: a key of the `domains` list. */
  readonly domain: string;
}

/** The characters of a local part (RFC 5322 atext, lowercase), in dot-separated runs. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/**
 * An address as the simulator reads it (the panel's rules are not documented): a local part of
 * at most 64 ASCII characters (atext in dot-separated runs), stored lowercase; '@'; a domain
 * name as POST /domains takes it, stored in its ASCII form. Or why it is none.
 */
export function readAddress(input: string): Address | { readonly problem: string } {
  const at = input.lastIndexOf('@');
  if (at <= 0 || at === input.length - 1) return { problem: 'is not an address like name@example.com' };
  const local = input.slice(0, at).toLowerCase();
  if (local.length > 64 || !LOCAL_PART.test(local))
    return {
      problem:
        "has an invalid local part: use at most 64 ASCII letters, digits, dots and ! # $ % & ' * + / = ? ^ _ ` { | } ~ -",
    };
  const domain = normalizeDomain(input.slice(at + 1));
  if ('problem' in domain) return { problem: `has a domain that ${domain.problem}` };
  return { address: `${local}@${domain.name}`, utf8: `${local}@${domainToUnicode(domain.name)}`, domain: domain.name };
}

/** The index key of the catch-all mailbox of a domain: no address has an empty local part. */
export const catchAllKey = (domain: string): string => `@${domain}`;

/** The domain part of a stored (ASCII) address. */
export const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1);

export function hashPassword(password: string): string {
  const salt = randomBytes(12).toString('base64url');
  return `sha256$${salt}$${createHash('sha256').update(`${salt}$${password}`, 'utf8').digest('hex')}`;
}

export function passwordMatches(hash: string, password: string): boolean {
  const [scheme, salt, digest] = hash.split('$');
  if (scheme !== 'sha256' || salt === undefined || digest === undefined) return false;
  const given = createHash('sha256').update(`${salt}$${password}`, 'utf8').digest();
  const stored = Buffer.from(digest, 'hex');
  return stored.length === given.length && timingSafeEqual(stored, given);
}

export const MAILBOX_LISTS = {
  mailboxes: {
    ...whole<SimMailbox>(),
    fields: ['id', 'id_user', 'email'],
    // Absent from files written before mailboxes came.
    optional: true,
    // Found by its address and each alias (one namespace across the panel), and as its domain's catch-all.
    key: (m) => [m.email, ...m.aliases, ...(m.catch_all ? [catchAllKey(domainOf(m.email))] : [])],
    lookup: (name) => {
      const read = readAddress(name);
      return 'address' in read ? read.address : name.toLowerCase();
    },
    sequence: 'nextMailboxId',
    deletable: true,
  },
  mailboxPasswords: { ...whole<SimMailboxPassword>(), fields: ['id', 'hash'], optional: true, ownedBy: 'mailboxes' },
} as const satisfies {
  mailboxes: ListRule<SimMailbox, SimMailbox>;
  mailboxPasswords: ListRule<SimMailboxPassword, SimMailboxPassword>;
};
