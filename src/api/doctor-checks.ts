/**
 * The checks of `provision doctor` after the key (doctor.ts runs them in order, within its
 * deadline): the lists' shapes, the client and domain fields the engine manages, a zone read
 * whole, the panel's version; and the helpers every check shares. Messages hold the panel's
 * names and values as data (quoted).
 */
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { CLIENT_FIELDS, liveValue, type LiveClient } from '../kinds/client/index.js';
import { type LiveDomain, SETTING_ROWS } from '../kinds/domain.js';
import type { PanelClient } from '../panel/client.js';
import { PanelHttpError } from '../panel/errors.js';
import { findClientById } from '../panel/read.js';
import { readRecords } from '../panel/list-read.js';
import { parseDomainRecord } from '../kinds/domain/read.js';
import { readZone } from '../kinds/zone/read.js';
import { isRecord, plural } from '../util.js';

/** The checks, in the order they run and are reported. */
export const DOCTOR_CHECKS = [
  'reachable',
  'api',
  'key',
  'lists',
  'client_fields',
  'domain_fields',
  'zones',
  'version',
] as const;

export type DoctorCheckId = (typeof DOCTOR_CHECKS)[number];

/** `ok`: holds; `failed`: does not (the message says what to do); `not_checked`: nothing to look at, or an earlier check failed (the message says why). */
export type DoctorStatus = 'ok' | 'failed' | 'not_checked';

/** The settings each nested object (or top-level key) of a domain record holds, as a manifest names them. */
const SETTINGS_IN = ['php_version', 'security', 'target'] as const;

export type Outcome = readonly [DoctorCheckId, DoctorStatus, string];
export type Read<T> = { readonly records: T[] } | { readonly error: ProvisionError };
/** The domain list: read, failed, or missing (404 or 405: a panel without GET /domains). */
export type DomainList = Read<LiveDomain> | { readonly missing: number };

/** An error's message and what to do about it, on one line. */
export function withHint(error: ProvisionError): string {
  const message = error.message.replace(/\s+/g, ' ').replace(/\.$/, '');
  return error.hint === undefined ? message : `${message}; what to do: ${error.hint}`;
}

/** A ProvisionError as thrown; anything else (a bug) is thrown on. */
export function asProvisionError(error: unknown): ProvisionError {
  if (error instanceof ProvisionError) return error;
  throw error;
}

export async function attempt<T>(read: () => Promise<T[]>): Promise<Read<T>> {
  try {
    return { records: await read() };
  } catch (error) {
    return { error: asProvisionError(error) };
  }
}

export async function readDomainList(panel: PanelClient): Promise<DomainList> {
  const read = await attempt(() => readRecords(panel, '/domains', parseDomainRecord));
  if ('error' in read && read.error instanceof PanelHttpError && [404, 405].includes(read.error.status))
    return { missing: read.error.status };
  return read;
}

export function listsCheck(
  panel: PanelClient,
  plans: Read<unknown>,
  clients: Read<unknown>,
  domains: DomainList,
): Outcome {
  const failures = [plans, clients, domains].flatMap((read) => ('error' in read ? [withHint(read.error)] : []));
  if (failures.length > 0) return ['lists', 'failed', failures.join(' | ')];
  const n = (read: DomainList | Read<unknown>): number => ('records' in read ? read.records.length : 0);
  const counts = [plural(n(plans), 'hosting plan'), plural(n(clients), 'client')];
  if ('missing' in domains) {
    return [
      'lists',
      'ok',
      `complete (${counts.join(', ')}); no domain list (${panel.describe('GET', '/domains')} answered ` +
        `${domains.missing}): look-ups by name, prune of domains unavailable, export refused`,
    ];
  }
  counts.push(plural(n(domains), 'domain'));
  return ['lists', 'ok', `complete, each read whole (${counts.join(', ')})`];
}

/** Which managed client fields GET /clients carries, else whether GET /clients/{id} of one client does. */
export async function clientFieldsCheck(panel: PanelClient, clients: Read<LiveClient>): Promise<Outcome> {
  if (!('records' in clients)) return ['client_fields', 'not_checked', 'the client list could not be read'];
  const listed = clients.records;
  if (listed.length === 0) return ['client_fields', 'not_checked', 'the panel has no client to look at'];
  const panelKeys = (rows: typeof CLIENT_FIELDS): string => rows.map((row) => `"${row.panel[0]}"`).join(', ');
  const lacking = (client: LiveClient): typeof CLIENT_FIELDS =>
    CLIENT_FIELDS.filter((row) => liveValue(row, client) === undefined);
  const one = listed.find((c) => lacking(c).length > 0);
  if (one === undefined)
    return ['client_fields', 'ok', `${panel.describe('GET', '/clients')} carries ${panelKeys(CLIENT_FIELDS)}`];
  const left = CLIENT_FIELDS.filter((row) => listed.some((c) => lacking(c).includes(row)));
  const path = `/clients/${one.id}`;
  let record: LiveClient | undefined;
  try {
    record = await findClientById(panel, one.id);
  } catch (error) {
    return ['client_fields', 'failed', withHint(asProvisionError(error))];
  }
  const leaves = `${panel.describe('GET', '/clients')} leaves out ${panelKeys(left)}`;
  if (record === undefined)
    return [
      'client_fields',
      'failed',
      `${leaves}, and ${panel.describe('GET', path)} (client ${quote(one.username)}) answered 404; ` +
        'what to do: run doctor again (the client may have been deleted meanwhile), then report the panel version',
    ];
  const still = left.filter((row) => liveValue(row, record) === undefined);
  if (still.length === 0)
    return [
      'client_fields',
      'ok',
      `${leaves}; ${panel.describe('GET', path)} (client ${quote(one.username)}) carries them: ` +
        'plan reads each client whose manifest entry manages them (a request more per client)',
    ];
  return [
    'client_fields',
    'failed',
    `neither ${panel.describe('GET', '/clients')} nor ${panel.describe('GET', path)} (client ${quote(one.username)}) ` +
      `shows ${panelKeys(still)}: a manifest's ${still.map((row) => row.key).join(', ')} ` +
      'is never compared on this panel, so never changed (plan notes it); what to do: leave those keys out of ' +
      'the manifest, and report the panel version',
  ];
}

