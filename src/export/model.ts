/**
 * The live panel as manifest entries: what `provision export` writes and what `export --into`
 * compares a manifest with. Pure: no I/O. A name or value the manifest would refuse is never
 * written (the result must validate): it is left out, and a warning names it (quoted: names are
 * data, docs/panel-api.md).
 */
import { quote } from '../escape.js';
import { CLIENT_FIELDS, type ClientView, clientView, type ClientWants, exportedFields } from '../kinds/client/index.js';
import type { FieldView } from '../kinds/common.js';
import {
  type DomainEntry as SettingsEntry,
  domainEntry,
  domainForm,
  type DomainForm,
  domainOrder,
  type DomainSetting,
  exportedSettings,
  isSubdomain,
  type LiveDomain,
  settingText,
  SETTING_ROWS,
} from '../kinds/domain.js';
import type { ExportedDomain, Warn } from '../kinds/export.js';
import { listEntries, listsAsked } from './item-lists.js';
import { EXPORTS } from './table.js';
import { type ZoneCounts, zoneCounts } from '../kinds/zone.js';
import { USERNAME_PATTERN } from '../names.js';
import type { Live, LiveClient } from '../panel/types.js';
import { LiveIndex } from '../plan/live-index.js';
import { compare, plural } from '../util.js';
import { liveClients } from '../kinds/index.js';

/**
 * One client as the manifest writes it: `username` valid (USERNAME_PATTERN); the managed
 * fields export writes (each row's `exported` and `writes`: a plan by name when the client has
 * one, an address when set and accepted by the manifest, `suspended` only when true: false is
 * the default the manifest leaves unsaid); `domains` in their written form (Unicode for IDNs)
 * in domainOrder, no system domain; each by its name alone, or in object form with the settings
 * that differ from the panel's default (domainEntry).
 */
export interface ExportClient extends ClientWants {
  readonly username: string;
  readonly domains: readonly DomainEntry[];
  /** The lists of the kinds under a client item (Kind.export.list), by key, after `domains`; none when empty. */
  readonly lists?: Readonly<Record<string, readonly unknown[]>>;
}

/** A live domain the manifest can list: its forms, and its record (for its settings). */
export interface ExportDomain extends DomainForm {
  readonly live: LiveDomain;
}

/**
 * A domain item as export writes it: its name alone, or `{name, ...settings, ...keys}` when it
 * has settings or a kind's key to write (a zone's `dns`, last).
 */
export type DomainEntry = SettingsEntry | (Exclude<SettingsEntry, string> & Readonly<Record<string, unknown>>);

/** A section of the manifest's own that export writes (a kind's, Kind.export.section): its key and its entries. */
export interface ExportSection {
  readonly key: string;
  readonly entries: readonly unknown[];
  /** The `--with` word that asked for it (undefined: a kind always written). */
  readonly with?: string;
}

/**
 * The sections export writes, in the table's order: each kind's whose `--with` word `asked`
 * accepts (Kind.export.section entries: `warn` hears of a value left out, `note` of keys written
 * that panel-provision does not know).
 */
export function exportedSections(
  model: LiveModel,
  asked: (word: string) => boolean,
  warn: Warn,
  note: Warn,
): ExportSection[] {
  return EXPORTS.flatMap(({ export: part }) => {
    const section = part.section;
    if (section === undefined || (part.with !== undefined && !asked(part.with))) return [];
    const entries = section.entries(model, warn, note);
    return [{ key: section.key, entries, ...(part.with === undefined ? {} : { with: part.with }) }];
  });
}

/** The header lines of a manifest export for the kinds `asked` accepts (Kind.export.header), in the table's order. */
export function exportHeader(asked: (word: string) => boolean): string[] {
  return EXPORTS.flatMap(({ export: part }) =>
    part.header !== undefined && (part.with === undefined || asked(part.with)) ? [part.header] : [],
  );
}

export type { ClientView, DomainForm, FieldView, ZoneCounts };
export { EXPORTS, exportOf, type KindPart } from './table.js';
export { domainForm, domainOrder };

