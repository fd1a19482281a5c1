/**
 * A client item's `ftp_users` list as the manifest gives it (`ftp_users: [{name: alice_deploy,
 * home: /www/alice.example, description: deploys}, {name: alice_old, state: absent}]`): the FTP
 * users it wants, and the checks the JSON Schema cannot make, each at file:line:column with what
 * to write: a name the panel would refuse (FTP_USER_NAME_RULE), a home outside the client's
 * `/www` or `/files` (home.ts), a name listed twice (across clients and the parts of a manifest
 * directory through the `seen` the caller shares), an FTP user marked absent with other keys.
 * The schema checks the shapes (the room's schema.json); an item it refuses is passed over here.
 * Pure: the caller hands in where things stand (a locator).
 */
import { quote } from '../../escape.js';
import { isRecord, placeOf } from '../../util.js';
import { FTP_USER_FIELD_NAMES, type FtpUserWants } from './fields.js';
import { homeDomain, normalizeHome } from './home.js';
import type { PathLocator, PlacedProblem, SectionPlace as Place } from '../section.js';

/** The key of a client item that lists its FTP users, and of `prune` that deletes those not listed. */
export const FTP_USERS_KEY = 'ftp_users';

/** The key under which an item names its FTP user. */
export const FTP_USER_NAME_KEY = 'name';

/** The keys of an FTP user item, in the order the schema lists them. */
export const FTP_USER_ITEM_KEYS: readonly string[] = [FTP_USER_NAME_KEY, 'state', ...FTP_USER_FIELD_NAMES];

/** The names the panel takes for an FTP user (the simulator's rule, docs/panel-api.md). */
export const FTP_USER_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** What FTP_USER_NAME_PATTERN says, for people. */
export const FTP_USER_NAME_RULE =
  'an FTP user name is 1 to 64 characters: lowercase letters a-z, digits and . _ -, starting with a letter or a digit';

export type { Place };

/** A problem at its place, as the manifest stage collects them. */
export type FtpUserProblem<L extends Place> = PlacedProblem<L>;

/** Where a path below the `ftp_users` list stands (`[0, 'home']`), at its key rather than its value when `atKey`. */
export type FtpUserLocator<L extends Place> = PathLocator<L>;

/** An FTP user as the manifest wants it. */
export interface WantedFtpUser {
  /** The name, as the panel holds it (lowercase). */
  readonly name: string;
  readonly state: 'present' | 'absent';
  /** The fields it manages (none for one marked absent): a home in comparison form. */
  readonly wants: FtpUserWants;
  /** The domain its home names (`/www/<domain>`, lowercase ASCII); undefined: none. */
  readonly homeDomain: string | undefined;
}

/** An FTP user the list gives, and where its name stands. */
export interface ListedFtpUser<L extends Place> extends WantedFtpUser {
  readonly loc: L;
}

/** The names the manifest lists so far, shared across its clients and parts: each name once. */
export type FtpUserSeen<L extends Place> = Map<string, { readonly client: string; readonly loc: L }>;

export function ftpUserSeen<L extends Place>(): FtpUserSeen<L> {
  return new Map();
}

/** What the list is read against: its client, the manifest's usernames, and the caller's places. */
export interface FtpUserListContext<L extends Place> {
  /** How messages name the client: `client "alice"`. */
  readonly client: string;
  /** The usernames the manifest lists (clients share the panel's names with FTP users). */
  readonly usernames?: ReadonlySet<string>;
  readonly locate: FtpUserLocator<L>;
  readonly seen: FtpUserSeen<L>;
  /** The client item says `state: absent`: it has no FTP users (they go with it). */
  readonly clientAbsent?: boolean;
}

type ErrorAt = (path: readonly (string | number)[], message: string, atKey?: boolean) => void;

/** The name an item gives, lowercase, or what is wrong with it (the end of a sentence). */
export function normalizeFtpUserName(input: string): { readonly name: string } | { readonly problem: string } {
  if (FTP_USER_NAME_PATTERN.test(input)) return { name: input };
  const lower = input.toLowerCase();
  if (FTP_USER_NAME_PATTERN.test(lower))
    return { problem: `has capital letters: write ${lower} (${FTP_USER_NAME_RULE})` };
  return { problem: `is not one the panel takes: ${FTP_USER_NAME_RULE}` };
}

