/**
 * A domain's managed settings, one row each: the manifest's dotted name, where the panel keeps
 * it (the top-level `php_version`, or a key of the nested `security` or `target` object), how it
 * is read back, compared and written into a request. Every stage loops over SETTING_ROWS; a new
 * setting is a row here plus the manifest schema and the simulator. Pure.
 *
 * The panel's nested objects are sent whole: an update writes the managed keys into the object
 * as read, so the keys no manifest manages (a certificate id, a document root) go back as they
 * were, whether the panel merges nested objects or replaces them.
 */
import { canonical, isRecord, type JsonObject, type JsonValue } from '../../util.js';
import { readFlag as flag } from '../common.js';
import { unsafeTarget } from './url.js';

/** HTTP Strict Transport Security as the manifest gives it (`https.hsts`). */
export interface Hsts {
  readonly max_age: number;
  readonly include_subdomains: boolean;
  readonly preload: boolean;
}

/** Forwarding to a URL as the manifest gives it (`redirect`). */
export interface Redirect {
  readonly to: string;
  /** 301 or 302 in a manifest; a panel may hold another (then export cannot write it). */
  readonly status: number;
}

/** Each setting's value, in the manifest's terms; `false` turns HSTS or forwarding off. */
export interface DomainSettingTypes {
  /** `"8.3"`, or `"default"`: the panel's default (read back as `""` or null). */
  php_version: string;
  'https.lets_encrypt': boolean;
  'https.force': boolean;
  'https.hsts': false | Hsts;
  redirect: false | Redirect;
}

/** A setting's dotted manifest name, as plan JSON's `fields` say it. */
export type DomainSetting = keyof DomainSettingTypes;

/** The settings a manifest gives for a domain; one left out is not managed. */
export type DomainSettings = { readonly [K in DomainSetting]?: DomainSettingTypes[K] };

/** The settings a panel turns on and off with a flag, with details beside it: HSTS and forwarding. */
export type SwitchedSetting = 'https.hsts' | 'redirect';

/**
 * A setting's value on the panel as a plan compares it: its value in the manifest's terms, or
 * for HSTS or forwarding `true`: on, with details that do not read. That is enough to turn it
 * off, not to compare it with an object.
 */
export type SettingBefore<K extends DomainSetting> = DomainSettingTypes[K] | (K extends SwitchedSetting ? true : never);

/** One setting that differs, in the manifest's terms. */
export type SettingChange = {
  [K in DomainSetting]: {
    readonly field: K;
    readonly before: SettingBefore<K>;
    readonly after: DomainSettingTypes[K];
  };
}[DomainSetting];

/**
 * The settings part of a domain record as read: `php_version` as the panel gave it, and the
 * nested objects when the record carries them as objects (anything else: not carried, so the
 * settings in them are unknown). Kept raw: an update sends the objects back whole.
 */
export interface LiveDomainSettings {
  readonly php_version?: JsonValue;
  readonly security?: JsonObject;
  readonly target?: JsonObject;
}

/** The panel's nested objects a setting lives in. */
export type SettingObject = 'security' | 'target';

/** The request body's settings: top-level `php_version`, nested objects whole. */
export type SettingsBody = { php_version?: string; security?: JsonObject; target?: JsonObject };

/** One row of the table: everything the stages need of one setting. */
export interface SettingRow<K extends DomainSetting> {
  readonly key: K;
  /** The nested object it lives in; undefined for a top-level key. */
  readonly object: SettingObject | undefined;
  /** The panel's keys it reads, for messages (`security.is_prefer_https`). */
  readonly panelKeys: string;
  /** Its value on the panel, in the manifest's terms; undefined when the record does not show it. */
  read(live: LiveDomainSettings): DomainSettingTypes[K] | undefined;
  /**
   * HSTS and forwarding: whether the flag alone says on (true) or off (false); undefined when it
   * does not read. Absent for the other settings.
   */
  readonly on?: (live: LiveDomainSettings) => boolean | undefined;
  /**
   * The panel's keys that do not read, for messages (`security.hsts_preload`; the object's name
   * when the record lacks it): why `read` gave undefined, or why an `on` setting's details do not read.
   */
  unread(live: LiveDomainSettings): readonly string[];
  /** Writes the value into `into`: the nested object being sent, or the body for a top-level key. */
  write(into: Record<string, JsonValue>, value: DomainSettingTypes[K]): void;
  /** Whether this is the panel's default for a new domain (export leaves it out). */
  isDefault(value: DomainSettingTypes[K]): boolean;
  /** Why a manifest cannot hold this value as read (export warns and leaves it out); undefined when it can. */
  unwritable(value: DomainSettingTypes[K]): string | undefined;
}

