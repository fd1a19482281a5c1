/**
 * A domain item's `mailboxes` list as the manifest gives it (`mailboxes: [{name: info, quota: 2
 * GiB, aliases: [hello], forwardings: [owner@example.net], keep_copies: true, catch_all: false,
 * description: Front desk}, {name: old, state: absent}]`): the mailboxes it wants, in comparison
 * form, and the checks the JSON Schema cannot make, each at file:line:column with what to write:
 * a name that is not a local part, a quota that does not parse, an alias or a forwarding that is
 * not an address, an alias on a domain the manifest does not list under the same client, an
 * address listed twice in any spelling (a mailbox's or an alias; across the parts of a manifest
 * directory through the `seen` the caller shares), a second catch-all on one domain, a mailbox
 * marked absent with other keys. The schema checks the shapes (the room's schema.json); an item it
 * refuses is passed over here. Pure: the caller hands in where things stand (a locator).
 */
import { quote } from '../../escape.js';
import { isRecord, placeOf } from '../../util.js';
import { type Address, addressOn, normalizeAddress, normalizeLocalPart } from './address.js';
import { MAILBOX_FIELD_NAMES, type MailboxWants } from './fields.js';
import { parseQuota } from './quota.js';

/** The key of a domain item that lists its mailboxes, and of `prune` that deletes those not listed. */
export const MAILBOXES_KEY = 'mailboxes';

/** The key under which an item names its mailbox (the local part). */
export const MAILBOX_NAME_KEY = 'name';

/** The keys of a mailbox item, in the order the schema lists them. */
export const MAILBOX_ITEM_KEYS: readonly string[] = [MAILBOX_NAME_KEY, 'state', ...MAILBOX_FIELD_NAMES];

/** A place in a manifest file; line and column count from 1. */
export interface Place {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A problem at its place, as the manifest stage collects them (manifest/types.ts Diagnostic). */
export type MailboxProblem<L extends Place> = L & { readonly severity: 'error' | 'warning'; readonly message: string };

/**
 * Where a path below the `mailboxes` list stands (`[0, 'aliases', 1]`: the second alias of the
 * first item), at its key rather than its value when `atKey`.
 */
export type MailboxLocator<L extends Place> = (path: readonly (string | number)[], atKey: boolean) => L;

/** A mailbox as the manifest wants it. */
export interface WantedMailbox extends Address {
  /** The name (local part) as written. */
  readonly input: string;
  readonly state: 'present' | 'absent';
  /** The fields it manages (none for one marked absent): aliases and forwardings as full addresses in comparison form. */
  readonly wants: MailboxWants;
}

/** A mailbox the list gives, and where its name stands. */
export interface ListedMailbox<L extends Place> extends WantedMailbox {
  readonly loc: L;
}

/** An address taken by an earlier entry: as written, by a mailbox or as an alias of one, where. */
interface Taken<L extends Place> {
  readonly input: string;
  /** The mailbox's address whose alias it is; undefined: the mailbox's own. */
  readonly aliasOf: string | undefined;
  readonly loc: L;
}

/**
 * The addresses the manifest lists so far, shared across its domains and parts so that one
 * address is listed once: `names` each mailbox's (present or absent), `claims` each address a
 * present mailbox takes (its own, its aliases). A mailbox marked absent frees its address: an
 * alias may take it in the same apply.
 */
export interface MailboxSeen<L extends Place> {
  readonly names: Map<string, Taken<L>>;
  readonly claims: Map<string, Taken<L>>;
}

export function mailboxSeen<L extends Place>(): MailboxSeen<L> {
  return { names: new Map(), claims: new Map() };
}

/** What the list is read against: its domain and client, the client's other domains, and the caller's places. */
export interface MailboxListContext<L extends Place> {
  /** The domain the list is under, in comparison form (lowercase ASCII). */
  readonly domain: string;
  /** How messages name the client: `client "alice"`. */
  readonly client: string;
  /** The domains the manifest lists under the same client (comparison form): an alias may be on one of them. */
  readonly clientDomains: ReadonlySet<string>;
  /** How messages name the client that lists `domain` elsewhere in the manifest; undefined: none does. */
  readonly ownerOf?: (domain: string) => string | undefined;
  readonly locate: MailboxLocator<L>;
  readonly seen: MailboxSeen<L>;
  /** The domain item says `state: absent`: it has no mailboxes (they go with it). */
  readonly domainAbsent?: boolean;
}

/** How messages name a mailbox: by its address once known, else by its place in the list. */
function labelOf(address: string | undefined, index: number, domain: string): string {
  return address === undefined ? `mailbox #${index + 1} of domain ${quote(domain)}` : `mailbox ${quote(address)}`;
}

/**
 * The mailboxes a domain item's `mailboxes` list gives (in its order; an item the schema refuses,
 * or whose name is refused, is left out), and every problem the schema leaves to the room.
 */
export function mailboxItems<L extends Place>(
  list: unknown,
  ctx: MailboxListContext<L>,
): { readonly mailboxes: ListedMailbox<L>[]; readonly problems: MailboxProblem<L>[] } {
  const mailboxes: ListedMailbox<L>[] = [];
  const problems: MailboxProblem<L>[] = [];
  if (!Array.isArray(list)) return { mailboxes, problems };
  if (ctx.domainAbsent === true) {
    problems.push({
      ...ctx.locate([], false),
      severity: 'error',
      message:
        `domain ${quote(ctx.domain)} has state: absent and "${MAILBOXES_KEY}": a domain that is deleted has no ` +
        `mailboxes (they go with it); remove "${MAILBOXES_KEY}", or the state`,
    });
    return { mailboxes, problems };
  }
  let catchAll: { readonly address: string; readonly loc: L } | undefined;
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    const mailbox = readItem(item, new ItemPlaces(ctx, problems, index));
    if (mailbox === undefined) continue;
    mailboxes.push(mailbox);
    if (mailbox.wants.catch_all !== true) continue;
    if (catchAll === undefined) catchAll = { address: mailbox.address, loc: mailbox.loc };
    else
      new ItemPlaces(ctx, problems, index).error(
        ['catch_all'],
        `${labelOf(mailbox.address, index, ctx.domain)} is a second catch-all of domain ${quote(ctx.domain)} ` +
          `(the first is ${quote(catchAll.address)} at ${placeOf(catchAll.loc, mailbox.loc.file)}): ` +
          'a domain has at most one; set catch_all: false on one of them',
      );
  }
  return { mailboxes, problems };
}

