/**
 * The store behind the simulator: one table (table.ts) per list of lists.ts, each declared by
 * its kind, so every request is O(1). The store knows no kind: what a request does to the
 * lists is the kinds' modules' (kinds/), and the state file (state-file.ts) logs the changes
 * they make.
 */
import type { SimClient } from './kinds/client-records.js';
import type { SimDatabase } from './kinds/database-records.js';
import type { SimDomain } from './kinds/domain-records.js';
import type { SimFtpUser } from './kinds/ftp-user-records.js';
import { passwordMatches, type SimMailbox } from './kinds/mailbox-records.js';
import type { SimPlan } from './hosting-plans.js';
import {
  type DeletableList,
  LIST_NAMES,
  type ListName,
  type RecordOf,
  ruleOf,
  type StoreChange,
  type ValueOf,
} from './lists.js';
import { SimTable } from './table.js';
import type { SimZone } from './zones.js';

export type { StoreChange } from './lists.js';

/**
 * Read access to the simulator's state, for tests. The maps are keyed by id, iterate in
 * creation order, and are live: they change as requests arrive. The `*Named` look-ups are
 * O(1) and use the same rules as the API's /name/ endpoints.
 */
export interface SimulatorState {
  readonly plans: ReadonlyMap<number, SimPlan>;
  readonly clients: ReadonlyMap<number, SimClient>;
  readonly domains: ReadonlyMap<number, SimDomain>;
  /** Administrator usernames -> user id. They share one namespace (and id sequence) with clients. */
  readonly admins: ReadonlyMap<string, number>;
  /** DNS zones by domain id: one per domain that is not a subdomain (zones.ts). */
  readonly zones: ReadonlyMap<number, SimZone>;
  /** Exact, case-sensitive name. */
  planNamed(name: string): SimPlan | undefined;
  /** Case-insensitive. */
  clientNamed(username: string): SimClient | undefined;
  /** Case-insensitive, UTF-8 or punycode. */
  domainNamed(name: string): SimDomain | undefined;
  /**
   * For tests only (the API never shows a password): the password the simulator holds for a
   * client (case-insensitive username), as set by its POST /clients or a later PUT with
   * `password`; undefined for an unknown client, or a seeded one that never got one.
   */
  passwordOf(username: string): string | undefined;
  /** Mailboxes (kinds/mailbox.ts), by id. */
  readonly mailboxes: ReadonlyMap<number, SimMailbox>;
  /** By its address (not an alias), case-insensitive, the domain in UTF-8 or punycode. */
  mailboxNamed(address: string): SimMailbox | undefined;
  /**
   * For tests only: whether `password` is the mailbox's (the simulator keeps a hash, never the
   * password); undefined for an unknown address.
   */
  mailboxPasswordIs(address: string, password: string): boolean | undefined;
  /** Databases (kinds/database.ts), by id. */
  readonly databases: ReadonlyMap<number, SimDatabase>;
  /** For tests only: whether `password` is the database's (by its name); undefined for an unknown one. */
  databasePasswordIs(name: string, password: string): boolean | undefined;
  /** FTP users (kinds/ftp-user.ts), by id. */
  readonly ftpUsers: ReadonlyMap<number, SimFtpUser>;
  /** For tests only: whether `password` is the FTP user's (by its username); undefined for an unknown one. */
  ftpUserPasswordIs(username: string, password: string): boolean | undefined;
}

/** The next id of each sequence the lists draw from, by the state file's name for it (`nextUserId`). */
export type IdSequences = Readonly<Record<string, number>>;

type Tables = { readonly [L in ListName]: SimTable<RecordOf<L>, ValueOf<L>> };

export class SimStore implements SimulatorState {
  private readonly tables: Tables;
  private readonly sequences = new Map<string, number>();
  /** Told of every change once it is made (the state file logs it). */
  onChange: ((change: StoreChange) => void) | undefined;

  constructor() {
    this.tables = Object.fromEntries(LIST_NAMES.map((list) => [list, new SimTable(ruleOf(list))])) as unknown as Tables;
    for (const list of LIST_NAMES) {
      const { sequence } = ruleOf(list);
      if (sequence !== undefined && !this.sequences.has(sequence)) this.sequences.set(sequence, 1);
    }
  }

  /** A list's values by id, live, in creation order. */
  list<L extends ListName>(list: L): ReadonlyMap<number, ValueOf<L>> {
    return this.tables[list].values;
  }

  /** A value by name, with the list's rule for names (table.ts `lookup`). */
  named<L extends ListName>(list: L, name: string): ValueOf<L> | undefined {
    return this.tables[list].named(name);
  }

  /** A value by its index key, for a name already in the list's form (no `lookup`: it costs). */
  keyed<L extends ListName>(list: L, key: string): ValueOf<L> | undefined {
    return this.tables[list].keyed(key);
  }

