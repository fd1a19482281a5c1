/**
 * What `export --into` changes in a manifest so that it describes the panel for what it
 * manages: a list of edits on the manifest's entries, by position, and warnings. Pure: the
 * manifest as loaded (Desired) and the panel as read (LiveModel) in, edits out; rewrite.ts
 * turns them into text.
 *
 * The rules (README "Bring an existing panel under management"):
 * - A listed client the panel has: each managed field the manifest gives (the rows of the
 *   client's field table: `plan`, `email`, `suspended`, ...) that differs is set to the
 *   panel's value; one the panel says it has none of (no plan, no email) is removed, since the
 *   manifest can only say "none" by leaving it out; a field the manifest leaves out stays out,
 *   `suspended` included (a client suspended in the panel whose entry is silent about
 *   suspension stays silent: suspension is then managed elsewhere, by a billing system say, and
 *   writing it down would make the next apply fight it). A value the manifest cannot hold (a
 *   plan id the panel does not list, an email the manifest refuses) is left as written, with a
 *   warning; so is a field the panel does not show.
 * - Each of its domains the panel has under it: each setting the domain item gives (object
 *   form: `php_version`, `https.force`, ...) that differs is set to the panel's value; a domain
 *   listed by name alone manages none and stays a name, and a setting the item leaves out is
 *   not added. A value the manifest cannot hold (the row's `unwritable`) stays as written, with
 *   a warning; so, silently, does one the panel's record does not show.
 * - A listed domain whose entry has `dns` (the panel has it under the same client, not a
 *   subdomain, serving DNS): its records become the panel's (adopt-dns.ts): a listed record the
 *   panel lacks goes, one whose TTL differs gets the panel's, and the panel's records it does
 *   not list are added at the end, except those whose host a `keep` pattern of the block matches
 *   (owned elsewhere: an ACME client's challenge). The block's other keys (`ttl`, `prune`,
 *   `keep`) stay. A record the manifest cannot hold is not added (warned); a listed record the
 *   panel holds only in such a form stays as written (warned). With `withDns` (--with dns), a
 *   listed domain without `dns` whose zone the panel marks custom gets the block export writes;
 *   without it, a domain without `dns` gets none.
 * - Its domains the panel has and the manifest lists nowhere are added at the end of its list,
 *   in domainOrder (parents first), as export writes them (Unicode for IDNs, in object form
 *   with the settings that differ from the panel's default); never a system domain, a
 *   `prune.keep` match, or a name the manifest would refuse (warned).
 * - The panel's other clients are added, after the last entry and sorted by username, only
 *   where the manifest claims them: `prune.clients` (or the caller's `claim`, from --clients),
 *   never a `prune.keep` match; written as `provision export` writes them, without the domains
 *   the manifest lists under another client.
 * - Entries the panel lacks (present clients and domains) stay, as pending creates, unless
 *   `dropMissing`; `state: absent` entries stay as written either way. A domain listed under one
 *   client that the panel has under another stays (plan reports the conflict), with a warning.
 */
import { quote } from '../escape.js';
import type { Desired, DesiredClient, DesiredDomain } from '../manifest/types.js';
import { globMatcher } from '../names.js';
import type { LiveClient, ManagedField } from '../panel/types.js';
import { assertNever, compare } from '../util.js';
import { type DnsEdit, dnsEdits } from './adopt-dns.js';
import { type PlanEdit, planEdits } from './plans.js';
import { type DomainEntry, type ExportClient, type LiveModel } from './model.js';
import { CLIENT_FIELDS } from '../kinds/client/index.js';
import {
  type DomainSetting,
  type DomainSettingTypes,
  givenSettings,
  type LiveDomain,
  sameSetting,
  settingText,
} from '../kinds/domain.js';

/**
 * One change to the manifest; `client` and `domain` are indexes into the manifest's `clients`
 * list and that client's `domains` list (those of Desired, which follow the file's order).
 */
export type Edit =
  | {
      readonly kind: 'set';
      readonly client: number;
      readonly field: ManagedField;
      readonly value: string | boolean;
    }
  | { readonly kind: 'unset'; readonly client: number; readonly field: ManagedField }
  | {
      readonly kind: 'set-setting';
      readonly client: number;
      readonly domain: number;
      /** The dotted name: the path to its value in the domain's object form. */
      readonly field: DomainSetting;
      /** The manifest's value (defaults filled in: hsts's flags, redirect's status), and the panel's. */
      readonly before: DomainSettingTypes[DomainSetting];
      readonly value: DomainSettingTypes[DomainSetting];
    }
  | DnsEdit
  | PlanEdit
  | { readonly kind: 'add-domains'; readonly client: number; readonly domains: readonly DomainEntry[] }
  | { readonly kind: 'drop-client'; readonly client: number }
  | { readonly kind: 'drop-domain'; readonly client: number; readonly domain: number }
  | { readonly kind: 'add-clients'; readonly clients: readonly ExportClient[] };

/** What adopt decides beside the manifest and the panel. */
export interface AdoptOptions {
  /** Unlisted panel clients to add besides those `prune.clients` claims (--clients). */
  readonly claim?: (username: string) => boolean;
  /** Remove present entries the panel lacks (--drop-missing). */
  readonly dropMissing?: boolean;
  /** --with dns: a listed domain without `dns` whose zone is custom gets a `dns` block. */
  readonly withDns?: boolean;
  /** --with hosting-plans: the panel's plans the manifest does not list are added (plans.ts). */
  readonly withPlans?: boolean;
}