/** MAJOR.MINOR, as the manifest takes a PHP version. */
export const PHP_VERSION = /^[0-9]{1,3}\.[0-9]{1,3}$/;

/** 301 or 302: what a manifest's redirect may ask for. */
export const REDIRECT_STATUSES: readonly number[] = [301, 302];

/** A whole number, or one in a string (PHP panels send numbers so); else undefined. */
function whole(value: JsonValue | undefined): number | undefined {
  const n = typeof value === 'string' && /^-?[0-9]{1,15}$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** How a row reads one key of the panel's object: its value, or undefined when it does not read. */
type KeyReader = (value: JsonValue | undefined) => JsonValue | undefined;

/**
 * The keys of `object` whose value does not read, named `<object>.<key>`: the first (the flag)
 * alone when it does not read; `[object]` when the record lacks the object.
 */
function unreadKeys(live: LiveDomainSettings, object: SettingObject, checks: readonly [string, KeyReader][]): string[] {
  const o = live[object];
  if (o === undefined) return [object];
  const unread = checks.filter(([key, check]) => check(o[key]) === undefined).map(([key]) => `${object}.${key}`);
  return unread[0] === `${object}.${checks[0]?.[0]}` ? unread.slice(0, 1) : unread;
}

/**
 * A key the row owns as it goes back when the row turns its setting off: a number or a flag
 * that reads from a string (`"302"`, `"1"`) as the number or the boolean (the fixture's types);
 * anything else, or a key the object lacks, as read.
 */
function retype(into: Record<string, JsonValue>, key: string, read: KeyReader): void {
  const value = typeof into[key] === 'string' ? read(into[key]) : undefined;
  if (value !== undefined) into[key] = value;
}

/** The first of `keys` the object carries (a setting the panel spells two ways), or the first key. */
function spelling(object: Readonly<Record<string, JsonValue>>, keys: readonly [string, ...string[]]): string {
  return keys.find((k) => object[k] !== undefined) ?? keys[0];
}

/** A boolean setting in a nested object, read under any of its spellings and written under each the object has. */
function flagRow<K extends 'https.lets_encrypt' | 'https.force'>(
  key: K,
  object: SettingObject,
  keys: readonly [string, ...string[]],
): SettingRow<K> {
  return {
    key,
    object,
    panelKeys: `${object}.${keys[0]}`,
    read: (live) => {
      const o = live[object];
      return o === undefined ? undefined : flag(o[spelling(o, keys)]);
    },
    unread: (live) => {
      const o = live[object];
      return o === undefined ? [object] : [`${object}.${spelling(o, keys)}`];
    },
    write: (into, value) => {
      // The fixture's spelling always; another spelling the panel showed is kept in step with it.
      for (const k of keys) if (k === keys[0] || into[k] !== undefined) into[k] = value;
    },
    isDefault: (value) => value === false,
    unwritable: () => undefined,
  };
}

const phpVersion: SettingRow<'php_version'> = {
  key: 'php_version',
  object: undefined,
  panelKeys: 'php_version',
  read: (live) => {
    const v = live.php_version;
    if (v === undefined) return undefined;
    if (v === null || (typeof v === 'string' && v.trim() === '')) return 'default';
    // A number is read as it prints, a whole one with its ".0" (JSON's 8.0 arrives as 8); 8.10
    // arrives as 8.1 and cannot be told from it. A negative or exponent form is not a version.
    if (typeof v === 'number') {
      const text = Number.isInteger(v) ? `${v}.0` : String(v);
      return /^[0-9]+\.[0-9]+$/.test(text) ? text : undefined;
    }
    return typeof v === 'string' ? v.trim() : undefined;
  },
  unread: () => ['php_version'],
  write: (into, value) => {
    into.php_version = value === 'default' ? '' : value;
  },
  isDefault: (value) => value === 'default',
  unwritable: (value) => (value === 'default' || PHP_VERSION.test(value) ? undefined : 'not a MAJOR.MINOR version'),
};

const hsts: SettingRow<'https.hsts'> = {
  key: 'https.hsts',
  object: 'security',
  panelKeys: 'security.is_hsts, hsts_max_age, hsts_include, hsts_preload',
  read: (live) => {
    const o = live.security;
    if (o === undefined) return undefined;
    const on = flag(o.is_hsts);
    if (on !== true) return on;
    const max_age = whole(o.hsts_max_age);
    const include_subdomains = flag(o.hsts_include);
    const preload = flag(o.hsts_preload);
    if (max_age === undefined || include_subdomains === undefined || preload === undefined) return undefined;
    return { max_age, include_subdomains, preload };
  },
  on: (live) => (live.security === undefined ? undefined : flag(live.security.is_hsts)),
  unread: (live) =>
    unreadKeys(live, 'security', [
      ['is_hsts', flag],
      ['hsts_max_age', whole],
      ['hsts_include', flag],
      ['hsts_preload', flag],
    ]),
  write: (into, value) => {
    into.is_hsts = value !== false;
    if (value === false) {
      // Off: the details stay as read, in the fixture's types when they read.
      retype(into, 'hsts_max_age', whole);
      retype(into, 'hsts_include', flag);
      retype(into, 'hsts_preload', flag);
      return;
    }
    into.hsts_max_age = value.max_age;
    into.hsts_include = value.include_subdomains;
    into.hsts_preload = value.preload;
  },
  isDefault: (value) => value === false,
  unwritable: (value) => (value !== false && value.max_age < 0 ? 'a negative max_age' : undefined),
};

const redirect: SettingRow<'redirect'> = {
  key: 'redirect',
  object: 'target',
  panelKeys: 'target.is_forwarding, target, forwarding_type',
  read: (live) => {
    const o = live.target;
    if (o === undefined) return undefined;
    const on = flag(o.is_forwarding);
    if (on !== true) return on;
    const status = whole(o.forwarding_type);
    return typeof o.target === 'string' && status !== undefined ? { to: o.target, status } : undefined;
  },
  on: (live) => (live.target === undefined ? undefined : flag(live.target.is_forwarding)),
  unread: (live) =>
    unreadKeys(live, 'target', [
      ['is_forwarding', flag],
      ['target', (v) => (typeof v === 'string' ? v : undefined)],
      ['forwarding_type', whole],
    ]),
  write: (into, value) => {
    // Off: the flag; `target` stays as read (the panel's document root, or the old URL: the
    // plan's reason says so), `forwarding_type` too, as an integer when it reads as one.
    into.is_forwarding = value !== false;
    if (value === false) {
      retype(into, 'forwarding_type', whole);
      return;
    }
    into.target = value.to;
    into.forwarding_type = value.status;
  },
  isDefault: (value) => value === false,
  unwritable: (value) =>
    value === false
      ? undefined
      : !REDIRECT_STATUSES.includes(value.status)
        ? `forwarding type ${value.status} (a manifest takes 301 or 302)`
        : !isHttpUrl(value.to)
          ? 'a target that is not an absolute http(s) URL'
          : unsafeTarget(value.to),
};

/** The settings, in the order the manifest lists them and requests carry them. */
export const SETTING_ROWS: readonly SettingRow<DomainSetting>[] = [
  phpVersion,
  flagRow('https.lets_encrypt', 'security', ['lets_encrypt']),
  flagRow('https.force', 'security', ['is_prefer_https', 'force_https']),
  hsts,
  redirect,
];

const BY_KEY = new Map<string, SettingRow<DomainSetting>>(SETTING_ROWS.map((row) => [row.key, row]));

/** The row of a setting. */
export function settingRow<K extends DomainSetting>(key: K): SettingRow<K> {
  return BY_KEY.get(key) as unknown as SettingRow<K>;
}

/**
 * Whether `text` is an absolute http or https URL with a host (what a redirect may point at).
 * No white space or control character anywhere: `new URL` drops tabs and line breaks silently,
 * and a panel would send the text as given.
 */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text) || URL_UNSAFE.test(text)) return false;
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const URL_UNSAFE = /[\s\u0000-\u001f\u007f-\u009f]/;

