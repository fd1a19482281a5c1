import { USERNAME_PATTERN } from '../names.js';
import { type Found, type Locator, locateIn } from './locate.js';
import { clientLabel } from './schema.js';
import type { DesiredClient, DesiredDomain, Diagnostic, Location } from './types.js';
import { type Listing, listingOf, placeOfListing, slotOf } from './listing.js';
import { DesiredClientItem, DesiredDomainItem, packPlace, type Place, placeIn } from './desired-items.js';
import { patternProblem } from './prune.js';
import { byFirstName, topmostAbove } from './topmost.js';
import { KeysOf, type ReadSections, readSections, SectionSeens } from './sections.js';
import { isRecord, ownString, placeOf } from '../util.js';
import { quote } from '../escape.js';
import { CLIENT_CREATE_ONLY_KEYS, CLIENT_FIELDS } from '../kinds/client/index.js';
import {
  domainItem,
  domainItemName,
  type FirstListing,
  itemSettings,
  itemZone,
  listedAgain,
  settingsDomainLabel,
  subdomainZone,
} from '../kinds/domain.js';

/** The error for a username listed again (first at `first`: `line 3`, or `a.yaml:3` in another part). */
export function usernameTwice(username: string, first: string): string {
  return `username ${quote(username)} is used twice (first at ${first}): each client needs its own username`;
}

/** The key of DesiredClient for `send_login_credentials` (ClientCreateOnly). */
const SEND_LOGIN_CREDENTIALS: keyof DesiredClient = 'sendLoginCredentials';

/** The keys a client marked `state: absent` may not have (the schema reports unknown keys). */
const ABSENT_KEYS: readonly string[] = [...CLIENT_FIELDS.map((row) => row.key), ...CLIENT_CREATE_ONLY_KEYS, 'domains'];

/** `"plan"`, `"plan" and "email"`, `"plan", "email" and "domains"`. */
function quoteList(keys: readonly string[]): string {
  const quoted = keys.map((key) => `"${key}"`);
  const last = quoted.pop() ?? '';
  return quoted.length === 0 ? last : `${quoted.join(', ')} and ${last}`;
}

/**
 * Runs the checks JSON Schema cannot express (username rule, uniqueness, domain names, each managed
 * field's own check from the client's field table, a client marked `state: absent` that has other
 * keys) on every client that is well-formed enough, and builds the clients of `Desired` in manifest
 * order: `state` always set (`present` unless the manifest says `absent`), each managed field only
 * when given, each domain item (a string, or `{name, state}`: read and checked by the domain's
 * room, src/kinds/domain/manifest.ts) as a DesiredDomain whose name is normalized and located at
 * its name, and listed once in the whole manifest whatever its state, with the settings it gives
 * (src/kinds/domain/manifest-settings.ts: their checks, each problem at its value) and its zone
 * (`dns`: src/kinds/zone/manifest.ts; never on a subdomain of a domain the same client lists). A
 * client marked absent keeps only its username, state and location. Problems go to `diagnostics`;
 * the clients are only meaningful when none of them is an error.
 */
export function buildClients<N>(
  data: unknown,
  source: Locator<N>,
  diagnostics: Diagnostic[],
  seens?: SectionSeens,
): DesiredClient[] {
  const clients = (data as { clients?: unknown } | null)?.clients;
  const root = source.root();
  const clientsNode = root && source.step(root, 'clients');
  if (!Array.isArray(clients) || clientsNode === undefined || !source.isSeq(clientsNode)) return [];
  const builder = new ClientsBuilder(diagnostics, seens);
  clients.forEach((client: unknown, i) => {
    builder.add(source, client, i, source.step(clientsNode, i));
  });
  return builder.clients;
}

/**
 * The same checks, one client at a time (in manifest order, `index` from 0), so that a reader
 * can check clients as it reads them and keep none of the data: the checks across clients
 * (unique usernames and domains) need only what this keeps. The rules are buildClients'.
 */
