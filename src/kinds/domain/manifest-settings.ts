/**
 * A domain item's settings as the manifest gives them (`php_version`, `https: {lets_encrypt,
 * force, hsts}`, `redirect`), one row per setting of SETTING_ROWS: where the item holds it, how
 * the schema's refusals of it are worded, the value it gives (defaults filled in) and the checks
 * the schema cannot make. The manifest's stages loop over MANIFEST_SETTING_ROWS: itemSettings for
 * the values and checks, settingRefused for the schema's refusals. Pure.
 *
 * Defaults: `hsts: {...}` needs `max_age`; `include_subdomains` and `preload` are false when left
 * out. `redirect: {...}` needs `to`; `status` is 301 when left out. `https: {}` manages nothing
 * (a warning): each setting is managed only when given.
 *
 * Validation never refuses what a panel can hold (export's output must validate: docs/adoption.md): every value export writes (what
 * the rows' `unwritable` accepts: any MAJOR.MINOR version, any max_age of 0 or more, any absolute
 * http(s) URL without user info or characters it needs percent-encoded (url.ts), 301 or 302) is
 * taken; odd but possible values are warnings. A panel's URL that the manifest refuses is left
 * out by export, with a warning that names the encoded URL to write.
 */
import { quote } from '../../escape.js';
import { isRecord } from '../../util.js';
import type { FieldProblem } from '../common.js';
import {
  type DomainSetting,
  type DomainSettings,
  type DomainSettingTypes,
  isHttpUrl,
  PHP_VERSION,
  REDIRECT_STATUSES,
} from './settings.js';
import { redirectUrlProblem } from './url.js';

/** A problem of an item's settings, at `path` in the item (`['https', 'hsts', 'max_age']`). */
export interface SettingProblem extends FieldProblem {
  readonly path: readonly [string, ...string[]];
  /** Point at the key the path ends with rather than at its value. */
  readonly atKey?: boolean;
}

/** One setting as the manifest holds it. */
interface ManifestSettingRow<K extends DomainSetting> {
  readonly key: K;
  /** Where the item holds it: `['php_version']`, `['https', 'force']`. */
  readonly path: readonly [string, ...string[]];
  /**
   * The message for the schema's refusal (`keyword`) of the value at `rest` under the setting
   * (`[]`: the setting's value; `['max_age']`), from that value; undefined when another of the
   * errors the schema gives for it says it. `subject` names the setting (`"https.hsts" of domain …`).
   */
  refused(rest: readonly (string | number)[], keyword: string, value: unknown, subject: string): string | undefined;
  /** The value with its defaults, from one the schema accepts; undefined for any other (the schema reports it). */
  take(value: unknown): DomainSettingTypes[K] | undefined;
  /** What the schema cannot check of a taken value: each problem at a path under the setting. */
  check(value: DomainSettingTypes[K], subject: string, domain: string | undefined): RowProblem[];
}

interface RowProblem extends FieldProblem {
  readonly rest: readonly string[];
}

/** How a setting's messages name it: `"https.hsts" of domain "a.example" in client "alice"`. */
const subjectOf = (key: string, domain: string): string => `"${key}" of ${domain}`;

