/**
 * A domain's settings in the panel's own shapes (panel-api.md, "Records": the fields of
 * go-acme/lego's `get_domains.json` fixture): their defaults, their checks, and how a request
 * combines them with what a domain has. The real panel's rules are not documented; the
 * simulator chooses:
 * - Defaults of a new domain (POST, seed, system domain): `php_version` "" (the panel's default
 *   PHP), `security` all off with `id_certificate` 0 and `hsts_max_age` 0 (no HSTS, so no age),
 *   `target` the document root `/home/users/<username>/www/<domain>/` (the ASCII name) with
 *   `is_forwarding` false and `forwarding_type` 301. Also fixed, never changed by a request to
 *   /domains: `status` 1, `is_custom_dns` and `is_dns_disabled` false (they follow the domain's
 *   zone: zones.ts), `apache` with empty directives.
 *   Other fixture fields (`traffic`, `delete_on`, DKIM, e-mail flags) are not modelled.
 * - Types: `php_version` is "" or a version like "8.3" (null is refused); `security` booleans,
 *   `id_certificate` and `hsts_max_age` integers of 0 or more (certificates are not modelled:
 *   any id is taken); `target.target` a string, `is_forwarding` a boolean, `forwarding_type`
 *   the integer 301 or 302 (the string "301" a v1 tool sends is refused). No check across keys
 *   (forwarding to a path, HSTS without HTTPS are taken). A wrong type is a 400 naming the
 *   field, and nothing changes.
 * - Within `security` and `target` every key is known, so an unknown one (v1's `force_https`)
 *   is a 400: it would otherwise be dropped without a word.
 * - Creating (POST /domains, the seed): a nested object given is merged over the defaults, so
 *   `{security: {lets_encrypt: true}}` gives a whole security object.
 * - Updating (PUT /domains/{id}): a nested object given is taken whole: it replaces the stored
 *   one, and the keys it leaves out are gone (the record then shows only the keys sent). This
 *   is the strict reading of "partial update": a client must send back every nested key it read.
 */
import { isRecord } from '../util.js';

/** `security` as the panel shows it. */
export interface SimDomainSecurity {
  readonly id_certificate: number;
  readonly lets_encrypt: boolean;
  readonly is_prefer_https: boolean;
  readonly is_hsts: boolean;
  readonly hsts_max_age: number;
  readonly hsts_include: boolean;
  readonly hsts_preload: boolean;
}

/** `target`: the document root, or the URL forwarded to when `is_forwarding`. */
export interface SimDomainTarget {
  readonly target: string;
  readonly is_forwarding: boolean;
  /** The HTTP status of the forwarding: 301 or 302. */
  readonly forwarding_type: number;
}

/** The settings a request may set. A nested object is partial only after a PUT took it whole. */
export interface SimDomainSettings {
  readonly php_version: string;
  readonly security: Readonly<Partial<SimDomainSecurity>>;
  readonly target: Readonly<Partial<SimDomainTarget>>;
}

/** What a domain record carries beyond its identity and flags: the settings and the fixed fields. */
export interface SimDomainExtras extends SimDomainSettings {
  readonly status: number;
  readonly is_custom_dns: boolean;
  readonly is_dns_disabled: boolean;
  readonly apache: { readonly http_directives: string; readonly https_directives: string };
}

/** Settings as a request or a seed gives them, each optional, nested objects possibly partial. */
export type SettingsInput = Partial<SimDomainSettings>;

export const SETTING_KEYS = ['php_version', 'security', 'target'] as const;

/** Anything that may carry settings, of any type: a request body, a seed item. */
type Carrier = { readonly [key in (typeof SETTING_KEYS)[number]]?: unknown };

type Kind = 'boolean' | 'count' | 'string' | 'forwarding';

const SECURITY_KEYS: Readonly<Record<keyof SimDomainSecurity, Kind>> = {
  id_certificate: 'count',
  lets_encrypt: 'boolean',
  is_prefer_https: 'boolean',
  is_hsts: 'boolean',
  hsts_max_age: 'count',
  hsts_include: 'boolean',
  hsts_preload: 'boolean',
};

