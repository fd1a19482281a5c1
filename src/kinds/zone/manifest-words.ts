/**
 * How the manifest's messages speak of a domain's `dns` block: its parts' names (`"dns.ttl" of
 * domain "a.example" in client "alice"`, `"value" of "dns" record #2 of domain …`), and the
 * words for the JSON Schema's refusals of its values (zoneRefused) and for where an unknown key
 * stands (zonePlace). Pure.
 */
import { quote } from '../../escape.js';
import { isRecord } from '../../util.js';
import { TTL_RANGE } from './values.js';

/** The key of a domain item that holds its zone. */
export const DNS_KEY = 'dns';

/** A record as messages show one: the shape a manifest writes. */
export const RECORD_EXAMPLE = '{host: "@", type: A, value: 192.0.2.10}';

/** A `keep` pattern as messages show one. */
export const KEEP_EXAMPLE = '"_acme-challenge*"';

/** `"dns.ttl" of domain "a.example" in client "alice"`, from the domain's label. */
export const dnsPart = (key: string | undefined, domain: string): string =>
  `"${key === undefined ? DNS_KEY : `${DNS_KEY}.${key}`}" of ${domain}`;

/** `"dns" record #2 of domain "a.example" in client "alice"` (`index` from 0). */
export const recordLabel = (index: number, domain: string): string => `"${DNS_KEY}" record #${index + 1} of ${domain}`;

/** `"value" of "dns" record #2 of domain …`. */
export const recordField = (field: string, index: number, domain: string): string =>
  `"${field}" of ${recordLabel(index, domain)}`;

/** How a TTL must be written, for messages. */
export const TTL_SAYS =
  `a whole number of seconds from ${TTL_RANGE.min} to ${TTL_RANGE.max} ` +
  '(one minute to 30 days), like 3600 (one hour)';

/** `, not "yes"` for a scalar that was written; nothing for a collection or null. */
function written(value: unknown): string {
  if (typeof value === 'string') return `, not ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `, not ${String(value)}`;
  return '';
}

/** What a record's value that is not a string is told: YAML read a number or a boolean. */
function valueNotAString(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean')
    return (
      `must be a string: YAML reads an unquoted ${String(value)} as a ${typeof value === 'number' ? 'number' : 'boolean'}; ` +
      'quote it, like value: "10 mail.example.com."'
    );
  if (value === null) return 'is empty: give the record a value';
  return 'must be a string: the record\'s value, like 192.0.2.10 or "10 mail.example.com."';
}

/**
 * The message for the schema's refusal (`keyword`) of the value at `path` in a domain item
 * (`['dns']`, `['dns', 'records', 2, 'ttl']`, …; `value` is what stands there; `missing`, the
 * key a `required` refusal names); undefined when another of the errors the schema gives for it
 * says it. `domain` names the item (settingsDomainLabel).
 */
export function zoneRefused(
  path: readonly (string | number)[],
  keyword: string,
  value: unknown,
  domain: string,
  missing?: string,
): string | undefined {
  const [, field, index, key] = path;
  switch (field) {
    case undefined:
      if (!isRecord(value))
        return (
          `${dnsPart(undefined, domain)} must be a mapping with "records" (and optionally "ttl", "prune", "keep"), ` +
          `like dns: {records: [${RECORD_EXAMPLE}]}${written(value)}`
        );
      return keyword === 'required'
        ? `${dnsPart(undefined, domain)} has no "records": add the list, like records: [${RECORD_EXAMPLE}] (records: [] for none)`
        : undefined;
    case 'ttl':
      return `${dnsPart('ttl', domain)} must be ${TTL_SAYS}${written(value)}`;
    case 'prune':
      return `${dnsPart('prune', domain)} must be true or false${written(value)}`;
    case 'keep':
      if (index !== undefined)
        return `pattern #${Number(index) + 1} in ${dnsPart('keep', domain)} must be a string, like ${KEEP_EXAMPLE}`;
      return typeof value === 'string'
        ? `${dnsPart('keep', domain)} must be a list of host patterns: write [${JSON.stringify(value)}]`
        : `${dnsPart('keep', domain)} must be a list of host patterns, like [${KEEP_EXAMPLE}]${value === null ? ' (write "keep: []" for none)' : ''}`;
    case 'records':
      return recordRefused(index, key, keyword, value, domain, missing);
    default:
      return undefined;
  }
}

function recordRefused(
  index: string | number | undefined,
  key: string | number | undefined,
  keyword: string,
  value: unknown,
  domain: string,
  missing: string | undefined,
): string | undefined {
  if (index === undefined)
    return (
      `${dnsPart('records', domain)} must be a list of records, like [${RECORD_EXAMPLE}]` +
      (value === null ? ' (write "records: []" for none)' : written(value))
    );
  const i = Number(index);
  switch (key) {
    case undefined:
      if (!isRecord(value))
        return `${recordLabel(i, domain)} must be a mapping with "host", "type" and "value", like ${RECORD_EXAMPLE}${written(value)}`;
      return keyword === 'required' && missing !== undefined ? recordMissing(i, missing, domain) : undefined;
    case 'host':
      return `${recordField('host', i, domain)} must be a string: "@" for the domain itself, or a name relative to it, like www`;
    case 'type':
      return `${recordField('type', i, domain)} must be a string: a record type like A, AAAA, CNAME, MX or TXT`;
    case 'value':
      return `${recordField('value', i, domain)} ${valueNotAString(value)}`;
    case 'ttl':
      return `${recordField('ttl', i, domain)} must be ${TTL_SAYS}${written(value)}`;
    default:
      return undefined;
  }
}

/** A record's missing key, for the schema's `required` refusal of a record. */
function recordMissing(index: number, key: string, domain: string): string {
  const example =
    key === 'host' ? 'host: "@" (the domain itself) or host: www' : key === 'type' ? 'type: A' : 'value: 192.0.2.10';
  return `${recordLabel(index, domain)} has no "${key}": add one, like ${example}`;
}

/** Where an unknown key under `dns` stands (`path` from `dns` on), for its message. */
export function zonePlace(path: readonly (string | number)[], domain: string): string {
  const [, field, index] = path;
  if (field === 'records' && index !== undefined && path.length === 3)
    return `in ${recordLabel(Number(index), domain)}`;
  return `in ${dnsPart(undefined, domain)}`;
}