/** `, not "yes"` for a scalar that was written; nothing for a collection or null. */
function written(value: unknown): string {
  if (typeof value === 'string') return `, not ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `, not ${String(value)}`;
  return '';
}

const mustBeBoolean = (subject: string, value: unknown): string => `${subject} must be true or false${written(value)}`;

/** The setting of a key inside it (`"https.hsts.max_age"` from `"https.hsts"`). */
const inner = (subject: string, key: string): string => subject.replace(/^"([^"]*)"/, `"$1.${key}"`);

const phpVersion: ManifestSettingRow<'php_version'> = {
  key: 'php_version',
  path: ['php_version'],
  refused: (_rest, _keyword, value, subject) => {
    if (typeof value === 'number')
      return (
        `${subject} must be quoted, like php_version: "8.3": ` +
        `YAML reads an unquoted version as a number (8.10 as 8.1), not ${String(value)}`
      );
    if (typeof value !== 'string') return `${subject} must be a string: a PHP version like "8.3", or "default"`;
    const hint = value.trim().toLowerCase() === 'default' ? ': did you mean "default"?' : '';
    return `${subject} must be a PHP version MAJOR.MINOR like "8.3", or "default"${written(value)}${hint}`;
  },
  take: (value) => (typeof value === 'string' && (value === 'default' || PHP_VERSION.test(value)) ? value : undefined),
  check: () => [],
};

function flagRow<K extends 'https.lets_encrypt' | 'https.force'>(key: K, name: string): ManifestSettingRow<K> {
  return {
    key,
    path: ['https', name],
    refused: (_rest, _keyword, value, subject) => mustBeBoolean(subject, value),
    take: (value) => (typeof value === 'boolean' ? value : undefined),
    check: () => [],
  };
}

/** One year: what preload lists ask of max_age, and the age messages suggest. */
const ONE_YEAR = 31536000;
/** Two years: the longest age hstspreload.org recommends. */
const TWO_YEARS = 63072000;
/** Under five minutes, browsers forget the policy almost at once. */
const SHORT_AGE = 300;
const HSTS_EXAMPLE = `hsts: {max_age: ${ONE_YEAR}}`;

const hsts: ManifestSettingRow<'https.hsts'> = {
  key: 'https.hsts',
  path: ['https', 'hsts'],
  refused: (rest, keyword, value, subject) => {
    const [field] = rest;
    if (field === 'max_age')
      return `${inner(subject, 'max_age')} must be a whole number of seconds, 0 or more, like ${ONE_YEAR} (one year)${written(value)}`;
    if (field !== undefined) return mustBeBoolean(inner(subject, String(field)), value);
    if (isRecord(value))
      return keyword === 'required'
        ? `${subject} has no "max_age": add one, like ${HSTS_EXAMPLE} (one year)`
        : undefined;
    // Not false and not a mapping: said once (for the anyOf), not for each branch.
    if (keyword !== 'anyOf') return undefined;
    return value === true
      ? `${subject} must be false or a mapping: write ${HSTS_EXAMPLE} (one year) to turn HSTS on`
      : `${subject} must be false, or a mapping like {max_age: ${ONE_YEAR}, include_subdomains: true}${written(value)}`;
  },
  take: (value) => {
    if (value === false) return false;
    if (!isRecord(value)) return undefined;
    const { max_age, include_subdomains = false, preload = false } = value;
    if (typeof max_age !== 'number' || !Number.isInteger(max_age) || max_age < 0) return undefined;
    if (typeof include_subdomains !== 'boolean' || typeof preload !== 'boolean') return undefined;
    return { max_age, include_subdomains, preload };
  },
  check: (value, subject) => {
    if (value === false) return [];
    const problems: RowProblem[] = [];
    const age = inner(subject, 'max_age');
    const { max_age } = value;
    if (!Number.isSafeInteger(max_age))
      problems.push({
        rest: ['max_age'],
        severity: 'error',
        message: `${age} is too large: at most ${Number.MAX_SAFE_INTEGER} (two years is ${TWO_YEARS})`,
      });
    else if (max_age === 0)
      problems.push({
        rest: ['max_age'],
        severity: 'warning',
        message: `${age} is 0: browsers drop the HTTPS-only rule at once; write hsts: false to turn HSTS off`,
      });
    else if (max_age < SHORT_AGE)
      problems.push({
        rest: ['max_age'],
        severity: 'warning',
        message: `${age} is ${max_age} seconds: under ${SHORT_AGE} (5 minutes), browsers forget the HTTPS-only rule almost at once; one year is ${ONE_YEAR}`,
      });
    else if (max_age > TWO_YEARS)
      problems.push({
        rest: ['max_age'],
        severity: 'warning',
        message: `${age} is ${max_age} seconds: over two years (${TWO_YEARS}, the longest hstspreload.org recommends); is it a typo?`,
      });
    if (value.preload) {
      const preload = inner(subject, 'preload');
      if (max_age < ONE_YEAR)
        problems.push({
          rest: ['preload'],
          severity: 'warning',
          message: `${preload} is true with max_age under ${ONE_YEAR} (one year): preload lists refuse it; raise max_age, or set preload: false`,
        });
      if (!value.include_subdomains)
        problems.push({
          rest: ['preload'],
          severity: 'warning',
          message: `${preload} is true without include_subdomains: preload lists refuse it; set include_subdomains: true, or preload: false`,
        });
    }
    return problems;
  },
};

const REDIRECT_EXAMPLE = '{to: "https://example.com/", status: 301}';

/** The host a URL names, lowercase ASCII without a trailing dot; undefined when it names none. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/\.$/, '').toLowerCase();
  } catch {
    return undefined;
  }
}

const redirect: ManifestSettingRow<'redirect'> = {
  key: 'redirect',
  path: ['redirect'],
  refused: (rest, keyword, value, subject) => {
    const [field] = rest;
    if (field === 'to')
      return `${inner(subject, 'to')} must be a string: an absolute http(s) URL like "https://example.com/"`;
    if (field === 'status')
      return `${inner(subject, 'status')} must be 301 (moved permanently) or 302 (found: temporary)${written(value)}`;
    if (field !== undefined) return undefined;
    if (isRecord(value))
      return keyword === 'required'
        ? `${subject} has no "to": add the URL to redirect to, like redirect: ${REDIRECT_EXAMPLE}`
        : undefined;
    if (keyword !== 'anyOf') return undefined;
    return `${subject} must be false, or a mapping like ${REDIRECT_EXAMPLE}${written(value)}`;
  },
  take: (value) => {
    if (value === false) return false;
    if (!isRecord(value)) return undefined;
    const { to, status = 301 } = value;
    if (typeof to !== 'string') return undefined;
    // A status the schema refuses is its error (and then the manifest gives no Desired): `to`
    // is still checked, so that both problems are reported together.
    return { to, status: typeof status === 'number' && REDIRECT_STATUSES.includes(status) ? status : Number.NaN };
  },
  check: (value, subject, domain) => {
    if (value === false) return [];
    const to = inner(subject, 'to');
    if (!isHttpUrl(value.to))
      return [
        {
          rest: ['to'],
          severity: 'error',
          message: `${to} must be an absolute http or https URL with a host, like "https://example.com/"${written(value.to)}`,
        },
      ];
    const unsafe = redirectUrlProblem(value.to);
    if (unsafe !== undefined)
      return [
        {
          rest: ['to'],
          severity: 'error',
          message:
            `${to} ${unsafe.what}: ` +
            (unsafe.instead === undefined
              ? 'write the URL without them'
              : `write ${quote(unsafe.instead)} instead (the same URL, encoded)`),
        },
      ];
    if (domain !== undefined && hostOf(value.to) === domain)
      return [
        {
          rest: ['to'],
          severity: 'warning',
          message: `${to} points at the domain itself (${quote(value.to)}): a redirect loop; point it at another host`,
        },
      ];
    return [];
  },
};

/** The settings, in SETTING_ROWS' order. */
const MANIFEST_SETTING_ROWS: readonly ManifestSettingRow<DomainSetting>[] = [
  phpVersion,
  flagRow('https.lets_encrypt', 'lets_encrypt'),
  flagRow('https.force', 'force'),
  hsts,
  redirect,
] as readonly ManifestSettingRow<DomainSetting>[];

/** The item's keys that hold settings, in the schema's order: `https` is a group of three. */
export const SETTING_ITEM_KEYS: readonly string[] = [...new Set(MANIFEST_SETTING_ROWS.map((row) => row.path[0]))];

/** The group key of settings inside it (`https`), and what it holds. */
const GROUPS: ReadonlyMap<string, readonly string[]> = new Map(
  SETTING_ITEM_KEYS.map((key) => [
    key,
    MANIFEST_SETTING_ROWS.filter((row) => row.path.length > 1 && row.path[0] === key).map((row) => row.path[1] ?? ''),
  ]),
);

/** `"a"`, `"a" and "b"`, `"a", "b" or "c"`. */
function quoteList(keys: readonly string[], and: 'and' | 'or'): string {
  const quoted = keys.map((key) => `"${key}"`);
  const last = quoted.pop() ?? '';
  return quoted.length === 0 ? last : `${quoted.join(', ')} ${and} ${last}`;
}

/**
 * How settings messages name a domain item: by its name as written (`domain "a.example" in
 * client "alice"`), or by its place (`domain #2 in client "alice"`) when it has no name.
 */
export function settingsDomainLabel(item: unknown, index: number, client: string): string {
  const name = isRecord(item) ? item.name : undefined;
  return typeof name === 'string' ? `domain ${quote(name)} in ${client}` : `domain #${index + 1} in ${client}`;
}

/**
 * The message for the schema's refusal (`keyword`) of the value at `path` in a domain item
 * (`['https', 'hsts', 'max_age']`); undefined when the path holds no setting or another error
 * says it. `domain` names the item (settingsDomainLabel).
 */
export function settingRefused(
  path: readonly (string | number)[],
  keyword: string,
  value: unknown,
  domain: string,
): string | undefined {
  const [key] = path;
  const group = typeof key === 'string' ? GROUPS.get(key) : undefined;
  if (group !== undefined && group.length > 0 && path.length === 1) {
    if (isRecord(value)) return undefined; // its keys' own errors say it
    return `${subjectOf(String(key), domain)} must be a mapping with ${quoteList(group, 'or')}${written(value)}`;
  }
  const row = MANIFEST_SETTING_ROWS.find((r) => r.path.every((segment, i) => path[i] === segment));
  return row?.refused(path.slice(row.path.length), keyword, value, subjectOf(row.key, domain));
}

/** Where an unknown key of a settings mapping stands, for its message: `in "https.hsts" of domain …`. */
export function settingsPlace(path: readonly (string | number)[], domain: string): string {
  return `in ${subjectOf(path.join('.'), domain)}`;
}

/**
 * The settings a domain item gives (undefined when it gives none: a string item, or a mapping
 * without settings), and the problems the schema cannot find: each value's own checks, an empty
 * group (`https: {}`, a warning), settings on an item marked `state: absent` (an error).
 * `domain` names the item (settingsDomainLabel); `name` is its ASCII name when it is valid (for
 * a redirect to itself).
 */
export function itemSettings(
  item: unknown,
  domain: string,
  name: string | undefined,
): { readonly settings: DomainSettings | undefined; readonly problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  if (!isRecord(item)) return { settings: undefined, problems };
  const given = SETTING_ITEM_KEYS.filter((key) => item[key] !== undefined);
  const [first] = given;
  if (first === undefined) return { settings: undefined, problems };
  if (item.state === 'absent') {
    problems.push({
      path: [first],
      atKey: true,
      severity: 'error',
      message:
        `${domain} has state: absent and settings (${quoteList(given, 'and')}): ` +
        'a domain that is deleted has none; remove the settings, or the state',
    });
    return { settings: undefined, problems };
  }
  for (const key of given) {
    const value = item[key];
    const group = GROUPS.get(key) ?? [];
    if (group.length > 0 && isRecord(value) && Object.keys(value).length === 0)
      problems.push({
        path: [key],
        severity: 'warning',
        message: `${subjectOf(key, domain)} is empty: it manages nothing; give ${quoteList(group, 'or')}, or remove it`,
      });
  }
  const settings: Record<string, unknown> = {};
  for (const row of MANIFEST_SETTING_ROWS) {
    let value: unknown = item;
    for (const segment of row.path) value = isRecord(value) ? value[segment] : undefined;
    if (value === undefined) continue;
    const taken = row.take(value);
    if (taken === undefined) continue; // the schema refuses it
    settings[row.key] = taken;
    for (const { rest, ...problem } of row.check(taken, subjectOf(row.key, domain), name))
      problems.push({ ...problem, path: [...row.path, ...rest] });
  }
  return { settings: Object.keys(settings).length === 0 ? undefined : settings, problems };
}
