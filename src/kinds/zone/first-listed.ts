/**
 * The records of a zone block seen so far, by a key (their identity: host, type and value; or
 * their host), for the checks of manifest.ts: each record listed once, each CNAME alone at its
 * host. A Map keyed by each record's key held a string and an entry a record, and a list of the
 * first two records of each host another object a host: 34 and 31 MB in turn for a zone of
 * 300,000 records read from 17 MB (issue 30, 7f: memory within about ten times the bytes read).
 * Here it is one list of at least twice as many slots as records (numbers.ts), each the place of a
 * record noted (plus one; 0 for an empty slot), found by a hash of its key (FNV-1a) and checked
 * against the record itself. Pure.
 */
import { numbers } from './numbers.js';
import type { DnsRecord } from './record.js';

/** How records are told apart: a hash of the key, and whether two have the same key. */
export interface RecordKey {
  hash(record: DnsRecord): number;
  same(a: DnsRecord, b: DnsRecord): boolean;
}

/**
 * A record's identity: recordKey's (host, type and value), the hash of the key's text. Host, type
 * and value equal exactly when the keys are, for the records itemZone keeps: their hosts and
 * types hold no "\0" (values.ts: HOST and checkValue).
 */
export const IDENTITY: RecordKey = {
  hash: (r) => {
    let hash = Math.imul(mix(0x811c9dc5, r.host), 0x01000193); // then "\0": hash ^ 0
    hash = Math.imul(mix(hash, r.type), 0x01000193);
    return mix(hash, r.value);
  },
  same: (a, b) => a.host === b.host && a.type === b.type && a.value === b.value,
};

/** A record's host. */
export const HOST: RecordKey = {
  hash: (r) => mix(0x811c9dc5, r.host),
  same: (a, b) => a.host === b.host,
};

export class FirstListed {
  readonly #records: readonly DnsRecord[];
  readonly #key: RecordKey;
  readonly #slots: number[] | Int32Array;
  readonly #mask: number;

  /** Room for `count` records of `records`, found by their place in it, told apart by `key`. */
  constructor(records: readonly DnsRecord[], count: number, key: RecordKey) {
    let size = 8;
    while (size < 2 * count) size *= 2;
    this.#records = records;
    this.#key = key;
    this.#slots = numbers(size);
    this.#mask = size - 1;
  }

  /**
   * The place (in the records) of the first record noted with the key of `record`; else -1, and
   * `record` noted as standing at `place` (where it must stay while this set is used).
   */
  firstOrNote(record: DnsRecord, place: number): number {
    const slots = this.#slots;
    let slot = this.#key.hash(record) & this.#mask;
    for (;;) {
      const at = slots[slot] as number;
      if (at === 0) break;
      if (this.#key.same(this.#records[at - 1] as DnsRecord, record)) return at - 1;
      slot = (slot + 1) & this.#mask;
    }
    slots[slot] = place + 1;
    return -1;
  }
}

function mix(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}
