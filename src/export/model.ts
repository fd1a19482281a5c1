/**
 * The live panel as manifest entries: what `provision export` writes and what `export --into`
 * compares a manifest with. Pure: no I/O. A name or value the manifest would refuse is never
 * written (the result must validate): it is left out, and a warning names it (quoted: names are
 * data, docs/panel-api.md).
 */
import { quote } from '../escape.js';
import { CLIENT_FIELDS, type ClientView, clientView, type ClientWants, exportedFields } from '../kinds/client/index.js';
import type { FieldView } from '../kinds/common.js';
import { domainForm, type DomainForm, domainOrder } from '../kinds/domain.js';
import { USERNAME_PATTERN } from '../names.js';
import type { Live, LiveClient } from '../panel/types.js';
import { LiveIndex } from '../plan/live-index.js';
import { compare, plural } from '../util.js';

/**
 * One client as the manifest writes it: `username` valid (USERNAME_PATTERN); the managed
 * fields export writes (each row's `exported` and `writes`: a plan by name when the client has
 * one, an address when set and accepted by the manifest, `suspended` only when true: false is
 * the default the manifest leaves unsaid); `domains` in their written form (Unicode for IDNs)
 * in domainOrder, no system domain.
 */
export interface ExportClient extends ClientWants {
  readonly username: string;
  readonly domains: readonly string[];
}

export type { ClientView, DomainForm, FieldView };
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
  domains(client: LiveClient, warn: (message: string) => void): DomainForm[] {
    const forms: DomainForm[] = [];
    for (const domain of this.index.domainsOf(client.id)) {
      if (domain.isSystem) continue;
      const form = domainForm(domain.name);
      if (form === undefined)
        warn(
          `domain ${quote(domain.name)} (id ${domain.id}) of client ${quote(client.username)} ` +
            'is not a name the manifest accepts: left out',
        );
      else forms.push(form);
    }
    return forms.sort((a, b) => domainOrder(a.name, b.name));
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
      domains: this.domains(client, warn).map((d) => d.text),
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