export class ClientsBuilder {
  /** The clients of `Desired` so far. */
  readonly clients: DesiredClient[] = [];
  /** Each valid username's first place (in the file this builder reads: every source given to add is of one file). */
  private readonly usernames = new Map<string, Place>();
  /**
   * Each domain name's first listing (a Listing: its client's slot, its place in that client's
   * domains), the domain and its client found again from them when a message needs one. A small
   * number a name: this lives as long as the read (issue 30, 7f).
   */
  private readonly domains = new Map<string, Listing>();
  /** The clients `clients` leaves out (no username) that list a domain first, by slot -1, -2, ...: their index and domains. */
  private readonly orphans: { readonly index: number; readonly domains: readonly DesiredDomain[] }[] = [];
  /** The index of each client in `clients` whose username is empty (its label names it by number), by slot. */
  private readonly emptyNamed = new Map<number, number>();
  /** The client being added: its slot (its place in `clients` to be, or its orphan slot), label and domains so far. */
  private currentSlot = Number.NaN;
  private currentLabel = '';
  private currentDomains: readonly DesiredDomain[] = [];

  /** The domains of the client at `slot` (SlotOf). */
  private domainsAt(slot: number): readonly DesiredDomain[] {
    if (slot === this.currentSlot) return this.currentDomains;
    return (slot < 0 ? this.orphans[-slot - 1]?.domains : this.clients[slot]?.domains) ?? [];
  }

  /** How messages name the client at `slot` (clientLabel). */
  private labelAt(slot: number): string {
    if (slot === this.currentSlot) return this.currentLabel;
    if (slot < 0) {
      const orphan = this.orphans[-slot - 1];
      return orphan === undefined ? '' : clientLabel({}, orphan.index);
    }
    const client = this.clients[slot];
    return client === undefined ? '' : clientLabel({ username: client.username }, this.emptyNamed.get(slot) ?? slot);
  }

  /** The first listing `listing`, for the message about a second one. */
  private firstListing(listing: Listing): FirstListing & { readonly slot: number } {
    const slot = slotOf(listing);
    const domain = this.domainsAt(slot)[placeOfListing(listing)];
    return {
      input: domain?.input ?? '',
      client: this.labelAt(slot),
      at: `line ${domain?.loc?.line ?? 1}`,
      slot,
    };
  }

  /**
   * The last value of each managed string field: a value equal to the previous client's is kept
   * as the same string (most clients of a manifest name one of a few plans).
   */
  private readonly lastValues = new Map<string, string>();

  /** The usernames listed so far, as a set (for the sections that check names against them). */
  private readonly usernameKeys = new KeysOf(this.usernames);

  /**
   * `seens`: what the kinds' sections remember of the items listed so far (shared by the parts of
   * a manifest directory, ./sections.ts); a fresh memory for a manifest read on its own.
   */
  constructor(
    private readonly diagnostics: Diagnostic[],
    private readonly seens: SectionSeens = new SectionSeens(),
  ) {}

  /** How the sections' messages name the client that lists `domain` (another than the client at `slot`); undefined: none yet. */
  private listedBy(domain: string, slot: number): string | undefined {
    const listing = this.domains.get(domain);
    const owner = listing === undefined ? undefined : slotOf(listing);
    return owner === undefined || owner === slot ? undefined : this.labelAt(owner);
  }

