/**
 * One list of the simulator's store (store.ts): records by id in creation order, an index by
 * name, and the rules the store and the state file (state-file.ts) follow for it. Each kind
 * declares its lists in its records file (kinds/*-records.ts, hosting-plans.ts, zones.ts);
 * lists.ts gathers them. Nothing here names a kind.
 */

/**
 * How the store keeps one list of records `R` (each with an `id`), stored as values `V` (the
 * record itself, or the record without its id when the id is another list's).
 */
export interface ListRule<R extends { readonly id: number }, V> {
  /** The state file's check of a record: these fields must be there (an `id...` field an integer, any other a string). */
  readonly fields: readonly string[];
  /**
   * Absent from the snapshots of older state files (the list came later): a record of it that
   * fails the check is skipped, not refused.
   */
  readonly optional?: true;
  /** The value kept for a record, and the record back from its id and value. */
  value(record: R): V;
  record(id: number, value: V): R;
  /**
   * The name index's key of a value, or its keys (a mailbox is found by its address and by each
   * of its aliases); none: no index. The kinds keep keys unique across a list's records.
   */
  readonly key?: (value: V) => string | readonly string[];
  /** The key a name asked for looks up (case folding, punycode); default: the name itself. */
  readonly lookup?: (name: string) => string;
  /** The id sequence the list draws from (the state file's field, like `nextUserId`); lists may share one. */
  readonly sequence?: string;
  /** A record here goes when the record of the same id in that list is deleted (a domain's zone). */
  readonly ownedBy?: string;
  /** Records are deleted one by one (`{"delete": list}` changes). */
  readonly deletable?: true;
}

/** A rule's value and record for a list that keeps its records whole. */
export function whole<R extends { readonly id: number }>(): Pick<ListRule<R, R>, 'value' | 'record'> {
  return { value: (record) => record, record: (_id, value) => value };
}

/** The records of one list, live. */
export class SimTable<R extends { readonly id: number }, V> {
  readonly values = new Map<number, V>();
  private readonly byName = new Map<string, V>();

  constructor(readonly rule: ListRule<R, V>) {}

  named(name: string): V | undefined {
    return this.byName.get(this.rule.lookup === undefined ? name : this.rule.lookup(name));
  }

  /** A value by its index key as stored: a name already in the list's form. */
  keyed(key: string): V | undefined {
    return this.byName.get(key);
  }

  set(record: R): void {
    const value = this.rule.value(record);
    const before = this.values.get(record.id);
    if (before !== undefined) this.unindex(before); // a rename
    for (const key of this.keysOf(value)) this.byName.set(key, value);
    this.values.set(record.id, value);
  }

  delete(id: number): void {
    const before = this.values.get(id);
    this.values.delete(id);
    if (before !== undefined) this.unindex(before);
  }

  private keysOf(value: V): readonly string[] {
    const keys = this.rule.key?.(value) ?? [];
    return typeof keys === 'string' ? [keys] : keys;
  }

  /** Drops a value's keys from the index, each only while it still points at that value. */
  private unindex(value: V): void {
    for (const key of this.keysOf(value)) if (this.byName.get(key) === value) this.byName.delete(key);
  }

  /** The records, in creation order: what the state file's snapshot holds. */
  records(): R[] {
    return [...this.values].map(([id, value]) => this.rule.record(id, value));
  }
}