/**
 * Where the paths below one item stand, and its problems: one small object per item rather than
 * closures, and its messages' label (labelOf) made only when one is reported.
 */
class ItemPlaces<L extends Place> {
  constructor(
    readonly ctx: MailboxListContext<L>,
    private readonly problems: MailboxProblem<L>[],
    readonly index: number,
  ) {}

  /** The place of `path` below the item. */
  at(path: readonly (string | number)[]): L {
    return this.ctx.locate([this.index, ...path], false);
  }

  /** A problem at `path` below the item (at its key when `atKey`). */
  error(path: readonly (string | number)[], message: string, atKey = false): void {
    this.problems.push({ ...this.ctx.locate([this.index, ...path], atKey), severity: 'error', message });
  }

  /** How messages name the mailbox of address `address` (labelOf). */
  label(address: string): string {
    return labelOf(address, this.index, this.ctx.domain);
  }
}

/** One item, checked; undefined when the schema refuses its shape or its name is refused. */
function readItem<L extends Place>(item: unknown, places: ItemPlaces<L>): ListedMailbox<L> | undefined {
  if (!isRecord(item)) return undefined;
  const input = item[MAILBOX_NAME_KEY];
  if (typeof input !== 'string') return undefined;
  const { ctx } = places;
  const address = itemAddress(input, places.index, ctx.domain, places);
  if (address === undefined) return undefined;
  const loc = places.at([MAILBOX_NAME_KEY]);
  const state = item.state === 'absent' ? 'absent' : 'present';
  if (state === 'absent') {
    const extra = MAILBOX_FIELD_NAMES.filter((key) => Object.hasOwn(item, key));
    const [first] = extra;
    if (first !== undefined)
      places.error(
        [first],
        `${places.label(address.address)} has state: absent: remove ${extra.map((key) => `"${key}"`).join(', ')} ` +
          `(a mailbox that is deleted has no other keys than "${MAILBOX_NAME_KEY}" and "state"), ` +
          'or remove "state: absent" to keep the mailbox',
        true,
      );
  }
  if (!takeName(address, input, loc, state, ctx.seen, places)) return undefined;
  const wants = state === 'absent' ? {} : itemWants(item, address, ctx, places);
  return { address: address.address, local: address.local, domain: address.domain, input, state, wants, loc };
}

