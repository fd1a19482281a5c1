/**
 * The fields a present mailbox item gives (manifest.ts), each checked at file:line:column with
 * what to write: a quota that does not parse, an alias or a forwarding that is not an address, an
 * alias on a domain the manifest does not list under the same client, an address listed twice.
 * Pure.
 */
import { quote } from '../../escape.js';
import { placeOf } from '../../util.js';
import { type Address, normalizeAddress } from './address.js';
import type { MailboxWants } from './fields.js';
import { claimOf, type ItemPlaces, type MailboxListContext, type Place, sameAs } from './manifest-context.js';
import { parseQuota } from './quota.js';

/** The fields a present item gives, each checked; a value refused is left out (not managed). */
export function itemWants<L extends Place>(
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
    const first = claimOf(ctx.seen, read.address);
    if (first !== undefined) {
      const whose = first.aliasOf === undefined ? 'the address of a mailbox' : `an alias of ${quote(first.aliasOf)}`;
      fail(
        path,
        `${what}${sameAs(first.input, alias)} is already ${whose} (at ${placeOf(first.loc, loc.file)}): ` +
          'an address is listed once, as a mailbox or as an alias: remove one of them',
      );
      return;
    }
    ctx.seen.aliases.set(read.address, { input: alias, aliasOf: mailbox.address, loc });
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