/** The edits, in the manifest's order, and the warnings met on the way (each a sentence). */
export interface Adoption {
  readonly edits: readonly Edit[];
  readonly warnings: readonly string[];
}

/** The edits that make `desired` describe the panel for what it manages (see the rules above). */
export function adopt(desired: Desired, model: LiveModel, options: AdoptOptions = {}): Adoption {
  const edits: Edit[] = [];
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
  };
  const keep = globMatcher(desired.prune.keep);
  const { clients: clientsByName, usernames: ownerName, domains: domainsByName } = model.index;
  // What --drop-missing removes is listed no more: the panel's owner of such a domain gets it.
  const dropClient = (client: DesiredClient): boolean =>
    options.dropMissing === true && client.state === 'present' && !clientsByName.has(client.username);
  const dropDomain = (domain: DesiredDomain): boolean =>
    options.dropMissing === true && domain.state === 'present' && !domainsByName.has(domain.name);
  const listedDomains = new Set(
    desired.clients.flatMap((c) => (dropClient(c) ? [] : c.domains.filter((d) => !dropDomain(d)).map((d) => d.name))),
  );

  desired.clients.forEach((client, i) => {
    if (client.state === 'absent') return;
    const live = clientsByName.get(client.username);
    if (live === undefined) {
      if (dropClient(client)) edits.push({ kind: 'drop-client', client: i });
      return;
    }
    edits.push(...fieldEdits(client, i, live, model, warn));
    client.domains.forEach((domain, j) => {
      if (domain.state === 'absent') return;
      const found = domainsByName.get(domain.name);
      if (found === undefined) {
        if (dropDomain(domain)) edits.push({ kind: 'drop-domain', client: i, domain: j });
      } else if (found.idUser !== live.id) {
        const owner = ownerName.get(found.idUser);
        warn(
          `domain ${quote(domain.input)} is listed under client ${quote(client.username)} ` +
            'but the panel has it under ' +
            `${owner === undefined ? `user id ${found.idUser}` : `client ${quote(owner)}`}: ` +
            'left as is (plan reports the conflict)',
        );
      } else {
        edits.push(...settingEdits(domain, i, j, found, warn));
        edits.push(...dnsEdits(domain, i, j, found, live, model, options.withDns === true, warn));
      }
    });
    const added = model.domains(live, warn).filter((d) => !listedDomains.has(d.name) && !keep(d.name));
    if (added.length > 0)
      edits.push({ kind: 'add-domains', client: i, domains: added.map((d) => model.entryOf(d, live, warn)) });
  });

  const listed = new Set(desired.clients.map((c) => c.username));
  const claimed = (username: string): boolean =>
    (desired.prune.clients || (options.claim?.(username) ?? false)) && !keep(username) && !listed.has(username);
  const added = [...model.live.clients]
    .filter((c) => claimed(c.username))
    .sort((a, b) => compare(a.username, b.username))
    .flatMap((c) => {
      const entry = model.entry(c, warn);
      if (entry === undefined) return [];
      // model.entry warned already of every domain's settings the manifest cannot hold.
      const domains = model.domains(c, () => undefined).filter((d) => !listedDomains.has(d.name) && !keep(d.name));
      return [{ ...entry, domains: domains.map((d) => model.entryOf(d, c, () => undefined)) }];
    });
  if (added.length > 0) edits.push({ kind: 'add-clients', clients: added });
  edits.push(...planEdits(desired, model.live, options.withPlans === true, warn));
  return { edits, warnings };
}

/**
 * The field edits of one listed client the panel has: for each managed field the manifest
 * gives, the panel's value when it differs, its removal when the panel says none; a field the
 * panel does not show stays, and one the manifest cannot hold stays with a warning.
 */
function fieldEdits(
  client: DesiredClient,
  index: number,
  live: LiveClient,
  model: LiveModel,
  warn: (message: string) => void,
): Edit[] {
  const view = model.view(live);
  const edits: Edit[] = [];
  const name = `client ${quote(client.username)}`;
  for (const row of CLIENT_FIELDS) {
    const field = row.key;
    const wanted = client[field];
    if (wanted === undefined) continue;
    const seen = view[field];
    switch (seen.kind) {
      case 'value':
        if (seen.value !== wanted) edits.push({ kind: 'set', client: index, field, value: seen.value });
        break;
      case 'none':
        edits.push({ kind: 'unset', client: index, field });
        break;
      case 'unknown':
        break;
      case 'unwritable':
        warn(`${name}: ${seen.reason}: "${field}" left as written`);
        break;
      default:
        assertNever(seen);
    }
  }
  return edits;
}

/**
 * The setting edits of one listed domain the panel has (under the same client): for each
 * setting the manifest gives that differs, the panel's value; one the record does not show
 * stays as written, and one the manifest cannot hold stays with a warning. A domain listed by
 * name alone gives none, so gets none.
 */
function settingEdits(
  domain: DesiredDomain,
  client: number,
  index: number,
  live: LiveDomain,
  warn: (message: string) => void,
): Edit[] {
  const edits: Edit[] = [];
  for (const [row, wanted] of givenSettings(domain.settings)) {
    const seen = live.settings === undefined ? undefined : row.read(live.settings);
    if (seen === undefined || sameSetting(seen, wanted)) continue;
    const reason = row.unwritable(seen);
    if (reason === undefined)
      edits.push({ kind: 'set-setting', client, domain: index, field: row.key, before: wanted, value: seen });
    else
      warn(
        `domain ${quote(domain.input)}: the panel's ${row.key} ${settingText(seen)} is ${reason}: ` +
          `"${row.key}" left as written`,
      );
  }
  return edits;
}