const TARGET_KEYS: Readonly<Record<keyof SimDomainTarget, Kind>> = {
  target: 'string',
  is_forwarding: 'boolean',
  forwarding_type: 'forwarding',
};

const WANTS: Readonly<Record<Kind, string>> = {
  boolean: 'a boolean',
  count: 'an integer of 0 or more',
  string: 'a string',
  forwarding: 'the integer 301 or 302',
};

const NESTED: readonly (readonly ['security' | 'target', Readonly<Record<string, Kind>>])[] = [
  ['security', SECURITY_KEYS],
  ['target', TARGET_KEYS],
];

const fits = (kind: Kind, value: unknown): boolean =>
  kind === 'boolean'
    ? typeof value === 'boolean'
    : kind === 'string'
      ? typeof value === 'string'
      : kind === 'count'
        ? Number.isSafeInteger(value) && (value as number) >= 0
        : value === 301 || value === 302;

/** A refused setting: the field (`php_version`, `security.lets_encrypt`) and what is wrong with it. */
export interface SettingProblem {
  readonly field: string;
  /** Follows the field in a sentence: "must be a boolean". */
  readonly fault: string;
}

/**
 * The first problem of the settings in `input` (keys other than SETTING_KEYS are not looked
 * at), or undefined when every one given is of the right type.
 */
export function settingsProblem(input: Carrier): SettingProblem | undefined {
  const php = input.php_version;
  if (php !== undefined && !(typeof php === 'string' && (php === '' || /^\d+\.\d+$/.test(php))))
    return { field: 'php_version', fault: 'must be "" (the default) or a version like "8.3"' };
  for (const [name, keys] of NESTED) {
    const value = input[name];
    if (value === undefined) continue;
    if (!isRecord(value)) return { field: name, fault: 'must be an object' };
    for (const [key, item] of Object.entries(value)) {
      const kind = Object.hasOwn(keys, key) ? keys[key] : undefined;
      if (kind === undefined)
        return { field: name, fault: `has no key ${JSON.stringify(key)} (its keys: ${Object.keys(keys).join(', ')})` };
      if (!fits(kind, item)) return { field: `${name}.${key}`, fault: `must be ${WANTS[kind]}` };
    }
  }
  return undefined;
}

/** The answer's message for a refused setting, in the style of the simulator's other 400s. */
export function settingMessage(problem: SettingProblem): string {
  return `The field '${problem.field}' ${problem.fault}.`;
}

/** What a new domain of this user and (ASCII) name carries before any setting is given. */
export function domainExtras(username: string, name: string): SimDomainExtras {
  return {
    status: 1,
    php_version: '',
    is_custom_dns: false,
    is_dns_disabled: false,
    target: { target: `/home/users/${username}/www/${name}/`, is_forwarding: false, forwarding_type: 301 },
    security: {
      id_certificate: 0,
      lets_encrypt: false,
      is_prefer_https: false,
      is_hsts: false,
      hsts_max_age: 0,
      hsts_include: false,
      hsts_preload: false,
    },
    apache: { http_directives: '', https_directives: '' },
  };
}

/**
 * `current` with the settings `given` (checked by settingsProblem) applied: `merge` (a create)
 * merges a nested object over the current one, `whole` (a PUT) puts it in its place.
 */
export function withSettings<T extends SimDomainSettings>(
  current: T,
  given: SettingsInput,
  nested: 'merge' | 'whole',
): T {
  const combine = <V extends object>(now: V, next: V | undefined): V =>
    next === undefined ? now : nested === 'merge' ? { ...now, ...next } : { ...next };
  return {
    ...current,
    php_version: given.php_version ?? current.php_version,
    security: combine(current.security, given.security),
    target: combine(current.target, given.target),
  };
}

/** The settings keys of a checked request body or seed item, without the rest. */
export function settingsOf(input: Carrier): SettingsInput {
  // The caller checked the values (settingsProblem): only the keys are picked here.
  return Object.fromEntries(SETTING_KEYS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}
