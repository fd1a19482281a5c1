/**
 * A domain item of the manifest, as the domain's room reads it: a string (the name of a present
 * domain) or a mapping of the keys in DOMAIN_KEYS. The JSON Schema checks each key's type; the
 * manifest's stages read an item it accepted with domainItem, make the checks it cannot with
 * domainItemName and listedAgain, and word its refusals with the rows and DOMAIN_ITEM_SAYS.
 * Its settings (`php_version`, `https`, `redirect`) are rows of DOMAIN_KEYS of type `setting`,
 * read, checked and worded by manifest-settings.ts (itemSettings, settingRefused); its zone
 * (`dns`) is the row of type `zone`, read, checked and worded by the zone's room
 * (src/kinds/zone/manifest.ts: itemZone, zoneRefused). Pure.
 */
import { quote } from '../../escape.js';
import { isRecord } from '../../util.js';
import { normalizeDomain } from '../../names.js';
import type { FieldProblem } from '../common.js';
import { SETTING_ITEM_KEYS } from './manifest-settings.js';
import { DNS_KEY } from '../zone/manifest.js';

export * from './manifest-settings.js';
export * from '../zone/manifest.js';

/** One key of a domain item in object form, as the manifest's messages speak of it. */
export interface DomainKeyRow {
  readonly key: string;
  /**
   * The manifest's type of the value; `state` is `present` or `absent`; `setting` holds settings
   * (manifest-settings.ts words its refusals and reads its values); `zone` is the domain's DNS
   * zone (the zone's room words and reads it).
   */
  readonly type: 'string' | 'state' | 'setting' | 'zone';
  /** What the value is, in the message `"<key>" of domain #1 in client "x" must be a string: <says>`. */
  readonly says: string;
}

/** The key under which an item in object form names its domain. */
export const DOMAIN_NAME_KEY = 'name';

/** The keys of a domain item in object form, in the order the schema lists them. */
export const DOMAIN_KEYS: readonly DomainKeyRow[] = [
  { key: DOMAIN_NAME_KEY, type: 'string', says: 'a domain name' },
  { key: 'state', type: 'state', says: 'present or absent' },
  ...SETTING_ITEM_KEYS.map((key): DomainKeyRow => ({ key, type: 'setting', says: 'a setting of the domain' })),
  { key: DNS_KEY, type: 'zone', says: "the domain's DNS records" },
];

/** The object form, as messages show it. */
const EXAMPLE = `{${DOMAIN_NAME_KEY}: old.example.com, state: absent}`;

/**
 * What the manifest says of an item the schema refuses whole; `domain` names it
 * (`domain #2 in client "alice"`).
 */
export const DOMAIN_ITEM_SAYS = {
  notAnItem: (domain: string): string => `${domain} must be a domain name, or a mapping like ${EXAMPLE}`,
  noName: (domain: string): string => `${domain} has no "${DOMAIN_NAME_KEY}": add the domain's name, like ${EXAMPLE}`,
};

/** A domain item as the manifest gives it. */
export interface DomainItem {
  /** The name as written. */
  readonly input: string;
  /** `absent` only when the object form says `state: absent`: a string is a present domain. */
  readonly state: 'present' | 'absent';
  /** The key the name stands under, for its location: undefined in the string form (the item is its name). */
  readonly nameKey: string | undefined;
}

/** The item's name and state; undefined for a shape the schema refuses. */
export function domainItem(item: unknown): DomainItem | undefined {
  if (typeof item === 'string') return { input: item, state: 'present', nameKey: undefined };
  const name = isRecord(item) ? item[DOMAIN_NAME_KEY] : undefined;
  if (!isRecord(item) || typeof name !== 'string') return undefined;
  return { input: name, state: item.state === 'absent' ? 'absent' : 'present', nameKey: DOMAIN_NAME_KEY };
}

/**
 * The item's name as the engine compares it (lowercase ASCII, IDNs in punycode), or the error
 * for a name the manifest refuses; `client` names its client (`client "alice"`).
 */
export function domainItemName(input: string, client: string): { readonly name: string } | FieldProblem {
  const normalized = normalizeDomain(input);
  if ('name' in normalized) return normalized;
  return { severity: 'error', message: `domain ${quote(input)} in ${client} ${normalized.problem}` };
}

/** Where a domain was first listed in the manifest: as written, by which client, where (`line 3`, `a.yaml:3`). */
export interface FirstListing {
  readonly input: string;
  /** How messages name its client (`client "alice"`). */
  readonly client: string;
  readonly at: string;
}

/**
 * The error for a name listed again (as `input`, under `client`): a domain is listed once in
 * the whole manifest, present or absent, as it belongs to one client only. `sameClient`: the
 * first listing is under the same client. The first spelling is named when it differs (case, IDN).
 */
export function listedAgain(input: string, client: string, first: FirstListing, sameClient: boolean): string {
  const same = first.input === input ? '' : ` (same as ${quote(first.input)})`;
  return sameClient
    ? `domain ${quote(input)}${same} is listed twice in ${client} (first at ${first.at}): remove one`
    : `domain ${quote(input)}${same} is already listed under ${first.client} at ${first.at}: ` +
        'a domain belongs to one client only';
}
