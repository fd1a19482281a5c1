/**
 * The hosts a database's user may connect from (`remote_hosts`): an IP address (`192.0.2.10`,
 * `2001:db8::10`), a network in CIDR form (`192.0.2.0/24`, `2001:db8::/32`) or a host name
 * (`db.example.net`); [] is local only. One form for comparing: IPv6 compressed and lowercase,
 * a host name in lowercase ASCII (names.ts normalizeDomain), a list as a sorted set. Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { normalizeDomain } from '../../names.js';
import { compare } from '../../util.js';

/** What a remote host must be, for people. */
export const REMOTE_HOST_RULE =
  'an IP address (192.0.2.10), a network in CIDR form (192.0.2.0/24) or a host name (db.example.net); [] allows local connections only';

/** IPv6 in its shortest form (the URL parser's: lowercase, zeros compressed). */
function ipv6(text: string): string {
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

/** An IPv4 address as a 32-bit number. */
function ipv4Number(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** A 32-bit number as an IPv4 address. */
function ipv4Text(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** A network `address/prefix`, in comparison form, or what is wrong with it. */
function network(address: string, prefix: string): { readonly host: string } | { readonly problem: string } {
  if (!/^\d{1,3}$/.test(prefix))
    return { problem: `has a prefix length ${JSON.stringify(prefix)} that is not a number` };
  const bits = Number(prefix);
  if (isIPv4(address)) {
    if (bits > 32) return { problem: 'has a prefix length over 32 (an IPv4 network is /0 to /32)' };
    const size = 2 ** (32 - bits);
    const n = ipv4Number(address);
    const base = n - (n % size);
    if (base !== n)
      return { problem: `has bits set past its prefix: write the network's first address, ${ipv4Text(base)}/${bits}` };
    return { host: `${address}/${bits}` };
  }
  if (isIPv6(address)) {
    if (bits > 128) return { problem: 'has a prefix length over 128 (an IPv6 network is /0 to /128)' };
    return { host: `${ipv6(address)}/${bits}` };
  }
  return { problem: 'is not a network: before the "/" write an IP address, like 192.0.2.0/24' };
}

/**
 * A remote host in comparison form, or what is wrong with it as the end of a sentence
 * (`is not ...: write ...`).
 */
export function normalizeRemoteHost(input: string): { readonly host: string } | { readonly problem: string } {
  const text = input.trim();
  if (text === '') return { problem: `is empty: write ${REMOTE_HOST_RULE}` };
  if (text !== input) return { problem: 'has spaces around it' };
  const slash = text.indexOf('/');
  if (slash >= 0) return network(text.slice(0, slash), text.slice(slash + 1));
  if (isIPv4(text)) return { host: text };
  if (isIPv6(text)) return { host: ipv6(text) };
  if (/[%*]/.test(text))
    return { problem: `holds a wildcard ("%" or "*"): write ${REMOTE_HOST_RULE}; a network covers many addresses` };
  const name = normalizeDomain(text);
  if ('problem' in name)
    return { problem: `is not a remote host (as a host name it ${name.problem}): write ${REMOTE_HOST_RULE}` };
  return { host: name.name };
}

/** Each host once, sorted: the form a list is compared, sent and shown in. */
export function hostSet(hosts: readonly string[]): readonly string[] {
  return [...new Set(hosts)].sort(compare);
}

/** Whether two lists hold the same hosts, order and repeats aside. */
export function sameHosts(a: readonly string[], b: readonly string[]): boolean {
  const x = hostSet(a);
  const y = hostSet(b);
  return x.length === y.length && x.every((h, i) => h === y[i]);
}

/**
 * A host as the panel's record holds it, in comparison form when it is one; else as written
 * (trimmed, lowercase): a panel may store what the manifest cannot write (a MySQL wildcard),
 * which then differs from every list the manifest gives, never an error.
 */
export function readRemoteHost(text: string): string {
  const read = normalizeRemoteHost(text.trim());
  return 'host' in read ? read.host : text.trim().toLowerCase();
}