  /** Checks the client item `client` (at `index` i from 0, standing at `node`) and adds it to `clients`. */
  add<N>(source: Locator<N>, client: unknown, i: number, node: Found<N> | undefined): void {
    if (!isRecord(client) || node === undefined) return; // the schema check reported it
    const error = (loc: Location, message: string): void => {
      this.diagnostics.push({ ...loc, severity: 'error', message });
    };
    const { usernames, domains } = this;
    const name = clientLabel(client, i);
    const where = (key: string): Found<N> => source.step(node, key) ?? node;

    const username = typeof client.username === 'string' ? ownString(client.username) : client.username;
    const state = client.state === 'absent' ? 'absent' : 'present';
    // Its slot: its place in `clients` when it will stand there (it has a username), else an orphan's.
    const slot = typeof username === 'string' ? this.clients.length : -(this.orphans.length + 1);
    this.currentSlot = slot;
    this.currentLabel = name;
    this.currentDomains = [];
    let loc = source.at(node);
    if (typeof username === 'string') {
      loc = source.at(where('username'));
      if (!USERNAME_PATTERN.test(username)) {
        error(
          loc,
          `username ${quote(username)} must be lowercase letters, digits, "-" or "_", ` +
            'starting with a letter (at most 32): usernames are not rewritten',
        );
      } else {
        const first = usernames.get(username);
        if (first === undefined) usernames.set(username, packPlace(loc));
        else error(loc, usernameTwice(username, placeOf(placeIn(loc.file, first), loc.file)));
      }
    }

    if (state === 'absent') {
      // A client to delete is named, nothing more: its other keys would say what it should be.
      const extra = Object.keys(client).filter((key) => ABSENT_KEYS.includes(key));
      const [firstExtra] = extra;
      if (firstExtra !== undefined) {
        error(
          source.keyAt(node, firstExtra) ?? loc,
          `${name} has state: absent: remove ${quoteList(extra)} ` +
            '(a client that is deleted has no other keys than "username" and "state"), ' +
            'or remove "state: absent" to keep the client',
        );
      }
      // Its sections' lists are errors of their own (a client that is deleted has none).
      this.clientSections(source, client, node, name, typeof username === 'string' ? username : '', true, slot, []);
      if (typeof username === 'string')
        this.clients.push(new DesiredClientItem(username, state, loc, { wants: {}, domains: [] }));
      return;
    }

    // Each managed field the manifest gives, with the checks of its row (the schema checked its type).
    const wants: Record<string, string | boolean> = {};
    let planLoc: Location | undefined;
    for (const row of CLIENT_FIELDS) {
      const value = client[row.key];
      if (typeof value !== row.type) continue;
      const at = source.at(where(row.key));
      if (row.key === 'plan') planLoc = at;
      const problem = row.check(value as never, name);
      if (problem !== undefined) this.diagnostics.push({ ...at, ...problem });
      wants[row.key] = typeof value === 'string' ? this.keptValue(row.key, value) : (value as boolean);
    }

    /** This client's domains of valid names, and those with a zone (by their place in desiredDomains). */
    const desiredDomains: DesiredDomain[] = [];
    this.currentDomains = desiredDomains;
    const zoned: { readonly at: number; readonly label: string; readonly dnsAt: Location }[] = [];
    /** The domain items (by their place in desiredDomains) that may give lists of the sections under a domain. */
    const sectioned: {
      readonly at: number;
      readonly item: Readonly<Record<string, unknown>>;
      readonly node: Found<N>;
    }[] = [];
    const domainsNode = source.step(node, 'domains');
    if (Array.isArray(client.domains) && domainsNode !== undefined) {
      const list: unknown[] = client.domains;
      list.forEach((item: unknown, j) => {
        const itemNode = source.step(domainsNode, j) ?? domainsNode;
        // A batch that is the read's alone lets each item go once taken (one client of 100,000 domains is one batch).
        if (source.release?.(domainsNode, j) === true) list[j] = undefined;
        // An item the domain's room reads: the schema check reported any other.
        const entry = domainItem(item);
        if (entry === undefined) return;
        const { state: domainState, nameKey } = entry;
        const input = ownString(entry.input);
        const domainLoc = source.at(nameKey === undefined ? itemNode : (source.step(itemNode, nameKey) ?? itemNode));
        const normalized = domainItemName(input, name);
        const label = settingsDomainLabel(item, j, name);
        // Its settings and zone, checked whether or not the name is valid: each problem at its value.
        const { settings, problems } = itemSettings(item, label, 'name' in normalized ? normalized.name : undefined);
        const zone = itemZone(
          item,
          label,
          'name' in normalized ? normalized.name : input.trim().toLowerCase(),
          (path) => locateIn(source, itemNode, path, false).line,
          { at: (path) => locateIn(source, itemNode, path, false), keepProblem: patternProblem },
        );
        for (const { path, atKey, ...problem } of [...problems, ...zone.problems]) {
          this.diagnostics.push({ ...locateIn(source, itemNode, path, atKey === true), ...problem });
        }
        if (!('name' in normalized)) {
          this.diagnostics.push({ ...domainLoc, ...normalized });
          return;
        }
        // The name as written when it is already normal: one string for both.
        const domainName = normalized.name === input ? input : normalized.name;
        const desiredDomain: DesiredDomain = new DesiredDomainItem(
          domainName,
          input,
          domainState,
          settings,
          zone.dns,
          domainLoc,
        );
        // Present or absent, a name is listed once: the same key for both.
        const listed = domains.get(domainName);
        if (listed === undefined) {
          if (slot < 0 && this.orphans.length < -slot) this.orphans.push({ index: i, domains: desiredDomains });
          domains.set(domainName, listingOf(slot, desiredDomains.length));
        } else {
          const first = this.firstListing(listed);
          error(domainLoc, listedAgain(input, name, first, first.slot === slot));
        }
        if (zone.dns !== undefined)
          zoned.push({ at: desiredDomains.length, label, dnsAt: locateIn(source, itemNode, ['dns'], true) });
        if (
          isRecord(item) &&
          this.seens.kinds.some((k) => k.section.parent === 'domain' && item[k.section.key] !== undefined)
        )
          sectioned.push({ at: desiredDomains.length, item, node: itemNode });
        desiredDomains.push(desiredDomain);
      });
    }
    // A subdomain's records live in the zone of the topmost domain above it that the client
    // lists: its `dns` is an error (and then the manifest gives no Desired).
    const byName = zoned.length === 0 ? undefined : byFirstName(desiredDomains);
    for (const { at, label, dnsAt } of zoned) {
      const domain = desiredDomains[at];
      const parent = domain === undefined || byName === undefined ? undefined : topmostAbove(domain.name, byName);
      if (domain === undefined || parent === undefined) continue;
      const parentLine = parent.loc?.line ?? 1;
      error(dnsAt, subdomainZone(label, parent.input, parentLine, domain.name.slice(0, -parent.name.length - 1)));
    }

    // The sections under a domain item, once every domain of the client is known (an alias may be on another).
    if (sectioned.length > 0) {
      const clientDomains = new Set(desiredDomains.map((d) => d.name));
      for (const { at, item, node: domainNode } of sectioned) {
        const domain = desiredDomains[at];
        if (domain === undefined) continue;
        const lists = readSections(
          this.seens,
          'domain',
          item,
          source,
          domainNode,
          {
            client: name,
            clientDomains,
            ownerOf: (other) => this.listedBy(other, slot),
            usernames: this.usernameKeys,
            parent: domain.name,
            parentAbsent: domain.state === 'absent',
          },
          this.diagnostics,
        );
        if (lists !== undefined) (domain as { sections?: ReadSections }).sections = lists;
      }
    }
    const sections = this.clientSections(
      source,
      client,
      node,
      name,
      typeof username === 'string' ? username : '',
      false,
      slot,
      desiredDomains,
    );

    if (typeof username !== 'string') return;
    // Create only (never compared): the schema checked its type.
    if (typeof client.send_login_credentials === 'boolean')
      wants[SEND_LOGIN_CREDENTIALS] = client.send_login_credentials;
    if (username === '') this.emptyNamed.set(slot, i);
    this.clients.push(
      new DesiredClientItem(username, state, loc, { wants, planLoc, domains: desiredDomains, sections }),
    );
    // The client keeps a copy of its own length: the list it was built in may go.
    this.currentSlot = Number.NaN;
    this.currentDomains = [];
  }

  /** `value` of the managed field `key` as kept: the previous client's string when equal, else a string of its own. */
  private keptValue(key: string, value: string): string {
    const last = this.lastValues.get(key);
    if (last === value) return last;
    const kept = ownString(value);
    this.lastValues.set(key, kept);
    return kept;
  }

  /** The lists a client item gives of the sections under a client (./sections.ts); undefined: none. */
  private clientSections<N>(
    source: Locator<N>,
    client: Readonly<Record<string, unknown>>,
    node: Found<N>,
    label: string,
    username: string,
    absent: boolean,
    slot: number,
    domains: readonly DesiredDomain[],
  ): ReadSections | undefined {
    if (!this.seens.kinds.some((k) => k.section.parent === 'client' && client[k.section.key] !== undefined))
      return undefined;
    return readSections(
      this.seens,
      'client',
      client,
      source,
      node,
      {
        client: label,
        clientDomains: new Set(domains.map((d) => d.name)),
        ownerOf: (other) => this.listedBy(other, slot),
        usernames: this.usernameKeys,
        parent: username,
        parentAbsent: absent,
      },
      this.diagnostics,
    );
  }
}
