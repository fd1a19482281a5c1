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
import { isNormalDomain } from '../../names.js';
import { isRecord, placeOf } from '../../util.js';
import { ADDRESS_MAX, type Address, addressOn, isPlainLocalPart, LOCAL_MAX, normalizeLocalPart } from './address.js';
import { MAILBOX_FIELD_NAMES, type MailboxWants } from './fields.js';
import {
  ItemPlaces,
  labelOf,
  type MailboxListContext,
  type MailboxProblem,
  type Named,
  type Place,
  sameAs,
} from './manifest-context.js';
import { itemWants } from './manifest-wants.js';

export {
  type MailboxListContext,
  type MailboxLocator,
  type MailboxProblem,
  type MailboxSeen,
  mailboxSeen,
  type Place,
} from './manifest-context.js';

/** The key of a domain item that lists its mailboxes, and of `prune` that deletes those not listed. */
export const MAILBOXES_KEY = 'mailboxes';

/** The key under which an item names its mailbox (the local part). */
export const MAILBOX_NAME_KEY = 'name';

/** The keys of a mailbox item, in the order the schema lists them. */
export const MAILBOX_ITEM_KEYS: readonly string[] = [MAILBOX_NAME_KEY, 'state', ...MAILBOX_FIELD_NAMES];

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
  // Checked once for the list: every item's address is then built without normalizing it (addressOn).
  const plainDomain = isNormalDomain(ctx.domain);
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    const mailbox = readItem(item, ctx, problems, index, plainDomain);
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
  // Kept with the manifest: copied to its length (built by push, it has room for more than it holds).
  return { mailboxes: mailboxes.slice(), problems };
}

/** The paths of the first items' names, each made once: a locator only reads its path. */
const NAME_PATHS: (readonly (string | number)[])[] = [];
const NAME_PATHS_KEPT = 64;

/** The path of an item's name below the list. */
function namePath(index: number): readonly (string | number)[] {
  if (index >= NAME_PATHS_KEPT) return [index, MAILBOX_NAME_KEY];
  return (NAME_PATHS[index] ??= Object.freeze([index, MAILBOX_NAME_KEY]));
}

/**
 * The fields of a present item that gives none: one object, shared, never changed (the diff
 * knows such a mailbox by it: nothing to compare).
 */
export const NO_WANTS: MailboxWants = Object.freeze({});

/**
 * One item, checked; undefined when the schema refuses its shape or its name is refused. An item
 * whose name is a plain local part, on a domain in comparison form, with no other key (nearly
 * every one) is read without the per-item helpers: its address built once (one pattern test), its
 * place located directly, its entry in `seen` the mailbox itself.
 */
function readItem<L extends Place>(
  item: unknown,
  ctx: MailboxListContext<L>,
  problems: MailboxProblem<L>[],
  index: number,
  plainDomain: boolean,
): ListedMailbox<L> | undefined {
  if (!isRecord(item)) return undefined;
  const input = item[MAILBOX_NAME_KEY];
  if (typeof input !== 'string') return undefined;
  const plain = plainDomain && onlyName(item) ? plainAddress(input, ctx.domain) : undefined;
  if (plain !== undefined) {
    const mailbox: ListedMailbox<L> = {
      address: plain,
      local: input,
      domain: ctx.domain,
      input,
      state: 'present',
      wants: NO_WANTS,
      loc: nameAt(ctx, index),
    };
    const { seen } = ctx;
    // Neither listed before nor any alias listed yet (most items): nameTaken would find nothing.
    if ((seen.names.has(plain) || seen.aliases.size > 0) && nameTaken(mailbox, ctx, problems, index)) return undefined;
    seen.names.set(plain, mailbox);
    return mailbox;
  }
  const places = new ItemPlaces(ctx, problems, index);
  const address = itemAddress(input, index, ctx.domain, places);
  if (address === undefined) return undefined;
  const loc = nameAt(ctx, index);
  const state: 'present' | 'absent' = item.state === 'absent' ? 'absent' : 'present';
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
  if (nameTaken({ address: address.address, input, state, loc }, ctx, problems, index)) return undefined;
  // Its aliases are checked against `seen` without its own address: an alias that is it is refused as such.
  const wants = state === 'absent' ? {} : itemWants(item, address, ctx, places);
  const mailbox = { address: address.address, local: address.local, domain: address.domain, input, state, wants, loc };
  ctx.seen.names.set(address.address, mailbox);
  return mailbox;
}

/** Where item `index`'s name stands: asked of itemAt, which finds it without the path's steps where it can. */
function nameAt<L extends Place>(ctx: MailboxListContext<L>, index: number): L {
  return ctx.itemAt === undefined ? ctx.locate(namePath(index), false) : ctx.itemAt(index, MAILBOX_NAME_KEY);
}

/** Whether an item gives its name and no other key. */
function onlyName(item: Readonly<Record<string, unknown>>): boolean {
  for (const key in item) if (key !== MAILBOX_NAME_KEY) return false;
  return true;
}

/**
 * The address of a name that is a local part in comparison form already (a lowercase dot-atom),
 * on `domain` in comparison form: what itemAddress gives for it, in one pattern test; undefined
 * for any other name (itemAddress reads it).
 */
function plainAddress(input: string, domain: string): string | undefined {
  if (input.length > LOCAL_MAX || !isPlainLocalPart(input)) return undefined;
  // Joined, not concatenated: a flat string, hashed and compared as one piece (a concatenation is a rope).
  const address = [input, domain].join('@');
  return address.length <= ADDRESS_MAX ? address : undefined;
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

/** Whether an earlier entry of `seen` has the mailbox's address: then true, after its error. */
function nameTaken<L extends Place>(
  mailbox: { readonly address: string } & Named<L>,
  ctx: MailboxListContext<L>,
  problems: MailboxProblem<L>[],
  index: number,
): boolean {
  const { address, input, loc } = mailbox;
  const named = ctx.seen.names.get(address);
  // Not a mailbox's (named is undefined): what claims it is an alias, if anything.
  const claimed = named === undefined && mailbox.state === 'present' ? ctx.seen.aliases.get(address) : undefined;
  if (named === undefined && claimed === undefined) return false;
  const places = new ItemPlaces(ctx, problems, index);
  if (named !== undefined)
    places.error(
      [MAILBOX_NAME_KEY],
      `${places.label(address)}${sameAs(named.input, input)} is listed twice (first at ${placeOf(named.loc, loc.file)}): remove one`,
    );
  else
    places.error(
      [MAILBOX_NAME_KEY],
      `${places.label(address)} is already an alias of mailbox ${quote(claimed?.aliasOf ?? '')} ` +
        `(at ${placeOf(claimed?.loc ?? loc, loc.file)}): an address is listed once, as a mailbox or as an alias: remove one of them`,
    );
  return true;
}