/** Whether the domain records say `is_system_domain`, and carry the settings the engine manages. */
export function domainFieldsCheck(domains: DomainList): Outcome {
  if ('missing' in domains) return ['domain_fields', 'not_checked', 'no domain list: no domain record to look at'];
  if ('error' in domains) return ['domain_fields', 'not_checked', 'the domain list could not be read'];
  const records = domains.records;
  if (records.length === 0) return ['domain_fields', 'not_checked', 'the panel has no domain to look at'];
  const of = `of ${plural(records.length, 'domain record')}`;
  const missing = SETTINGS_IN.flatMap((key) => {
    const without = records.filter((d) => d.settings?.[key] === undefined).length;
    return without === 0 ? [] : [{ key, without }];
  });
  if (missing.length > 0) {
    const settings = SETTING_ROWS.filter((row) => missing.some((m) => (row.object ?? row.key) === m.key)).map(
      (row) => row.key,
    );
    return [
      'domain_fields',
      'failed',
      `${missing.map((m) => `no "${m.key}"${m.key === 'php_version' ? '' : ' object'} in ${m.without} ${of}`).join(', ')}: ` +
        `a manifest's ${settings.join(', ')} is never compared on those domains, so never changed (plan notes it); ` +
        'what to do: leave those settings out of the manifest for them, and report the panel version',
    ];
  }
  const unsaid = records.filter((d) => d.isSystem === undefined).length;
  const carry = `every record carries ${SETTINGS_IN.map((key) => `"${key}"`).join(', ')}`;
  return [
    'domain_fields',
    'ok',
    unsaid === 0
      ? `every record says "is_system_domain"; ${carry}`
      : `"is_system_domain" unsaid in ${unsaid} ${of}: prune never deletes those; ${carry}`,
  ];
}

/** GET /dns/{id} of the first top-level domain, read whole as plan reads a zone. */
export async function zonesCheck(panel: PanelClient, domains: DomainList): Promise<Outcome> {
  if ('missing' in domains) return ['zones', 'not_checked', 'no domain list: no domain id to read a zone of'];
  if ('error' in domains) return ['zones', 'not_checked', 'the domain list could not be read'];
  const domain = domains.records.find((d) => d.isSubdomain !== true);
  if (domain === undefined) return ['zones', 'not_checked', 'the panel has no top-level domain to read a zone of'];
  const path = panel.describe('GET', `/dns/${domain.id}`);
  try {
    const zone = await readZone(panel, domain);
    const disabled = zone.isDisabled === true ? '; DNS is disabled for it, so a manifest cannot change it' : '';
    return [
      'zones',
      'ok',
      `${path} (the zone of ${quote(domain.name)}): ${plural(zone.records.length, 'record')}, read whole${disabled}`,
    ];
  } catch (error) {
    const failure = asProvisionError(error);
    const lead = failure instanceof PanelHttpError ? `${quote(domain.name)}: ` : '';
    return ['zones', 'failed', `${lead}${withHint(failure)}; a manifest's dns cannot be used on this panel`];
  }
}

/** GET /server's `version`, as data; never failed (the engine does not use it). */
export async function versionCheck(panel: PanelClient): Promise<Outcome> {
  const where = panel.describe('GET', '/server');
  let answer: unknown;
  try {
    answer = await panel.get('/server');
  } catch (error) {
    const failure = asProvisionError(error);
    const why =
      failure instanceof PanelHttpError
        ? `${where} answered ${failure.status}${failure.status === 403 ? ' (the key may not read it)' : ''}`
        : failure.message;
    return ['version', 'not_checked', `${why}: the panel does not say its version here (the engine does not need it)`];
  }
  const version = isRecord(answer) ? answer.version : undefined;
  const said = version === undefined ? [] : leaves(version, '', 0);
  if (said.length === 0) return ['version', 'not_checked', `${where} answered without a "version"`];
  const shown = said.slice(0, MAX_VERSION_VALUES).join(', ');
  const more = said.length > MAX_VERSION_VALUES ? `, and ${said.length - MAX_VERSION_VALUES} values more` : '';
  return ['version', 'ok', `${where}: version ${shown}${more}`];
}

/** How many of `version`'s values are shown, and how much of each string. */
const MAX_VERSION_VALUES = 6;
const MAX_VERSION_CHARS = 64;
const MAX_VERSION_DEPTH = 4;

/**
 * The values of `version` in whatever shape the panel gives it: a string or number as it is, an
 * object's (or array's) values each after its key path (`build 1234`), strings quoted and cut.
 */
function leaves(value: unknown, path: string, depth: number): string[] {
  const at = path === '' ? '' : `${path} `;
  if (typeof value === 'string') {
    const cut = value.length > MAX_VERSION_CHARS ? `${value.slice(0, MAX_VERSION_CHARS)}…` : value;
    return value.trim() === '' ? [] : [`${at}${quote(cut)}`];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [`${at}${String(value)}`];
  if (typeof value !== 'object' || value === null || depth >= MAX_VERSION_DEPTH) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const name = /^[A-Za-z0-9_.-]{1,40}$/.test(key) ? key : quote(key.slice(0, MAX_VERSION_CHARS));
    return leaves(inner, path === '' ? name : `${path}.${name}`, depth + 1);
  });
}