/** The address an item's name gives on `domain`, or undefined after its error. */
function itemAddress<L extends Place>(
  input: string,
  index: number,
  domain: string,
  places: ItemPlaces<L>,
): Address | undefined {
  const what = (): string => `"${MAILBOX_NAME_KEY}" ${quote(input)} of ${labelOf(undefined, index, domain)}`;
  const at = input.lastIndexOf('@');
  if (at >= 0 && 'local' in normalizeLocalPart(input.slice(0, at))) {
    places.error(
      [MAILBOX_NAME_KEY],
      `${what()} is a whole address: write the local part only (name: ${input.slice(0, at)}); ` +
        'the domain is the one the mailbox is listed under',
    );
    return undefined;
  }
  const local = normalizeLocalPart(input);
  if ('problem' in local) {
    places.error([MAILBOX_NAME_KEY], `${what()} ${local.problem}`);
    return undefined;
  }
  const address = addressOn(local.local, domain);
  if ('problem' in address) {
    places.error([MAILBOX_NAME_KEY], `${what()} makes an address that ${address.problem}`);
    return undefined;
  }
  return address;
}

/** `(same as "Info")` when the first spelling differs from this one; else ''. */
function sameAs(first: string, input: string): string {
  return first === input ? '' : ` (same as ${quote(first)})`;
}

/** Records the mailbox's address in `seen`; false, after its error, when an earlier entry has it. */
function takeName<L extends Place>(
  address: Address,
  input: string,
  loc: L,
  state: 'present' | 'absent',
  seen: MailboxSeen<L>,
  places: ItemPlaces<L>,
): boolean {
  const named = seen.names.get(address.address);
  const claimed = state === 'present' ? seen.claims.get(address.address) : undefined;
  if (named !== undefined) {
    places.error(
      [MAILBOX_NAME_KEY],
      `${places.label(address.address)}${sameAs(named.input, input)} is listed twice (first at ${placeOf(named.loc, loc.file)}): remove one`,
    );
    return false;
  }
  if (claimed !== undefined) {
    places.error(
      [MAILBOX_NAME_KEY],
      `${places.label(address.address)} is already an alias of mailbox ${quote(claimed.aliasOf ?? '')} ` +
        `(at ${placeOf(claimed.loc, loc.file)}): an address is listed once, as a mailbox or as an alias: remove one of them`,
    );
    return false;
  }
  const taken = { input, aliasOf: undefined, loc };
  seen.names.set(address.address, taken);
  if (state === 'present') seen.claims.set(address.address, taken);
  return true;
}

/** The fields a present item gives, each checked; a value refused is left out (not managed). */
function itemWants<L extends Place>(
  item: Readonly<Record<string, unknown>>,
  address: Address,
  ctx: MailboxListContext<L>,
  places: ItemPlaces<L>,
): MailboxWants {
  const wants: { -readonly [K in keyof MailboxWants]: MailboxWants[K] } = {};
  const quota = item.quota;
  if (quota !== undefined) {
    const parsed = parseQuota(quota);
    if ('bytes' in parsed) wants.quota = parsed.bytes;
    else
      places.error(
        ['quota'],
        `quota ${typeof quota === 'string' ? quote(quota) : JSON.stringify(quota)} of ${places.label(address.address)} ${parsed.problem}`,
      );
  }
  const label = (): string => places.label(address.address);
  const error: ErrorAt = (path, message, atKey) => {
    places.error(path, message, atKey);
  };
  const at = (path: readonly (string | number)[]): L => places.at(path);
  const aliasList = Array.isArray(item.aliases) ? aliases(item.aliases, address, label(), ctx, at, error) : undefined;
  if (aliasList !== undefined) wants.aliases = aliasList;
  const forwardList = Array.isArray(item.forwardings)
    ? forwardings(item.forwardings, address, label(), error)
    : undefined;
  if (forwardList !== undefined) wants.forwardings = forwardList;
  if (typeof item.keep_copies === 'boolean') wants.keep_copies = item.keep_copies;
  if (typeof item.catch_all === 'boolean') wants.catch_all = item.catch_all;
  if (typeof item.description === 'string') wants.description = item.description;
  return wants;
}

