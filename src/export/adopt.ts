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
 * - Each of its domains the panel has under it (not a subdomain where the kind says so): each
 *   kind with a part in a domain item (Kind.export.item) makes its edits, in the table's order:
 *   the domain's settings (kinds/domain/export-edits.ts: each setting the item gives that
 *   differs is set to the panel's value; a domain listed by name alone manages none), then its
 *   `dns` block (kinds/zone/export-edits.ts: its records become the panel's; with --with dns, a
 *   domain without one whose zone is custom gets the block export writes).
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
 * - The lists of the kinds under a listed client item or domain item the panel has under it
 *   (Kind.export.list, under a domain item or a client item): each listed item's keys
 *   that differ get the panel's value, as export writes it; the panel's things the manifest lists
 *   nowhere are added at the end only with the kind's `--with` word (or its prune key true);
 *   listed items the panel lacks stay, unless `dropMissing`.
 * - Each kind with a section of the manifest's own (Kind.export.section: `hosting_plans`,
 *   kinds/hosting-plan/export-edits.ts) makes the edits of its section last.
 */
import { quote } from '../escape.js';
import type { Desired, DesiredClient, DesiredDomain } from '../manifest/types.js';
import { globMatcher } from '../names.js';
import type { LiveClient, ManagedField } from '../panel/types.js';
import { assertNever, compare } from '../util.js';
import { type DomainEntry, type ExportClient, type ExportDomain, EXPORTS, type LiveModel } from './model.js';
import { CLIENT_FIELDS } from '../kinds/client/index.js';
import type { KindName } from '../kinds/index.js';
import { liveClients } from '../kinds/index.js';
import type { ListEdit, Warn } from '../kinds/export.js';
import { listContexts, listEdits } from './item-lists.js';

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
      /** A kind's edit of a listed domain item (Kind.export.item), which only that kind reads. */
      readonly kind: 'item';
      readonly type: KindName;
      readonly client: number;
      readonly domain: number;
      readonly edit: unknown;
    }
  /** A kind's edit of its section of the manifest (Kind.export.section), which only that kind reads. */
  | { readonly kind: 'section'; readonly type: KindName; readonly edit: unknown }
  /** A kind's edit of its list under a listed client item (`domain` undefined) or domain item (Kind.export.list). */
  | {
      readonly kind: 'list';
      readonly type: KindName;
      readonly client: number;
      readonly domain: number | undefined;
      readonly edit: ListEdit;
    }
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
  /**
   * The words of --with: what each kind adds when its word is given (Kind.export.with): `dns`,
   * a listed domain without `dns` whose zone is custom gets a `dns` block; `hosting-plans`, the
   * panel's plans the manifest does not list are added.
   */
  readonly with?: ReadonlySet<string>;
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
  const asked = (word: string | undefined): boolean => word === undefined || options.with?.has(word) === true;
  const { clients: clientsByName, usernames: ownerName, domains: domainsByName } = model.index;
  // What --drop-missing removes is listed no more: the panel's owner of such a domain gets it.
  const dropClient = (client: DesiredClient): boolean =>
    options.dropMissing === true && client.state === 'present' && !clientsByName.has(client.username);
  const dropDomain = (domain: DesiredDomain): boolean =>
    options.dropMissing === true && domain.state === 'present' && !domainsByName.has(domain.name);
  const listedDomains = new Set(
    desired.clients.flatMap((c) => (dropClient(c) ? [] : c.domains.filter((d) => !dropDomain(d)).map((d) => d.name))),
  );

  const lists = listContexts(desired, options.with ?? new Set(), options.dropMissing === true);
  desired.clients.forEach((client, i) => {
    if (client.state === 'absent') return;
    const live = clientsByName.get(client.username);
    if (live === undefined) {
      if (dropClient(client)) edits.push({ kind: 'drop-client', client: i });
      return;
    }
    edits.push(...fieldEdits(client, i, live, model, warn));
    const adds = (w: Warn): ExportDomain[] =>
      model.domains(live, w).filter((d) => !listedDomains.has(d.name) && !keep(d.name));
    // The domains the client's item lists once rewritten: what its lists may name beside their parent.
    const clientDomains = new Set([
      ...client.domains.filter((d) => d.state === 'present' && !dropDomain(d)).map((d) => d.name),
      ...adds(() => undefined).map((d) => d.name),
    ]);
    const parent = { name: client.username, text: client.username, live, owner: client.username };
    for (const { type, edit } of listEdits(
      'client',
      (name) => client.sections?.[name],
      { ...parent, ownerId: live.id, clientDomains },
      model,
      lists,
      warn,
    ))
      edits.push({ kind: 'list', type, client: i, domain: undefined, edit });
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
        const exported = { name: domain.name, text: domain.input, live: found, owner: live.username };
        for (const { name, export: part } of EXPORTS) {
          const made = part.item?.edits(domain, exported, model, asked(part.with), warn) ?? [];
          edits.push(...made.map((edit) => ({ kind: 'item', type: name, client: i, domain: j, edit }) as const));
        }
        for (const { type, edit } of listEdits(
          'domain',
          (name) => domain.sections?.[name],
          { ...exported, ownerId: live.id, clientDomains },
          model,
          lists,
          warn,
        ))
          edits.push({ kind: 'list', type, client: i, domain: j, edit });
      }
    });
    const added = adds(warn);
    if (added.length > 0)
      edits.push({
        kind: 'add-domains',
        client: i,
        domains: added.map((d) => model.entryOf(d, live, warn, clientDomains)),
      });
  });

  const listed = new Set(desired.clients.map((c) => c.username));
  const claimed = (username: string): boolean =>
    (desired.prune.clients || (options.claim?.(username) ?? false)) && !keep(username) && !listed.has(username);
  const added = [...liveClients(model.live)]
    .filter((c) => claimed(c.username))
    .sort((a, b) => compare(a.username, b.username))
    .flatMap((c) => {
      const entry = model.entry(c, warn);
      if (entry === undefined) return [];
      // model.entry warned already of every domain's settings the manifest cannot hold.
      const domains = model.domains(c, () => undefined).filter((d) => !listedDomains.has(d.name) && !keep(d.name));
      const names = new Set(domains.map((d) => d.name));
      return [{ ...entry, domains: domains.map((d) => model.entryOf(d, c, () => undefined, names)) }];
    });
  if (added.length > 0) edits.push({ kind: 'add-clients', clients: added });
  for (const { name, export: part } of EXPORTS) {
    const made = part.section?.edits(desired, model, asked(part.with), warn) ?? [];
    edits.push(...made.map((edit) => ({ kind: 'section', type: name, edit }) as const));
  }
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