/**
 * The panel's answers as export sees them, over the live panel's index (plan/live-index.ts:
 * plan names by id, each client's domains, clients and domains by name). Whether the manifest
 * can hold a value is decided for each value on its own (each field's row's `view`,
 * USERNAME_PATTERN, normalizeDomain), so any number of refused values is left out, each with
 * its warning.
 */
export class LiveModel {
  readonly live: Live;
  readonly index: LiveIndex;
  /** The words of `--with` given (Kind.export.with): a kind's list under an item is written only when its word is. */
  readonly words: ReadonlySet<string>;

  constructor(live: Live, words: ReadonlySet<string> = new Set()) {
    this.live = live;
    this.index = new LiveIndex(live);
    this.words = words;
  }

  /** The client's managed fields as the manifest can say them. */
  view(client: LiveClient): ClientView {
    return clientView(client, this.index.plans);
  }

  /**
   * The client's domains the manifest can list, in domainOrder: system domains never; a name
   * normalizeDomain refuses is left out with a warning (it cannot be written validly).
   */
  domains(client: LiveClient, warn: (message: string) => void): ExportDomain[] {
    const forms: ExportDomain[] = [];
    for (const domain of this.index.domainsOf(client.id)) {
      if (domain.isSystem) continue;
      const form = domainForm(domain.name);
      if (form === undefined)
        warn(
          `domain ${quote(domain.name)} (id ${domain.id}) of client ${quote(client.username)} ` +
            'is not a name the manifest accepts: left out',
        );
      else forms.push({ ...form, live: domain });
    }
    return forms.sort((a, b) => domainOrder(a.name, b.name));
  }

  /**
   * The domain as a manifest item (kinds/domain/export.ts domainEntry): its name, in object form
   * when a setting differs from the panel's default or a kind writes its key there (a zone's
   * `dns`: Kind.export.item). A setting the manifest cannot hold is left out with a warning naming
   * the domain and the setting; one the record does not show is left out silently
   * (unshownSettings sums those up). The lists of the kinds under a domain item whose word was
   * given (Kind.export.list) come last; `clientDomains`, the domains the client's item lists
   * once written (ASCII; default: every domain export writes of it).
   */
  entryOf(domain: ExportDomain, client: LiveClient, warn: Warn, clientDomains?: ReadonlySet<string>): DomainEntry {
    const { settings, unwritable } = exportedSettings(domain.live.settings);
    for (const u of unwritable)
      warn(
        `domain ${quote(domain.text)} of client ${quote(client.username)}: ` +
          `the panel's ${u.field} ${settingText(u.value)} is ${u.reason}: "${u.field}" left out (not managed)`,
      );
    const entry = domainEntry(domain.text, settings);
    const exported: ExportedDomain<LiveDomain> = { ...domain, owner: client.username };
    const keys: [string, unknown][] = [];
    for (const { export: part } of EXPORTS) {
      const key = part.item?.key;
      const value = key === undefined ? undefined : part.item?.entry?.(exported, this, warn);
      if (key !== undefined && value !== undefined) keys.push([key, value]);
    }
    if (listsAsked(this.words, 'domain')) {
      const names = clientDomains ?? new Set(this.domains(client, () => undefined).map((d) => d.name));
      const parent = { ...exported, ownerId: client.id, clientDomains: names };
      keys.push(...Object.entries(listEntries(this, 'domain', parent, warn)));
    }
    if (keys.length === 0) return entry;
    const more = Object.fromEntries(keys);
    return typeof entry === 'string' ? { name: entry, ...more } : { ...entry, ...more };
  }

  /**
   * The domains whose zones export --with dns reads: those it writes of the clients `include`
   * accepts (no system domain, no name the manifest refuses), but no subdomain: its records live
   * in its parent's zone (the panel answers its GET /dns with 400). A record that does not say
   * whether it is a subdomain is taken as one when a parent of its name is on the panel.
   */
  zoneDomains(include: (username: string) => boolean = () => true): { name: string; id: number }[] {
    const out: { name: string; id: number }[] = [];
    for (const client of liveClients(this.live)) {
      if (!include(client.username) || !USERNAME_PATTERN.test(client.username)) continue;
      for (const domain of this.domains(client, () => undefined))
        if (!this.isSubdomain(domain.live)) out.push({ name: domain.name, id: domain.live.id });
    }
    return out;
  }

