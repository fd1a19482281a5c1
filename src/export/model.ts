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
  type LiveDomain,
  settingText,
  SETTING_ROWS,
} from '../kinds/domain.js';
import { panelRecordText, transientNote, writableRecords, zoneEntry, type ZoneEntry } from '../kinds/zone.js';
import { USERNAME_PATTERN } from '../names.js';
import type { Live, LiveClient } from '../panel/types.js';
import { LiveIndex } from '../plan/live-index.js';
import { compare, plural } from '../util.js';

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
}

/** A live domain the manifest can list: its forms, and its record (for its settings). */
export interface ExportDomain extends DomainForm {
  readonly live: LiveDomain;
}

/**
 * A domain item as export writes it: its name alone, or `{name, ...settings, dns?}` when it has
 * settings or a zone to write (`dns` last).
 */
export type DomainEntry = SettingsEntry | (Exclude<SettingsEntry, string> & { readonly dns?: ZoneEntry });

/** What export made of the zones it read: how many it read, wrote, and passed over and why. */
export interface ZoneCounts {
  readonly read: number;
  readonly written: number;
  /** Zones the panel serves no DNS for (`is_dns_disabled`): a `dns` block on them is a conflict. */
  readonly disabled: number;
  /** Zones that do not say whether they are custom (no `is_custom_dns`): taken as the panel's defaults. */
  readonly unsaid: number;
}

export type { ClientView, DomainForm, FieldView, ZoneEntry };
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

  constructor(live: Live) {
    this.live = live;
    this.index = new LiveIndex(live);
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
   * when a setting differs from the panel's default. A setting the manifest cannot hold is left
   * out with a warning naming the domain and the setting; one the record does not show is left
   * out silently (unshownSettings sums those up).
   */
  entryOf(domain: ExportDomain, client: LiveClient, warn: (message: string) => void): DomainEntry {
    const { settings, unwritable } = exportedSettings(domain.live.settings);
    for (const u of unwritable)
      warn(
        `domain ${quote(domain.text)} of client ${quote(client.username)}: ` +
          `the panel's ${u.field} ${settingText(u.value)} is ${u.reason}: "${u.field}" left out (not managed)`,
      );
    const entry = domainEntry(domain.text, settings);
    const dns = this.zoneOf(domain, client, warn);
    if (dns === undefined) return entry;
    return typeof entry === 'string' ? { name: entry, dns } : { ...entry, dns };
  }

  /**
   * The domain's `dns` block, or undefined: only for a zone read (export --with dns) that the
   * panel marks custom (`is_custom_dns: true`) and serves (not `is_dns_disabled`); any other is
   * the panel's defaults, or one a manifest cannot manage. A record the manifest cannot hold is
   * left out with a warning naming the domain and the record (kinds/zone/export.ts).
   */
  zoneOf(domain: ExportDomain, client: LiveClient, warn: (message: string) => void): ZoneEntry | undefined {
    const zone = this.index.zones.get(domain.name);
    if (zone === undefined || zone.isCustom !== true || zone.isDisabled === true) return undefined;
    const { records, unwritable, transient } = writableRecords(zone, domain.name);
    const acme = transientNote(transient);
    if (acme !== undefined) warn(`domain ${quote(domain.text)} of client ${quote(client.username)}: ${acme}`);
    for (const u of unwritable)
      warn(
        `domain ${quote(domain.text)} of client ${quote(client.username)}: the panel's DNS record ` +
          `${panelRecordText(u.record)} ${u.reason}: left out of "dns" (the panel keeps it)`,
      );
    return zoneEntry(records);
  }

  /**
   * The domains whose zones export --with dns reads: those it writes of the clients `include`
   * accepts (no system domain, no name the manifest refuses), but no subdomain: its records live
   * in its parent's zone (the panel answers its GET /dns with 400). A record that does not say
   * whether it is a subdomain is taken as one when a parent of its name is on the panel.
   */
  zoneDomains(include: (username: string) => boolean = () => true): { name: string; id: number }[] {
    const out: { name: string; id: number }[] = [];
    for (const client of this.live.clients) {
      if (!include(client.username) || !USERNAME_PATTERN.test(client.username)) continue;
      for (const domain of this.domains(client, () => undefined))
        if (!this.isSubdomain(domain.live)) out.push({ name: domain.name, id: domain.live.id });
    }
    return out;
  }

  /**
   * Whether `domain` has no zone a manifest can manage: a subdomain as its record says, or a
   * domain a parent of whose name the panel has under the same client (the manifest refuses
   * `dns` there), or, when its record does not say, under any.
   */
  isSubdomain(domain: LiveDomain): boolean {
    if (domain.isSubdomain === true) return true;
    const labels = domain.name.split('.');
    return labels.some((_, i) => {
      if (i === 0 || i === labels.length - 1) return false;
      const parent = this.index.domains.get(labels.slice(i).join('.'));
      return parent !== undefined && (domain.isSubdomain === undefined || parent.idUser === domain.idUser);
    });
  }

  /** How many zones were read, and of those how many `entries` writes, or passes over as disabled or unsaid. */
  zoneCounts(entries: readonly ExportClient[]): ZoneCounts {
    const zones = [...this.index.zones.values()];
    return {
      read: zones.length,
      written: entries.reduce((n, c) => n + c.domains.filter((d) => typeof d !== 'string' && 'dns' in d).length, 0),
      disabled: zones.filter((z) => z.isDisabled === true).length,
      unsaid: zones.filter((z) => z.isCustom === undefined && z.isDisabled !== true).length,
    };
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
    for (const client of this.live.clients) {
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
    return {
      username: client.username,
      ...exportedFields(view),
      domains: this.domains(client, warn).map((d) => this.entryOf(d, client, warn)),
    };
  }

  /**
   * The manifest of the panel: every client `include` accepts (all by default), sorted by
   * username, each as `entry` makes it. `warn` hears of every name or value left out.
   */
  entries(warn: (message: string) => void, include: (username: string) => boolean = () => true): ExportClient[] {
    const clients = this.live.clients
      .filter((c) => include(c.username))
      .sort((a, b) => compare(a.username, b.username));
    return clients.flatMap((client) => this.entry(client, warn) ?? []);
  }
}