/**
 * Each alias as a full address in comparison form (undefined when one is refused: the list is
 * then not managed): a local part is on the mailbox's domain, a
 * full address on a domain the manifest lists under the same client; each address once in the
 * whole manifest, never the mailbox's own.
 */
function aliases<L extends Place>(
  list: readonly unknown[],
  mailbox: Address,
  label: string,
  ctx: MailboxListContext<L>,
  at: (path: readonly (string | number)[]) => L,
  error: ErrorAt,
): string[] | undefined {
  const taken: string[] = [];
  const refused = { any: false };
  const fail = (path: readonly (string | number)[], message: string): void => {
    refused.any = true;
    error(path, message);
  };
  list.forEach((alias, i) => {
    if (typeof alias !== 'string') return; // the schema refuses it
    const path = ['aliases', i];
    const loc = at(path);
    const what = `alias ${quote(alias)} of ${label}`;
    const read = alias.includes('@') ? normalizeAddress(alias) : normalizeAddress(`${alias}@${mailbox.domain}`);
    if ('problem' in read) {
      fail(path, alias.includes('@') ? `${what} ${read.problem}` : `${what} is not a local part: it ${read.problem}`);
      return;
    }
    if (read.domain !== mailbox.domain && !ctx.clientDomains.has(read.domain)) {
      const owner = ctx.ownerOf?.(read.domain);
      fail(
        path,
        `${what} is on ${quote(read.domain)}, which ` +
          (owner === undefined
            ? `the manifest does not list under ${ctx.client}: list the domain under ${ctx.client}, or remove the alias`
            : `the manifest lists under ${owner}: an alias is on a domain of the mailbox's own client (${ctx.client})`),
      );
      return;
    }
    if (read.address === mailbox.address) {
      fail(path, `${what} is the mailbox's own address: remove it`);
      return;
    }
    if (taken.includes(read.address)) {
      fail(path, `${what} is listed twice in its aliases: remove one`);
      return;
    }
    const first = ctx.seen.claims.get(read.address);
    if (first !== undefined) {
      const whose = first.aliasOf === undefined ? 'the address of a mailbox' : `an alias of ${quote(first.aliasOf)}`;
      fail(
        path,
        `${what}${sameAs(first.input, alias)} is already ${whose} (at ${placeOf(first.loc, loc.file)}): ` +
          'an address is listed once, as a mailbox or as an alias: remove one of them',
      );
      return;
    }
    ctx.seen.claims.set(read.address, { input: alias, aliasOf: mailbox.address, loc });
    taken.push(read.address);
  });
  return refused.any ? undefined : taken;
}

type ErrorAt = (path: readonly (string | number)[], message: string, atKey?: boolean) => void;

/** Each forwarding as a full address in comparison form, each once, never the mailbox's own; undefined when one is refused. */
function forwardings(list: readonly unknown[], mailbox: Address, label: string, error: ErrorAt): string[] | undefined {
  const taken: string[] = [];
  const refused = { any: false };
  const fail = (path: readonly (string | number)[], message: string): void => {
    refused.any = true;
    error(path, message);
  };
  list.forEach((target, i) => {
    if (typeof target !== 'string') return; // the schema refuses it
    const path = ['forwardings', i];
    const what = `forwarding ${quote(target)} of ${label}`;
    const read = normalizeAddress(target);
    if ('problem' in read) fail(path, `${what} ${read.problem}`);
    else if (read.address === mailbox.address)
      fail(path, `${what} is the mailbox's own address: remove it (keep_copies keeps forwarded mail here)`);
    else if (taken.includes(read.address)) fail(path, `${what} is listed twice in its forwardings: remove one`);
    else taken.push(read.address);
  });
  return refused.any ? undefined : taken;
}
