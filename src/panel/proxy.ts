import { BlockList, isIP } from 'node:net';
import { ProvisionError } from '../errors.js';
import { isLoopback } from './url.js';

/** The proxy one panel's requests go through, chosen from an environment (see proxySettings). */
export interface ProxyChoice {
  /** The proxy URL, credentials included, for the connection pool; undefined: direct. */
  readonly url: string | undefined;
  /** The same for people: its origin only (a proxy URL may carry a password); undefined: direct. */
  readonly used: string | undefined;
}

/**
 * The proxy for `panel` from `env` (the CLI passes its environment; nothing reads process.env
 * behind its back), as curl chooses one:
 *
 * - https:// panels use HTTPS_PROXY, falling back to HTTP_PROXY; http:// panels HTTP_PROXY.
 *   The lowercase form of each wins over the uppercase one.
 * - A loopback panel (localhost, 127.0.0.0/8, [::1]) is never proxied: its traffic, and the key
 *   in it, never leave the machine, which is why plain http:// is accepted for it.
 * - NO_PROXY (comma- or space-separated) exempts the panel: `*` every host; a host name exempts
 *   itself and its subdomains (a leading `.` or `*.` changes nothing); an IP address itself, a
 *   CIDR range (`10.0.0.0/8`, `fd00::/8`) every address in it; `:port` limits an entry to a port.
 *   Entries are compared with the URL's host as written: names are not resolved.
 */
export function proxySettings(env: Readonly<Record<string, string | undefined>>, panel: URL): ProxyChoice {
  const pick = (name: string): string => (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '').trim();
  const http = pick('http_proxy');
  const https = pick('https_proxy');
  for (const [name, value] of [
    ['HTTP_PROXY', http],
    ['HTTPS_PROXY', https],
  ] as const) {
    if (value !== '' && !/^https?:\/\/[^/]/i.test(value)) {
      // The value is not echoed: a proxy URL may carry a password.
      throw new ProvisionError('usage', `${name} (or its lowercase form) is not an http:// or https:// URL`, {
        hint: 'set it like http://proxy.example:3128 (user:password@ allowed), or unset it',
      });
    }
  }
  const chosen = panel.protocol === 'https:' ? https || http : http;
  if (chosen === '' || isLoopback(panel.hostname) || exempt(pick('no_proxy'), panel))
    return { url: undefined, used: undefined };
  return { url: chosen, used: withoutCredentials(chosen) };
}

/** Whether NO_PROXY exempts `panel` (see proxySettings). */
function exempt(noProxy: string, panel: URL): boolean {
  const host = panel.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = Number(panel.port) || (panel.protocol === 'https:' ? 443 : 80);
  const family = isIP(host);
  for (const raw of noProxy.split(/[,\s]+/).filter(Boolean)) {
    if (raw === '*') return true;
    const { name, entryPort } = splitPort(raw.toLowerCase());
    if (entryPort !== undefined && entryPort !== port) continue;
    if (family !== 0) {
      if (inRange(name, host, family)) return true;
      continue;
    }
    const suffix = name.replace(/^\*?\./, '');
    if (suffix !== '' && (host === suffix || host.endsWith(`.${suffix}`))) return true;
  }
  return false;
}

/** `host:port`, `[v6]:port`, `[v6]`, a bare v6 address or range, or a name. */
function splitPort(entry: string): { name: string; entryPort: number | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null)
    return {
      name: bracketed[1] ?? '',
      entryPort: bracketed[2] === undefined ? undefined : Number(bracketed[2]),
    };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort !== null) return { name: withPort[1] ?? '', entryPort: Number(withPort[2]) };
  return { name: entry, entryPort: undefined };
}

/** Whether the IP address `host` is `entry` (an address, or a CIDR range of the same family). */
function inRange(entry: string, host: string, family: number): boolean {
  const [address = '', bits] = entry.split('/');
  const entryFamily = isIP(address);
  if (entryFamily !== family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  if (bits === undefined) list.addAddress(address, type);
  else {
    const prefix = Number(bits);
    if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) return false;
    list.addSubnet(address, prefix, type);
  }
  return list.check(host, type);
}

function withoutCredentials(proxy: string): string {
  try {
    return new URL(proxy).origin;
  } catch {
    return 'an unreadable proxy URL';
  }
}
