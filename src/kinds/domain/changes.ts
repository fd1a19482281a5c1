/**
 * The domain's changes: their types, how the planner makes them (a create: create.ts), the
 * requests they become and their phrases. Pure.
 */
import { jsonText, quote, safeText } from '../../escape.js';
import { assertNever } from '../../util.js';
import {
  afterSubdomains,
  type ChangeBase,
  changeId,
  type KindNoun,
  type NewIds,
  NO_DEPENDENCIES,
  type PanelRequest,
} from '../common.js';
import { type LiveDomain, unicodeForm } from './record.js';
import { destroysDataMark, joinedParts, type Takes, type TakenWords } from '../takes.js';
import {
  type DomainSetting,
  type DomainSettings,
  givenSettings,
  type LiveDomainSettings,
  settingBefore,
  sameSetting,
  type SettingChange,
  settingRow,
  type SettingsBody,
  settingsBody,
} from './settings.js';

/** A domain the panel lacks: `POST /domains` for its client. */
export interface CreateDomain extends ChangeBase<'domain'> {
  readonly action: 'create';
  readonly type: 'domain';
  /** The owning client's username. */
  readonly client: string;
  /** The owner's id when it exists already; null when it is created in the same run. */
  readonly clientId: number | null;
  /** A parent domain created in the same run, which this subdomain waits for. */
  readonly parent?: string;
  /**
   * The domain it is a subdomain of (`id_parent_domain`): the nearest enclosing domain of the same
   * client, on the panel (its `id`) or created in the same run (`id` null: that create's answer
   * gives it). Absent: a top-level domain. Sent always, never left to a panel's guess.
   */
  readonly parentDomain?: ParentDomain;
  /** The settings the manifest gives, sent in the same POST; absent when it gives none. */
  readonly settings?: DomainSettings;
}

/**
 * A domain whose managed settings differ: `PUT /domains/{id}` with only the top-level keys that
 * differ, each nested object whole (as read, with the managed keys changed).
 */
export interface UpdateDomain extends ChangeBase<'domain'> {
  readonly action: 'update';
  readonly type: 'domain';
  readonly domainId: number;
  /** The owner's username and id on the panel. */
  readonly client: string;
  readonly clientId: number;
  /** In the order of the settings' table; at least one. */
  readonly fields: readonly SettingChange[];
  /** What the PUT sends: the fields written into the panel's objects as read (settingsBody). */
  readonly body: SettingsBody;
}

/** A domain deleted (`state: absent`, or pruned); after its subdomains that are deleted too. */
export interface DeleteDomain extends ChangeBase<'domain'> {
  readonly action: 'delete';
  readonly type: 'domain';
  readonly domainId: number;
  /** The owner's username on the panel. */
  readonly client: string;
  readonly clientId: number;
  /** Its subdomains on the panel (same owner, not system domains), sorted: the plan deletes each of them first. */
  readonly subdomains: readonly string[];
  /** What else it takes, counted (../takes.ts: its mailboxes); absent when none could be counted. */
  readonly takes?: Takes;
}

export type DomainChange = CreateDomain | UpdateDomain | DeleteDomain;

/** A new subdomain's parent: its name, and its id on the panel (null: created in the same run). */
export interface ParentDomain {
  readonly name: string;
  readonly id: number | null;
}

/**
 * The diff rule for an existing domain's settings: the update for the settings the manifest
 * gives that differ from the panel's, or undefined. A setting the record does not show goes to
 * `unknown` (with the panel's keys that do not read), never a change. HSTS or forwarding whose
 * flag reads but whose details do not: the flag alone decides for `false` (on: a change, off:
 * the same); an object to compare with is unknown.
 */
export function updateDomain(
  settings: DomainSettings | undefined,
  live: LiveDomain,
  owner: { readonly id: number; readonly username: string },
  unknown: (field: DomainSetting, keys: readonly string[]) => void,
): UpdateDomain | undefined {
  const fields: SettingChange[] = [];
  const shown: LiveDomainSettings = live.settings ?? {};
  for (const [row, wanted] of givenSettings(settings)) {
    const now = settingBefore(row, shown);
    const partial = now === true && row.on !== undefined; // on, its details unread
    if (now === undefined || (partial && wanted !== false)) unknown(row.key, row.unread(shown));
    else if (!sameSetting(now, wanted)) fields.push({ field: row.key, before: now, after: wanted } as SettingChange);
  }
  if (fields.length === 0) return undefined;
  return {
    id: changeId('domain', live.name),
    action: 'update',
    type: 'domain',
    name: live.name,
    domainId: live.id,
    client: owner.username,
    clientId: owner.id,
    reason: `differs from the manifest${forwardingOffNote(fields, shown)}`,
    dependsOn: NO_DEPENDENCIES,
    fields,
    body: settingsBody(fields, live.settings ?? {}),
  };
}