/**
 * A setting as a plan compares it (SettingBefore): its value as read; for HSTS or forwarding whose
 * flag says on but whose details do not read, `true`; undefined when the record does not show it.
 */
export function settingBefore<K extends DomainSetting>(
  row: SettingRow<K>,
  live: LiveDomainSettings,
): SettingBefore<K> | undefined {
  const value = row.read(live);
  if (value !== undefined) return value;
  return row.on?.(live) === true ? (true as SettingBefore<K>) : undefined;
}

/** The settings a manifest gives, each in table order, as `[row, value]`. */
export function givenSettings(
  settings: DomainSettings | undefined,
): readonly (readonly [SettingRow<DomainSetting>, DomainSettingTypes[DomainSetting]])[] {
  if (settings === undefined) return [];
  const given: [SettingRow<DomainSetting>, DomainSettingTypes[DomainSetting]][] = [];
  for (const row of SETTING_ROWS) {
    const value = settings[row.key];
    if (value !== undefined) given.push([row, value]);
  }
  return given;
}

/** Whether two values of a setting are the same (JSON equality: key order aside). */
export function sameSetting(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * The request body's settings: each value written by its row into the body (top level) or into
 * its nested object, which starts from the object as read (`live`; empty for a new domain).
 */
export function settingsBody(
  values: readonly { readonly field: DomainSetting; readonly after: unknown }[],
  live: LiveDomainSettings,
): SettingsBody {
  const body: Record<string, JsonValue> = {};
  for (const { field, after } of values) {
    const row = settingRow(field);
    if (row.object === undefined) {
      row.write(body, after as never);
      continue;
    }
    const into = (body[row.object] ??= { ...(live[row.object] ?? {}) }) as Record<string, JsonValue>;
    row.write(into, after as never);
  }
  return body;
}

/**
 * How deep a nested object's values may nest (the panel's own are flat). One deeper is not
 * carried: an update sends it back whole, and hashing or printing a value nested thousands deep
 * overflows the stack.
 */
export const MAX_OBJECT_DEPTH = 16;

/** Whether `value` nests at most `depth` levels of objects and arrays (stops looking past that). */
function shallow(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth === 0) return false;
  return Object.values(value).every((item) => shallow(item, depth - 1));
}

/** A nested settings object as read: an object (not an array, not null) of bounded depth; else undefined. */
function settingsObject(value: unknown): JsonObject | undefined {
  return isRecord(value) && shallow(value, MAX_OBJECT_DEPTH) ? (value as JsonObject) : undefined;
}

/** The settings part of a domain record as read (see LiveDomainSettings). */
export function readSettings(record: Readonly<Record<string, unknown>>): LiveDomainSettings | undefined {
  const { php_version } = record;
  const security = settingsObject(record.security);
  const target = settingsObject(record.target);
  const settings: { php_version?: JsonValue; security?: JsonObject; target?: JsonObject } = {};
  if (php_version !== undefined) settings.php_version = php_version as JsonValue;
  if (security !== undefined) settings.security = security;
  if (target !== undefined) settings.target = target;
  return Object.keys(settings).length === 0 ? undefined : settings;
}
