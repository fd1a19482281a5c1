/**
 * A mailbox's export entry: the item a manifest lists under its domain for a mailbox as the panel
 * holds it, which the manifest reads back to the same mailbox (so a plan against the same panel
 * has no change): the local part as its name, the quota in its largest whole unit, aliases on
 * its own domain as local parts and others as whole addresses (their Unicode form when it reads
 * back the same), flags only when on, a description only when there is one; never a password.
 * What a manifest cannot hold is left out with the reason, for the caller's warning. Pure.
 */
import { LONE_SURROGATE } from '../common.js';
import { addressSet, normalizeAddress, unicodeAddress } from './address.js';
import { exportedQuota } from './quota.js';
import type { LiveMailbox } from './record.js';

/** A mailbox item as export writes it, keys in the schema's order. */
export interface MailboxEntry {
  readonly name: string;
  readonly quota?: string | 0;
  readonly aliases?: readonly string[];
  readonly forwardings?: readonly string[];
  readonly keep_copies?: true;
  readonly catch_all?: true;
  readonly description?: string;
}

/** What export makes of one mailbox: its entry (undefined when its address cannot be one), and what it leaves out, why. */
export interface ExportedMailbox {
  readonly entry: MailboxEntry | undefined;
  /** One sentence each: `its alias "x@y" is on a domain its client's entry does not list: aliases left out`. */
  readonly left: readonly string[];
}

/** An address as a manifest writes it: its Unicode form when that reads back the same, else the ASCII form. */
export function writtenAddress(address: string): string {
  const unicode = unicodeAddress(address);
  const back = normalizeAddress(unicode);
  return 'address' in back && back.address === address ? unicode : address;
}

/**
 * The entry of a live mailbox on `domain` (lowercase ASCII), whose client's entry lists
 * `clientDomains` (an alias elsewhere would be refused).
 */
export function mailboxEntry(live: LiveMailbox, domain: string, clientDomains: ReadonlySet<string>): ExportedMailbox {
  const address = normalizeAddress(live.address);
  if (!('address' in address) || address.address !== live.address || address.domain !== domain)
    return { entry: undefined, left: [`its address is not one the manifest accepts on ${domain}: left out`] };
  const left: string[] = [];
  const entry: { -readonly [K in keyof MailboxEntry]: MailboxEntry[K] } = { name: address.local };
  if (live.maxSize !== undefined) entry.quota = exportedQuota(live.maxSize);
  const aliases = writtenList(live.aliases, (alias) => {
    const read = normalizeAddress(alias);
    if (!('address' in read) || read.address !== alias) return undefined;
    if (read.domain === domain) return read.local;
    return clientDomains.has(read.domain) ? writtenAddress(alias) : undefined;
  });
  if (aliases === undefined)
    left.push('an alias is not an address, or is on a domain its client does not list: aliases left out');
  else if (aliases.length > 0) entry.aliases = aliases;
  const forwardings = writtenList(live.forwardings, (target) => {
    const read = normalizeAddress(target);
    return 'address' in read && read.address === target ? writtenAddress(target) : undefined;
  });
  if (forwardings === undefined) left.push('a forwarding is not an address: forwardings left out');
  else if (forwardings.length > 0) entry.forwardings = forwardings;
  if (live.storeForwardedEmails === true) entry.keep_copies = true;
  if (live.catchAll === true) entry.catch_all = true;
  if (live.description !== undefined && live.description !== '') {
    if (LONE_SURROGATE.test(live.description))
      left.push('its description is not valid Unicode, which a file cannot hold: left out');
    else entry.description = live.description;
  }
  return { entry, left };
}

/** Each address of a list as written (`write`), in address order; undefined when one cannot be. [] for none or unknown. */
function writtenList(
  list: readonly string[] | undefined,
  write: (address: string) => string | undefined,
): string[] | undefined {
  const written: string[] = [];
  for (const address of addressSet(list ?? [])) {
    const text = write(address);
    if (text === undefined) return undefined;
    written.push(text);
  }
  return written;
}