/**
 * `; forwarding is turned off, but the panel keeps "https://old.example/" as its target.target (the
 * document root it had is not restored)` when the change turns forwarding off and the target reads
 * as an http(s) URL: whether the panel takes that, and what it then serves, is unknown. Else ''.
 */
function forwardingOffNote(fields: readonly SettingChange[], live: LiveDomainSettings): string {
  const off = fields.some((f) => f.field === 'redirect' && f.after === false);
  const target = live.target?.target;
  if (!off || typeof target !== 'string' || !/^\s*https?:\/\//i.test(target)) return '';
  return (
    `; forwarding is turned off, but the panel keeps ${quote(target)} as its target.target ` +
    '(the document root it had is not restored)'
  );
}

/** The delete of a live domain from its owner; the planner adds the subdomains it waits for. */
export function deleteDomain(
  live: LiveDomain,
  owner: { readonly id: number; readonly username: string },
  reason: string,
): DeleteDomain {
  return {
    id: changeId('domain', live.name),
    action: 'delete',
    type: 'domain',
    name: live.name,
    domainId: live.id,
    client: owner.username,
    clientId: owner.id,
    reason,
    dependsOn: NO_DEPENDENCIES,
    subdomains: [],
  };
}

/**
 * The request a domain's change becomes. A domain of a client created in the same run takes
 * its `id_user` from `newIds`, a subdomain of a domain created in the same run its
 * `id_parent_domain` from `newIds`; before apply (a preview) they are null: known after
 * apply. A subdomain always carries `id_parent_domain`: a panel left to guess may make it a
 * top-level domain with a zone of its own.
 */
export function domainRequest(change: DomainChange, newIds?: NewIds): PanelRequest {
  switch (change.action) {
    case 'create':
      return {
        method: 'POST',
        path: '/domains',
        body: {
          domain: change.name,
          id_user: change.clientId ?? newIds?.get(changeId('client', change.client)) ?? null,
          ...(change.parentDomain === undefined
            ? {}
            : {
                id_parent_domain:
                  change.parentDomain.id ?? newIds?.get(changeId('domain', change.parentDomain.name)) ?? null,
              }),
          ...settingsBody(
            givenSettings(change.settings).map(([row, after]) => ({ field: row.key, after })),
            {},
          ),
        },
      };
    case 'update':
      return { method: 'PUT', path: `/domains/${change.domainId}`, body: change.body };
    case 'delete':
      return { method: 'DELETE', path: `/domains/${change.domainId}`, body: null };
    default:
      return assertNever(change);
  }
}

/** How people's text names domains. */
export const DOMAIN_NOUN: KindNoun = { one: 'domain', many: 'domains' };

/**
 * What a domain's delete takes with it, as a note on deletes says it. Its subdomains are deleted
 * first, each a delete of its own (the engine never leaves one behind); what the panel does with
 * the domain's mailboxes and files is not documented (docs/panel-api.md): the worst is said.
 */
export const DOMAIN_DELETE_TAKES =
  'a domain with its DNS zone, and its mail and files if the panel takes them (not documented)';

/** ` with its 3 mailboxes (destroys data)` after a domain's delete whose counts say it takes some; else ''. */
export function domainGoesWith(change: DomainChange, taken?: TakenWords): string {
  if (change.action !== 'delete' || taken === undefined || taken.parts.length === 0) return '';
  return ` with its ${joinedParts(taken.parts)}${destroysDataMark(taken)}`;
}

/** `domain "a.example" of client "alice"`, with the Unicode form of an international name. */
export function domainSubject(change: DomainChange): string {
  return `domain ${quote(change.name)}${unicodeForm(change.name)} of client ${quote(change.client)}`;
}

/**
 * What the text plan's comment line says of a domain's change beside its subject (`what`) and
 * after its reason (`after`): the parent a new subdomain waits for, the subdomains a delete
 * waits for.
 */
export function domainDetails(change: DomainChange): { what: string; after: string } {
  switch (change.action) {
    case 'create':
      return { what: '', after: change.parent === undefined ? '' : `, after ${safeText(change.parent)}` };
    case 'update':
      return { what: '', after: '' };
    case 'delete':
      return {
        what: '',
        after: afterSubdomains(change.dependsOn),
      };
    default:
      return assertNever(change);
  }
}

/** `php_version: "8.3"`, `https.force: true`: the settings a create sets, in the settings' table order. */
export function domainCreatedParts(change: CreateDomain): string[] {
  return givenSettings(change.settings).map(([row, value]) => `${row.key}: ${settingText(value)}`);
}

/**
 * What apply cannot do as the manifest says of a domain: one listed under a client that the
 * panel has under another, or (with `subdomains`) one to delete whose subdomains on the panel
 * stay (a panel refuses the delete, or takes them with it: either way the manifest and the
 * panel part).
 */
export interface DomainConflict {
  readonly domain: string;
  /** The manifest's client for the domain. */
  readonly client: string;
  /** The panel's owner: a username, or `#<id>` when the owner is not in the client list. */
  readonly owner: string;
  /** The domain's subdomains on the panel that no change deletes, when they block its delete. */
  readonly subdomains?: readonly string[];
  /**
   * Why its `dns` cannot be managed: it is a subdomain on the panel (its records live in its
   * parent's zone), or the panel serves no DNS for it (`is_dns_disabled`).
   */
  readonly dns?: 'subdomain' | 'disabled';
}

/** Whether a plan's conflict is a domain's: it names a domain, and is not of the domain's zone records (the zone's room). */
export function isDomainConflict(c: object): c is DomainConflict {
  return 'domain' in c && 'owner' in c && (c as { dns?: unknown }).dns !== 'records';
}

/**
 * `domain "x" is listed under client "a" but belongs to client "b" on the panel`. The owner is
 * another customer: `nameOwner: false` (a pull-request comment) says "another client".
 */
export function domainConflictText(c: DomainConflict, nameOwner = true): string {
  if (c.dns !== undefined)
    return c.dns === 'subdomain'
      ? `domain ${quote(c.domain)}${unicodeForm(c.domain)} of client ${quote(c.client)} manages "dns", but it is a ` +
          "subdomain on the panel: its records live in its parent's zone (list them there, e.g. host: _acme-challenge.shop)"
      : `domain ${quote(c.domain)}${unicodeForm(c.domain)} of client ${quote(c.client)} manages "dns", but the panel ` +
          'serves no DNS for it (is_dns_disabled): turn DNS on for it in the panel, or remove "dns"';
  if (c.subdomains !== undefined) {
    const shown =
      c.subdomains
        .slice(0, 3)
        .map((s) => quote(s))
        .join(', ') + (c.subdomains.length > 3 ? ` and ${c.subdomains.length - 3} more` : '');
    return (
      `domain ${quote(c.domain)}${unicodeForm(c.domain)} of client ${quote(c.client)} is to be deleted, ` +
      `but its subdomains ${shown} stay on the panel: mark them absent too, or keep the domain`
    );
  }
  const owner = !nameOwner
    ? 'another client'
    : c.owner.startsWith('#')
      ? `client id ${c.owner.slice(1)}`
      : `client ${quote(c.owner)}`;
  return (
    `domain ${quote(c.domain)}${unicodeForm(c.domain)} is listed under client ${quote(c.client)} ` +
    `but belongs to ${owner} on the panel`
  );
}

/**
 * `https.force: false -> true, redirect: false -> {"to":"https://b.example/","status":301}`: each
 * value as JSON text (data: a URL from a panel may hold anything; escape.ts jsonText).
 */
export function settingsText(fields: readonly SettingChange[]): string {
  return fields.map((f) => `${f.field}: ${settingText(f.before)} -> ${settingText(f.after)}`).join(', ');
}

/** A setting's value as people read it: a version or a flag bare, an object as JSON text. */
export function settingText(value: SettingChange['before']): string {
  return typeof value === 'object' ? jsonText(value) : typeof value === 'string' ? jsonText(value) : String(value);
}

/**
 * `domain "a.example" of client "alice": the panel's record (GET /domains) shows no readable
 * security.hsts_preload: https.hsts not compared, not changed`: a managed setting the panel
 * does not show, or shows in a form it cannot be read in (`is_hsts: "yes"`, HSTS on without its
 * age). `keys` names the panel's keys that do not read (updateDomain gives them); without them
 * (a plan that does not carry them) the line names the setting's keys, as not all readable.
 */
export function settingUnknownLine(u: {
  readonly client: string;
  readonly domain: string;
  readonly field: DomainSetting;
  readonly keys?: readonly string[] | undefined;
}): string {
  const all = settingRow(u.field).panelKeys;
  const object = u.keys?.length === 1 && (u.keys[0] === 'security' || u.keys[0] === 'target') ? u.keys[0] : undefined;
  const shows =
    object !== undefined
      ? `has no "${object}" object`
      : u.keys !== undefined && u.keys.length > 0
        ? `shows no readable ${u.keys.join(', ')}`
        : all.includes(',')
          ? `does not show all of ${all} readably`
          : `shows no readable ${all}`;
  return (
    `domain ${quote(u.domain)}${unicodeForm(u.domain)} of client ${quote(u.client)}: the panel's record ` +
    `(GET /domains) ${shows}: ${u.field} not compared, not changed`
  );
}
