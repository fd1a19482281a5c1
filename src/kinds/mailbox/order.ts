/**
 * The order among a plan's mailbox changes: whatever frees an address, an alias or a domain's
 * catch-all (a delete, an update that drops an alias or turns catch_all off) goes before whatever
 * takes it in the same apply (a create, an update that adds the alias or turns catch_all on),
 * since the panel refuses an address or a second catch-all it still holds. Changes that would
 * each wait for the other (two mailboxes swapping an alias) cannot be ordered: they are named,
 * for the planner to refuse; so is what a change takes that the panel holds on another mailbox
 * and no change frees (heldElsewhere). Pure.
 */
import { quote } from '../../escape.js';
import type { ChangeId } from '../common.js';
import { domainOf } from './address.js';
import type { MailboxChange } from './changes.js';
import type { LiveMailbox } from './record.js';

/** What one change frees or takes: addresses, and the domain whose catch-all it is. */
interface Holds {
  readonly addresses: readonly string[];
  readonly catchAll: string | undefined;
}

const NONE: Holds = { addresses: [], catchAll: undefined };

/** The aliases an update adds (`gained`) or drops. */
function aliasesMoved(change: MailboxChange, gained: boolean): string[] {
  if (change.action !== 'update') return [];
  const field = change.fields.find((f) => f.field === 'aliases');
  if (field?.field !== 'aliases') return [];
  const [from, to] = gained ? [field.before, field.after] : [field.after, field.before];
  const had = new Set(from);
  return to.filter((a) => !had.has(a));
}

/** Whether an update turns catch_all to `to`. */
function catchAllTurned(change: MailboxChange, to: boolean): boolean {
  if (change.action !== 'update') return false;
  const field = change.fields.find((f) => f.field === 'catch_all');
  return field?.field === 'catch_all' && field.after === to && field.before !== to;
}

/** What a change takes: a create its address, aliases and catch-all; an update the aliases and catch-all it gains. */
function takes(change: MailboxChange): Holds {
  switch (change.action) {
    case 'create':
      return {
        addresses: [change.name, ...(change.wants.aliases ?? [])],
        catchAll: change.wants.catch_all === true ? change.domain : undefined,
      };
    case 'update':
      return {
        addresses: aliasesMoved(change, true),
        catchAll: catchAllTurned(change, true) ? domainOf(change.name) : undefined,
      };
    default:
      return NONE;
  }
}

/** What a change frees: a delete its address, its aliases and its catch-all as read; an update what it drops. */
function frees(change: MailboxChange, live: (id: number) => LiveMailbox | undefined): Holds {
  switch (change.action) {
    case 'delete': {
      const record = live(change.mailboxId);
      return {
        addresses: [change.name, ...(record?.aliases ?? [])],
        catchAll: record?.catchAll === true ? domainOf(change.name) : undefined,
      };
    }
    case 'update':
      return {
        addresses: aliasesMoved(change, false),
        catchAll: catchAllTurned(change, false) ? domainOf(change.name) : undefined,
      };
    default:
      return NONE;
  }
}

/**
 * The changes with each one's waits for the changes that free what it takes added to its
 * `dependsOn` (in the order given; the others' waits kept), and the ids of the changes caught in
 * a circle of such waits (empty when none). `live` gives a mailbox's record by its id, for what a
 * delete frees.
 */
export function freeBeforeTake(
  changes: readonly MailboxChange[],
  live: (id: number) => LiveMailbox | undefined,
): { readonly changes: MailboxChange[]; readonly circular: readonly ChangeId[] } {
  const freers = new Map<string, ChangeId[]>();
  const add = (key: string, id: ChangeId): void => {
    const list = freers.get(key);
    if (list === undefined) freers.set(key, [id]);
    else list.push(id);
  };
  for (const change of changes) {
    const freed = frees(change, live);
    for (const address of freed.addresses) add(`@${address}`, change.id);
    if (freed.catchAll !== undefined) add(`*${freed.catchAll}`, change.id);
  }
  const waits = new Map<ChangeId, ChangeId[]>();
  const ordered = changes.map((change) => {
    const taken = takes(change);
    const keys = [
      ...taken.addresses.map((a) => `@${a}`),
      ...(taken.catchAll === undefined ? [] : [`*${taken.catchAll}`]),
    ];
    const extra = [...new Set(keys.flatMap((key) => freers.get(key) ?? []))].filter(
      (id) => id !== change.id && !change.dependsOn.includes(id),
    );
    if (extra.length === 0) return change;
    waits.set(change.id, extra);
    return { ...change, dependsOn: [...change.dependsOn, ...extra] };
  });
  return { changes: ordered, circular: inCircles(waits) };
}

/**
 * What the changes take that the panel holds on another mailbox and no change of the plan frees
 * (an alias of an unlisted mailbox, one whose aliases the manifest leaves alone, a catch-all of
 * one whose catch_all it does not manage): the panel would refuse the request at apply. One
 * sentence each, with what to do. `mailboxes` are the panel's records.
 */
export function heldElsewhere(changes: readonly MailboxChange[], mailboxes: Iterable<LiveMailbox>): string[] {
  const holders = new Map<string, LiveMailbox>();
  for (const m of mailboxes) {
    holders.set(`@${m.address}`, m);
    for (const alias of m.aliases ?? []) holders.set(`@${alias}`, m);
    if (m.catchAll === true) holders.set(`*${domainOf(m.address)}`, m);
  }
  const byId = new Map<number, LiveMailbox>();
  for (const m of holders.values()) byId.set(m.id, m);
  const freed = new Set<string>();
  for (const change of changes) {
    const f = frees(change, (id) => byId.get(id));
    for (const address of f.addresses) freed.add(`@${address}`);
    if (f.catchAll !== undefined) freed.add(`*${f.catchAll}`);
  }
  const problems: string[] = [];
  for (const change of changes) {
    const own = change.action === 'create' ? undefined : change.mailboxId;
    const taken = takes(change);
    const keys = [
      ...taken.addresses.map((a) => `@${a}`),
      ...(taken.catchAll === undefined ? [] : [`*${taken.catchAll}`]),
    ];
    for (const key of keys) {
      const holder = holders.get(key);
      if (holder === undefined || holder.id === own || freed.has(key)) continue;
      const name = key.slice(1);
      const [what, how] = key.startsWith('*')
        ? [`the catch-all of ${quote(name)}`, 'is the catch-all']
        : [`the address ${quote(name)}`, name === holder.address ? 'has it' : 'has it as an alias'];
      problems.push(
        `mailbox ${quote(change.name)} takes ${what}, but mailbox ${quote(holder.address)} ${how} on the panel ` +
          'and no change of this plan frees it: free it there first (in the manifest or in the panel), or leave it out here',
      );
    }
  }
  return problems;
}

/** The ids that can reach themselves along `waits`, in the order they were added. */
function inCircles(waits: ReadonlyMap<ChangeId, readonly ChangeId[]>): ChangeId[] {
  const circular: ChangeId[] = [];
  for (const start of waits.keys()) {
    const seen = new Set<ChangeId>();
    const stack = [...(waits.get(start) ?? [])];
    while (stack.length > 0) {
      const id = stack.pop() as ChangeId;
      if (id === start) {
        circular.push(start);
        break;
      }
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(waits.get(id) ?? []));
    }
  }
  return circular;
}
