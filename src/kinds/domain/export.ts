/**
 * A domain's export entry: which of its settings, as the panel holds them, a manifest writes
 * (those that differ from the panel's default and that the manifest can hold), and the
 * manifest's nested form of them (`https: {force: true}` for `https.force`); and whether a domain
 * has a zone of its own a manifest can manage (isSubdomain). Pure.
 */
import {
  type DomainSetting,
  type DomainSettings,
  type DomainSettingTypes,
  type Hsts,
  type LiveDomainSettings,
  type Redirect,
  SETTING_ROWS,
} from './settings.js';
import type { LiveDomain } from './record.js';

/** The settings in the manifest's nested form, each key only when given (the dotted names split at the dot). */
export interface NestedSettings {
  readonly php_version?: string;
  readonly https?: {
    readonly lets_encrypt?: boolean;
    readonly force?: boolean;
    readonly hsts?: false | Hsts;
  };
  readonly redirect?: false | Redirect;
}

/** A domain item as export writes it: its name alone, or `{name, ...settings}` when it has settings to write. */
export type DomainEntry = string | ({ readonly name: string } & NestedSettings);

/**
 * A setting the panel holds that a manifest cannot: the row's reason, and the value as read;
 * for HSTS or forwarding on whose details do not read, `true` (on) and which keys do not read.
 */
export interface UnwritableSetting {
  readonly field: DomainSetting;
  readonly value: DomainSettingTypes[DomainSetting];
  readonly reason: string;
}

/** What export makes of one domain's settings as read. */
export interface ExportedSettings {
  /** The settings to write: each one the record shows, not the panel's default, and writable. */
  readonly settings: DomainSettings;
  /** Those the manifest cannot hold, HSTS or forwarding on without readable details too (left out: the caller warns). */
  readonly unwritable: readonly UnwritableSetting[];
  /** Those the record does not show (left out: not managed). */
  readonly unknown: readonly DomainSetting[];
}

/**
 * The settings export writes of a domain whose record carries `live` (undefined: none shown),
 * in table order: a default value is left out (the manifest need not say it), so is one the
 * manifest cannot hold (`unwritable`) and one the record does not show (`unknown`). HSTS or
 * forwarding that is on but whose details do not read is not the default: it is `unwritable`
 * (a warning naming the domain and the setting), never dropped silently.
 */
export function exportedSettings(live: LiveDomainSettings | undefined): ExportedSettings {
  const settings: Partial<Record<DomainSetting, unknown>> = {};
  const unwritable: UnwritableSetting[] = [];
  const unknown: DomainSetting[] = [];
  for (const row of SETTING_ROWS) {
    const value = live === undefined ? undefined : row.read(live);
    if (value === undefined) {
      if (live !== undefined && row.on?.(live) === true) {
        const keys = row.unread(live);
        unwritable.push({
          field: row.key,
          value: true,
          reason: `turned on, but ${keys.join(', ')} ${keys.length === 1 ? 'does' : 'do'} not read`,
        });
      } else unknown.push(row.key);
      continue;
    }
    if (row.isDefault(value)) continue;
    const reason = row.unwritable(value);
    if (reason === undefined) settings[row.key] = value;
    else unwritable.push({ field: row.key, value, reason });
  }
  return { settings: settings as DomainSettings, unwritable, unknown };
}

/**
 * The settings in the manifest's nested form, in table order: each dotted name split at its
 * dots (`https.hsts` → `https: {hsts: ...}`); a value is the manifest's (hsts and redirect
 * objects as they are, their keys in the order the manifest writes them).
 */
export function nestedSettings(settings: DomainSettings): NestedSettings {
  const nested: Record<string, unknown> = {};
  for (const row of SETTING_ROWS) {
    const value = settings[row.key];
    if (value === undefined) continue;
    const path = row.key.split('.');
    const last = path.pop() as string;
    let into = nested;
    for (const part of path) into = (into[part] ??= {}) as Record<string, unknown>;
    into[last] = ordered(value);
  }
  return nested;
}

/** A domain's export entry: `text` (its written name) alone when no setting is written, else the object form. */
export function domainEntry(text: string, settings: DomainSettings): DomainEntry {
  const nested = nestedSettings(settings);
  return Object.keys(nested).length === 0 ? text : { name: text, ...nested };
}

/** A value with its keys in the manifest's order (a panel's answer may give them in any). */
function ordered(value: DomainSettingTypes[DomainSetting]): unknown {
  if (typeof value !== 'object') return value;
  if ('max_age' in value)
    return { max_age: value.max_age, include_subdomains: value.include_subdomains, preload: value.preload };
  return { to: value.to, status: value.status };
}

/**
 * Whether `domain` has no zone a manifest can manage: a subdomain as its record says, or a
 * domain a parent of whose name the panel has (in `domains`, by name) under the same client
 * (the manifest refuses `dns` there), or, when its record does not say, under any.
 */
export function isSubdomain(
  domain: Pick<LiveDomain, 'name' | 'idUser' | 'isSubdomain'>,
  domains: ReadonlyMap<string, Pick<LiveDomain, 'idUser'>>,
): boolean {
  if (domain.isSubdomain === true) return true;
  const labels = domain.name.split('.');
  return labels.some((_, i) => {
    if (i === 0 || i === labels.length - 1) return false;
    const parent = domains.get(labels.slice(i).join('.'));
    return parent !== undefined && (domain.isSubdomain === undefined || parent.idUser === domain.idUser);
  });
}