/**
 * The FTP users a client item's `ftp_users` list gives (in its order; an item the schema refuses,
 * or whose name is refused, is left out), and every problem the schema leaves to the room.
 */
export function ftpUserItems<L extends Place>(
  list: unknown,
  ctx: FtpUserListContext<L>,
): { readonly ftpUsers: ListedFtpUser<L>[]; readonly problems: FtpUserProblem<L>[] } {
  const ftpUsers: ListedFtpUser<L>[] = [];
  const problems: FtpUserProblem<L>[] = [];
  if (!Array.isArray(list)) return { ftpUsers, problems };
  if (ctx.clientAbsent === true) {
    problems.push({
      ...ctx.locate([], false),
      severity: 'error',
      message:
        `${ctx.client} has state: absent and "${FTP_USERS_KEY}": a client that is deleted has no FTP users ` +
        `(they go with it); remove "${FTP_USERS_KEY}", or the state`,
    });
    return { ftpUsers, problems };
  }
  list.forEach((item: unknown, index) => {
    const error: ErrorAt = (path, message, atKey = false) => {
      problems.push({ ...ctx.locate([index, ...path], atKey), severity: 'error', message });
    };
    const user = readItem(item, index, ctx, error);
    if (user !== undefined) ftpUsers.push(user);
  });
  return { ftpUsers, problems };
}

/** One item, checked; undefined when the schema refuses its shape or its name is refused. */
function readItem<L extends Place>(
  item: unknown,
  index: number,
  ctx: FtpUserListContext<L>,
  error: ErrorAt,
): ListedFtpUser<L> | undefined {
  if (!isRecord(item) || typeof item[FTP_USER_NAME_KEY] !== 'string') return undefined;
  const input = item[FTP_USER_NAME_KEY];
  const read = normalizeFtpUserName(input);
  if ('problem' in read) {
    error(
      [FTP_USER_NAME_KEY],
      `"${FTP_USER_NAME_KEY}" ${quote(input)} of FTP user #${index + 1} of ${ctx.client} ${read.problem}`,
    );
    return undefined;
  }
  const { name } = read;
  const label = `FTP user ${quote(name)} of ${ctx.client}`;
  const loc = ctx.locate([index, FTP_USER_NAME_KEY], false);
  if (ctx.usernames?.has(name) === true)
    error(
      [FTP_USER_NAME_KEY],
      `${label} has the name of a client the manifest lists: the panel's usernames and FTP user names are one namespace; choose another name`,
    );
  const first = ctx.seen.get(name);
  if (first !== undefined) {
    error(
      [FTP_USER_NAME_KEY],
      `${label} is listed twice (first under ${first.client} at ${placeOf(first.loc, loc.file)}): ` +
        'an FTP user name is unique on the panel; remove one',
    );
    return undefined;
  }
  ctx.seen.set(name, { client: ctx.client, loc });
  const state = item.state === 'absent' ? 'absent' : 'present';
  if (state === 'absent') {
    const extra = FTP_USER_FIELD_NAMES.filter((key) => Object.hasOwn(item, key));
    const [firstExtra] = extra;
    if (firstExtra !== undefined)
      error(
        [firstExtra],
        `${label} has state: absent: remove ${extra.map((key) => `"${key}"`).join(', ')} ` +
          `(an FTP user that is deleted has no other keys than "${FTP_USER_NAME_KEY}" and "state"), ` +
          'or remove "state: absent" to keep the FTP user',
        true,
      );
    return { name, state, wants: {}, homeDomain: undefined, loc };
  }
  const wants: { -readonly [K in keyof FtpUserWants]: FtpUserWants[K] } = {};
  if (typeof item.home === 'string') {
    const home = normalizeHome(item.home);
    if ('home' in home) wants.home = home.home;
    else error(['home'], `home ${quote(item.home)} of ${label} ${home.problem}`);
  }
  if (typeof item.description === 'string') wants.description = item.description;
  return { name, state, wants, homeDomain: wants.home === undefined ? undefined : homeDomain(wants.home), loc };
}
