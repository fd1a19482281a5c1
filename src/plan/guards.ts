import { quote } from '../escape.js';
import { assertNever, plural } from '../util.js';
import type { Change, Plan } from './types.js';
import { kindOf } from '../kinds/index.js';
import type { Weight } from '../kinds/kind.js';

/**
 * The rails a plan is checked against before apply sends anything (pure: the CLI decides what
 * to do with them). A mass create or a mass delete needs its --allow flag; a delete and a create
 * of clients in one plan looks like a rename, which the panel cannot do.
 */

/** Plans that create more than this many resources need --allow-mass-create to be applied. */
export const DEFAULT_MAX_CREATES = 100;
/** Plans that delete more than this many resources need --allow-mass-delete to be applied. */
export const DEFAULT_MAX_DELETES = 10;

/**
 * How much a change creates and destroys: a deleted client counts once plus once per domain
 * that goes with it; a client whose domains the panel cannot list is marked `unknown`; a zone's
 * update counts once per record it removes.
 */
export function weight(change: Change): Weight {
  return kindOf(change).weight(change);
}

/** Resources the plan creates and deletes in all, and how many deleted clients take domains nobody could count. */
export function totals(plan: Plan): { creates: number; deletes: number; uncounted: number } {
  let creates = 0;
  let deletes = 0;
  let uncounted = 0;
  for (const change of plan.changes) {
    const w = weight(change);
    creates += w.creates;
    deletes += w.deletes;
    if (w.unknown === true) uncounted++;
  }
  return { creates, deletes, uncounted };
}

export interface Limits {
  readonly maxCreates: number;
  readonly allowMassCreate: boolean;
  readonly maxDeletes: number;
  readonly allowMassDelete: boolean;
}

/** Which rail the plan goes past, each with its sentence; empty when within both (or allowed). */
export function massChanges(plan: Plan, limits: Limits): string[] {
  const { creates, deletes, uncounted } = totals(plan);
  const found: string[] = [];
  if (creates > limits.maxCreates && !limits.allowMassCreate) {
    found.push(
      `this plan creates ${creates} resources, more than the limit of ${limits.maxCreates} (--max-creates): ` +
        'apply refuses it without --allow-mass-create',
    );
  }
  if (uncounted > 0 && !limits.allowMassDelete) {
    found.push(
      `this plan deletes ${plural(uncounted, 'client')} whose domains the panel cannot list ` +
        `(they go with ${uncounted === 1 ? 'it' : 'them'}, however many there are): ` +
        'apply refuses it without --allow-mass-delete',
    );
  } else if (deletes > limits.maxDeletes && !limits.allowMassDelete) {
    found.push(
      `this plan deletes ${plural(deletes, 'resource')} (a client counts with each of its domains, a zone each record it removes), ` +
        `more than the limit of ${limits.maxDeletes} (--max-deletes): ` +
        'apply refuses it without --allow-mass-delete',
    );
  }
  return found;
}

/**
 * A sentence when the plan deletes clients and creates others: a rename is not possible on the
 * panel (usernames are identities), and deleting takes the account's mail, databases and files.
 */
export function renameWarning(plan: Plan): string | undefined {
  const deleted: string[] = [];
  const created: string[] = [];
  for (const change of plan.changes) {
    if (change.type !== 'client') continue;
    switch (change.action) {
      case 'create':
        created.push(change.name);
        break;
      case 'delete':
        deleted.push(change.name);
        break;
      case 'update':
        break;
      default:
        assertNever(change);
    }
  }
  if (deleted.length === 0 || created.length === 0) return undefined;
  const names = (list: string[]): string =>
    list
      .slice(0, 3)
      .map((n) => quote(n))
      .join(', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
  return (
    `this plan deletes ${plural(deleted.length, 'client')} (${names(deleted)}) ` +
    `and creates ${plural(created.length, 'client')} (${names(created)}): ` +
    'if this is meant as a rename, the panel cannot rename (usernames are identities): ' +
    'the new account starts empty and the deleted one loses its mail, databases and files'
  );
}

/** The limits when none are given (--max-creates, --max-deletes at their defaults; no --allow-mass-*). */
export const DEFAULT_LIMITS: Limits = {
  maxCreates: DEFAULT_MAX_CREATES,
  allowMassCreate: false,
  maxDeletes: DEFAULT_MAX_DELETES,
  allowMassDelete: false,
};

/** The warnings a plan gets beside its changes: a mass create or delete, what looks like a rename. */
export function planWarnings(plan: Plan, limits: Limits): string[] {
  const rename = renameWarning(plan);
  return [...massChanges(plan, limits), ...(rename === undefined ? [] : [rename])];
}

/**
 * Whether any change creates a thing of a kind with a secret (Kind.secret: a client, and the
 * kinds after it): then apply needs a secrets file for its password.
 */
export function createsSecrets(changes: readonly Change[]): boolean {
  return secretNouns(changes) !== undefined;
}

/** createsSecrets, by the name the library has always exported. */
export const createsClients = createsSecrets;

/**
 * What the plan creates that has a password, for a sentence: the plural nouns of those kinds in
 * the order their first create comes (`clients`, or two such nouns joined by `and`); undefined for none.
 */
export function secretNouns(changes: readonly Change[]): string | undefined {
  const nouns: string[] = [];
  for (const change of changes) {
    const kind = kindOf(change);
    if (change.action === 'create' && kind.secret !== undefined && !nouns.includes(kind.noun.many))
      nouns.push(kind.noun.many);
  }
  const last = nouns.pop();
  return last === undefined ? undefined : nouns.length === 0 ? last : `${nouns.join(', ')} and ${last}`;
}
