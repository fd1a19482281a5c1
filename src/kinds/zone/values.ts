/**
 * A DNS record's parts as a manifest gives them and a panel holds them: its host (relative to
 * the zone), its type, its value (checked per type) and its TTL. One row per type the engine
 * checks; a type outside the table is a warning, never an error (a panel may hold one, and
 * what export writes must validate). Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { quote } from '../../escape.js';
import type { FieldProblem } from '../common.js';

/** The TTLs a manifest may give, in seconds: one minute to thirty days. */
export const TTL_RANGE = { min: 60, max: 2_592_000 } as const;

/** The TTL of a record that gives none, in a zone that gives none (octoDNS's default). */
export const DEFAULT_TTL = 3600;

/** The longest TXT string a DNS message holds; longer values the panel splits into several. */
export const TXT_STRING_MAX = 255;

/** One type's check of a value: a problem (error or warning) or undefined. */
type ValueCheck = (value: string) => FieldProblem | undefined;

const error = (message: string): FieldProblem => ({ severity: 'error', message });
const warning = (message: string): FieldProblem => ({ severity: 'warning', message });

/** A host name as a record's target: labels of letters, digits, `-` and `_`, absolute with a trailing dot or relative. */
const TARGET =
  /^(?:\*\.)?(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.)*[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.?$/;

function target(what: string): ValueCheck {
  return (value) =>
    value === '@' || value === '.' || TARGET.test(value)
      ? undefined
      : error(`must be a host name (${what}), like mail.example.com. or mail`);
}

function uint(text: string | undefined, max: number): boolean {
  return text !== undefined && /^[0-9]{1,5}$/.test(text) && Number(text) <= max;
}

/** The checks per record type, by the upper-case type. */
export const RECORD_TYPES: Readonly<Record<string, { readonly says: string; readonly check: ValueCheck }>> = {
  A: {
    says: 'an IPv4 address, like 192.0.2.10',
    check: (v) => (isIPv4(v) ? undefined : error('must be an IPv4 address, like 192.0.2.10')),
  },
  AAAA: {
    says: 'an IPv6 address, like 2001:db8::10',
    check: (v) => (isIPv6(v) ? undefined : error('must be an IPv6 address, like 2001:db8::10')),
  },
  CNAME: { says: 'a host name', check: target('the name this one is an alias of') },
  NS: { says: 'a host name', check: target('a name server') },
  MX: {
    says: '"priority host", like "10 mail.example.com."',
    check: (v) => {
      const [priority, host, ...rest] = v.split(' ');
      if (rest.length > 0 || !uint(priority, 65535) || host === undefined || target('')(host) !== undefined)
        return error('must be "priority host", like "10 mail.example.com." (priority 0-65535)');
      return undefined;
    },
  },
  SRV: {
    says: '"priority weight port target", like "10 5 5060 sip.example.com."',
    check: (v) => {
      const [priority, weight, port, host, ...rest] = v.split(' ');
      if (
        rest.length > 0 ||
        !uint(priority, 65535) ||
        !uint(weight, 65535) ||
        !uint(port, 65535) ||
        host === undefined ||
        target('')(host) !== undefined
      )
        return error('must be "priority weight port target", like "10 5 5060 sip.example.com." (numbers 0-65535)');
      return undefined;
    },
  },
  CAA: {
    says: '"flags tag value", like "0 issue \\"letsencrypt.org\\""',
    check: (v) => {
      const match = /^([0-9]{1,3}) ([A-Za-z0-9]+) (.+)$/.exec(v);
      if (match === null || Number(match[1]) > 255)
        return error('must be "flags tag value", like "0 issue \\"letsencrypt.org\\"" (flags 0-255)');
      const tag = (match[2] ?? '').toLowerCase();
      return ['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc'].includes(tag)
        ? undefined
        : warning(`has the CAA tag ${quote(match[2] ?? '')}, which certificate authorities do not know`);
    },
  },
  TXT: {
    says: 'text',
    check: (v) =>
      v.length > TXT_STRING_MAX
        ? warning(
            `is ${v.length} characters long: a DNS string holds ${TXT_STRING_MAX}; ` +
              'the panel splits it into several (check the result with dig)',
          )
        : undefined,
  },
};

/** The types the engine checks, for messages. */
export const CHECKED_TYPES = Object.keys(RECORD_TYPES);

/** What the manifest's checks say of a record's value for its type (upper-case); undefined when nothing. */
export function checkValue(type: string, value: string): FieldProblem | undefined {
  if (value === '') return error('is empty: give the record a value');
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return error('holds a control character (a newline, a tab): remove it');
  const row = RECORD_TYPES[type];
  if (row === undefined)
    return /^[A-Z][A-Z0-9]{0,9}$/.test(type)
      ? warning(
          `is of type ${type}, whose values panel-provision does not check (it checks ${CHECKED_TYPES.join(', ')})`,
        )
      : error(`has the type ${quote(type)}: a record type is letters and digits, like ${CHECKED_TYPES.join(', ')}`);
  return row.check(value);
}

/** A relative host label sequence: `@`, `www`, `_dmarc`, `*.shop`, `_acme-challenge.shop`. */
const HOST = /^(?:\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * A record's host in its comparison form (lowercase, `@` for the zone's apex), or the error for
 * a host the manifest refuses: an absolute name (`www.alice.example.`) is said relative when it
 * lies in the zone, and refused as another zone's when it does not.
 */
export function recordHost(input: string, zone: string): { readonly host: string } | { readonly problem: string } {
  const host = input.trim().toLowerCase();
  if (host === '' || host === '@') return { host: '@' };
  if (host.endsWith('.')) {
    const name = host.slice(0, -1);
    if (name === zone) return { problem: `is the zone's own name: write "@"` };
    if (name.endsWith(`.${zone}`))
      return { problem: `is absolute: write it relative to the zone, as ${quote(name.slice(0, -zone.length - 1))}` };
    return { problem: `is a name in another zone than ${quote(zone)}: its records belong in that zone` };
  }
  if (host === zone || host.endsWith(`.${zone}`))
    return {
      problem:
        `ends with the zone's name: hosts are relative, so it would mean ${quote(`${host}.${zone}`)}; ` +
        `write ${host === zone ? '"@"' : quote(host.slice(0, -zone.length - 1))}`,
    };
  if (!HOST.test(host))
    return { problem: 'must be "@" or labels of letters, digits, "-" and "_" (a leading "*." for a wildcard)' };
  return { host };
}

/** Whether a TTL is in TTL_RANGE. */
export function ttlInRange(ttl: number): boolean {
  return Number.isSafeInteger(ttl) && ttl >= TTL_RANGE.min && ttl <= TTL_RANGE.max;
}
