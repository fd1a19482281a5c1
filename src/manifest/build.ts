import { USERNAME_PATTERN } from '../names.js';
import { type Found, type Locator, locateIn } from './locate.js';
import { clientLabel } from './schema.js';
import type { DesiredClient, DesiredDomain, Diagnostic, Location } from './types.js';
import { DesiredClientItem, DesiredDomainItem, ownString, packPlace, type Place, placeIn } from './desired-items.js';
import { patternProblem } from './prune.js';
import { KeysOf, type ReadSections, readSections, SectionSeens } from './sections.js';
import { isRecord, placeOf } from '../util.js';
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
   * Each domain name's first listing, as a number n: the domain is listings[n], its client's
   * index listingClients[n], whose label is labelOf(index). Numbers and shared references rather
   * than an object and a string for each domain: this lives as long as the read (issue 30, 7f).
   */
  private readonly domains = new Map<string, number>();
  private readonly listings: DesiredDomain[] = [];
  private readonly listingClients: number[] = [];
  /** By client index, of the clients with a first listing: its username ('' for none), from which its label is made. */
  private readonly labelNames: string[] = [];

  /** How messages name client number `index` (clientLabel), made from what labelNames keeps. */
  private labelOf(index: number): string | undefined {
    const username = this.labelNames[index];
    return username === undefined ? undefined : clientLabel({ username }, index);
  }

  /** The first listing of the domain listed as number `n`, for the message about a second one. */
  private firstListing(n: number): FirstListing & { readonly index: number } {
    const domain = this.listings[n];
    const index = this.listingClients[n] ?? -1;
    return {
      input: domain?.input ?? '',
      client: this.labelOf(index) ?? '',
      at: `line ${domain?.loc?.line ?? 1}`,
      index,
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

  /** How the sections' messages name the client that lists `domain` (another than client number `i`); undefined: none yet. */
  private listedBy(domain: string, i: number): string | undefined {
    const n = this.domains.get(domain);
    const index = n === undefined ? undefined : this.listingClients[n];
    return index === undefined || index === i ? undefined : this.labelOf(index);
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
      this.clientSections(source, client, node, name, typeof username === 'string' ? username : '', true, i, []);
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
    const zoned: { readonly at: number; readonly label: string; readonly dnsAt: Location }[] = [];
    /** The domain items (by their place in desiredDomains) that may give lists of the sections under a domain. */
    const sectioned: {
      readonly at: number;
      readonly item: Readonly<Record<string, unknown>>;
      readonly node: Found<N>;
    }[] = [];
    const domainsNode = source.step(node, 'domains');
    if (Array.isArray(client.domains) && domainsNode !== undefined) {
      client.domains.forEach((item: unknown, j) => {
        const itemNode = source.step(domainsNode, j) ?? domainsNode;
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
        const n = domains.get(domainName);
        if (n === undefined) {
          this.labelNames[i] ??= typeof username === 'string' ? username : '';
          domains.set(domainName, this.listings.length);
          this.listings.push(desiredDomain);
          this.listingClients.push(i);
        } else {
          const first = this.firstListing(n);
          error(domainLoc, listedAgain(input, name, first, first.index === i));
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
    for (const { at, label, dnsAt } of zoned) {
      const domain = desiredDomains[at];
      if (domain === undefined) continue;
      const parent = desiredDomains
        .filter((other) => domain.name.endsWith(`.${other.name}`))
        .reduce<DesiredDomain | undefined>(
          (top, other) => (top === undefined || other.name.length < top.name.length ? other : top),
          undefined,
        );
      if (parent === undefined) continue;
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
            ownerOf: (other) => this.listedBy(other, i),
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
      i,
      desiredDomains,
    );

    if (typeof username !== 'string') return;
    // Create only (never compared): the schema checked its type.
    if (typeof client.send_login_credentials === 'boolean')
      wants[SEND_LOGIN_CREDENTIALS] = client.send_login_credentials;
    this.clients.push(
      new DesiredClientItem(username, state, loc, { wants, planLoc, domains: desiredDomains, sections }),
    );
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
    i: number,
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
        ownerOf: (other) => this.listedBy(other, i),
        usernames: this.usernameKeys,
        parent: username,
        parentAbsent: absent,
      },
      this.diagnostics,
    );
  }
}
