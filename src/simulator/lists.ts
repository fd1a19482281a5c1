/**
 * The lists of the simulator's store, one group per kind, each declared beside its kind's
 * records (table.ts says what a rule holds). Their order is the store's: a list comes after
 * the lists its records refer to (a domain's `id_user` names a client), which is the order the
 * state file loads them in. A new kind adds its group here and its module to kinds/index.ts.
 */
import { CLIENT_LISTS } from './kinds/client-records.js';
import { DATABASE_LISTS } from './kinds/database-records.js';
import { DOMAIN_LISTS } from './kinds/domain-records.js';
import { FTP_USER_LISTS } from './kinds/ftp-user-records.js';
import { MAILBOX_LISTS } from './kinds/mailbox-records.js';
import { PLAN_LISTS } from './hosting-plans.js';
import type { ListRule } from './table.js';
import { ZONE_LISTS } from './zones.js';

export const LISTS = {
  ...PLAN_LISTS,
  ...CLIENT_LISTS,
  ...DOMAIN_LISTS,
  ...ZONE_LISTS,
  ...MAILBOX_LISTS,
  ...DATABASE_LISTS,
  ...FTP_USER_LISTS,
};

type Lists = typeof LISTS;

export type ListName = keyof Lists;

export const LIST_NAMES = Object.keys(LISTS) as readonly ListName[];

/** The record a list's changes carry (and its snapshot holds). */
export type RecordOf<L extends ListName> = ReturnType<Lists[L]['record']>;

/** The value a list keeps for a record (the store's maps hold these). */
export type ValueOf<L extends ListName> = ReturnType<Lists[L]['value']>;

/** The lists whose records are deleted one by one. */
export type DeletableList = { [L in ListName]: Lists[L] extends { deletable: true } ? L : never }[ListName];

/**
 * One change to the store, as every mutation makes it: the state file (state-file.ts) logs
 * each and replays them with `apply`. A record is set whole; removing a client removes its
 * domains first, each its own change. state-file.ts writes a change as it is, one JSON line:
 * change this shape only together with that file's format version.
 */
export type StoreChange =
  | { [L in ListName]: { readonly set: L; readonly record: RecordOf<L> } }[ListName]
  | { readonly delete: DeletableList; readonly id: number };

/** The rule of a list, typed for it. */
export function ruleOf<L extends ListName>(list: L): ListRule<RecordOf<L>, ValueOf<L>> {
  return LISTS[list] as unknown as ListRule<RecordOf<L>, ValueOf<L>>;
}