  /** Whether `domain` has no zone a manifest can manage (kinds/domain/export.ts isSubdomain). */
  isSubdomain(domain: LiveDomain): boolean {
    return isSubdomain(domain, this.index.domains);
  }

  /** How many zones were read, and of those how many `entries` writes, or passes over as disabled or unsaid. */
  zoneCounts(entries: readonly ExportClient[]): ZoneCounts {
    return zoneCounts(
      [...this.index.zones.values()],
      entries.flatMap((c) => c.domains),
    );
  }

  /**
   * One sentence for the settings that the records of the domains export writes (those of the
   * clients `include` accepts) do not show, or undefined when every record shows every setting:
   * such a setting is left out (not managed), and a panel that never shows one would otherwise
   * warn once a domain.
   */
  unshownSettings(include: (username: string) => boolean = () => true): string | undefined {
    const fields = new Set<DomainSetting>();
    let domains = 0;
    for (const client of liveClients(this.live)) {
      if (!include(client.username) || !USERNAME_PATTERN.test(client.username)) continue;
      for (const domain of this.domains(client, () => undefined)) {
        const { unknown } = exportedSettings(domain.live.settings);
        if (unknown.length > 0) domains++;
        for (const field of unknown) fields.add(field);
      }
    }
    if (domains === 0) return undefined;
    const shown = SETTING_ROWS.filter((row) => fields.has(row.key)).map((row) => row.key);
    return (
      `the panel's records (GET /domains) of ${plural(domains, 'domain')} do not show ` +
      `${shown.join(', ')}: left out of those domains (not managed)`
    );
  }

  /**
   * The client as a manifest entry, or undefined (with a warning) when its username breaks
   * USERNAME_PATTERN. Fields the manifest cannot hold are left out with a warning; fields the
   * panel does not show are left out with one too.
   */
  entry(client: LiveClient, warn: (message: string) => void): ExportClient | undefined {
    if (!USERNAME_PATTERN.test(client.username)) {
      const domains = this.domains(client, () => undefined).length;
      warn(
        `client ${quote(client.username)} (id ${client.id}) has a username the manifest refuses: left out` +
          (domains > 0 ? `, with its ${plural(domains, 'domain')}` : ''),
      );
      return undefined;
    }
    const view = this.view(client);
    const name = `client ${quote(client.username)}`;
    const written = CLIENT_FIELDS.filter((row) => row.exported);
    const unknown = written.filter((row) => view[row.key].kind === 'unknown').map((row) => row.key);
    if (unknown.length > 0) warn(`${name}: the panel shows no ${unknown.join(', ')}: left out (not managed)`);
    for (const row of written) {
      const v = view[row.key];
      if (v.kind === 'unwritable') warn(`${name}: ${v.reason}: "${row.key}" left out (not managed)`);
    }
    const domains = this.domains(client, warn);
    const names = new Set(domains.map((d) => d.name));
    const parent = { name: client.username, text: client.username, live: client, owner: client.username };
    const lists = listEntries(this, 'client', { ...parent, ownerId: client.id, clientDomains: names }, warn);
    return {
      username: client.username,
      ...exportedFields(view),
      domains: domains.map((d) => this.entryOf(d, client, warn, names)),
      ...(Object.keys(lists).length === 0 ? {} : { lists }),
    };
  }

  /**
   * The manifest of the panel: every client `include` accepts (all by default), sorted by
   * username, each as `entry` makes it. `warn` hears of every name or value left out.
   */
  entries(warn: (message: string) => void, include: (username: string) => boolean = () => true): ExportClient[] {
    const clients = liveClients(this.live)
      .filter((c) => include(c.username))
      .sort((a, b) => compare(a.username, b.username));
    return clients.flatMap((client) => this.entry(client, warn) ?? []);
  }
}