  /** A list's records whole, in creation order (what a snapshot holds). */
  records<L extends ListName>(list: L): RecordOf<L>[] {
    return this.tables[list].records();
  }

  /** The id the next record of a list gets from its sequence. */
  nextId(list: ListName): number {
    const { sequence } = ruleOf(list);
    return sequence === undefined ? 1 : (this.sequences.get(sequence) ?? 1);
  }

  /** Sets a record whole (a new one, or a PUT's). */
  set<L extends ListName>(list: L, record: RecordOf<L>): void {
    this.commit({ set: list, record } as unknown as StoreChange);
  }

  /** Deletes a record and what its list owns (table.ts `ownedBy`); the kinds delete what refers to it first. */
  remove(list: DeletableList, id: number): void {
    if (this.tables[list].values.has(id)) this.commit({ delete: list, id });
  }

  /**
   * Makes a change (a mutation's, or one replayed from the state file); the id sequences
   * move past every id set, so a replayed log continues them.
   */
  apply(change: StoreChange): void {
    if ('delete' in change) {
      this.tables[change.delete].delete(change.id);
      for (const list of LIST_NAMES) if (ruleOf(list).ownedBy === change.delete) this.tables[list].delete(change.id);
      return;
    }
    const table = this.tables[change.set] as unknown as SimTable<{ readonly id: number }, unknown>;
    table.set(change.record);
    const { sequence } = ruleOf(change.set);
    if (sequence !== undefined)
      this.sequences.set(sequence, Math.max(this.sequences.get(sequence) ?? 1, change.record.id + 1));
  }

  /** The id sequences, in the order of the lists that draw from them. */
  idSequences(): IdSequences {
    return Object.fromEntries(this.sequences);
  }

  /** Moves each id sequence on to at least the one given (ids of records deleted since are not reused). */
  continueSequences(sequences: IdSequences): void {
    for (const [name, next] of this.sequences) this.sequences.set(name, Math.max(next, sequences[name] ?? 1));
  }

  // SimulatorState: the lists tests read, by their names.
  get plans(): ReadonlyMap<number, SimPlan> {
    return this.list('plans');
  }

  get clients(): ReadonlyMap<number, SimClient> {
    return this.list('clients');
  }

  get domains(): ReadonlyMap<number, SimDomain> {
    return this.list('domains');
  }

  get zones(): ReadonlyMap<number, SimZone> {
    return this.list('zones');
  }

  get admins(): ReadonlyMap<string, number> {
    return new Map([...this.list('admins').values()].map((admin) => [admin.username, admin.id]));
  }

  planNamed(name: string): SimPlan | undefined {
    return this.named('plans', name);
  }

  clientNamed(username: string): SimClient | undefined {
    return this.named('clients', username);
  }

  domainNamed(name: string): SimDomain | undefined {
    return this.named('domains', name);
  }

  passwordOf(username: string): string | undefined {
    const client = this.clientNamed(username);
    return client === undefined ? undefined : this.list('passwords').get(client.id)?.password;
  }

  get mailboxes(): ReadonlyMap<number, SimMailbox> {
    return this.list('mailboxes');
  }

  mailboxNamed(address: string): SimMailbox | undefined {
    const holder = this.named('mailboxes', address);
    return holder !== undefined && holder.email === ruleOf('mailboxes').lookup?.(address) ? holder : undefined;
  }

  mailboxPasswordIs(address: string, password: string): boolean | undefined {
    const mailbox = this.mailboxNamed(address);
    if (mailbox === undefined) return undefined;
    const stored = this.list('mailboxPasswords').get(mailbox.id);
    return stored !== undefined && passwordMatches(stored.hash, password);
  }

  get databases(): ReadonlyMap<number, SimDatabase> {
    return this.list('databases');
  }

  databasePasswordIs(name: string, password: string): boolean | undefined {
    const database = this.named('databases', name);
    if (database === undefined) return undefined;
    const stored = this.list('databasePasswords').get(database.id);
    return stored !== undefined && passwordMatches(stored.hash, password);
  }

  get ftpUsers(): ReadonlyMap<number, SimFtpUser> {
    return this.list('ftpUsers');
  }

  ftpUserPasswordIs(username: string, password: string): boolean | undefined {
    const user = this.named('ftpUsers', username);
    if (user === undefined) return undefined;
    const stored = this.list('ftpUserPasswords').get(user.id);
    return stored !== undefined && passwordMatches(stored.hash, password);
  }

  private commit(change: StoreChange): void {
    this.apply(change);
    this.onChange?.(change);
  }
}

/** ISO 8601 with an explicit offset, like the panel's `created_at` ("2019-08-15T11:29:13+02:00"). */
export function timestamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}+00:00`;
}
