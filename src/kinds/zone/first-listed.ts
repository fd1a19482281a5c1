/**
 * The records of a zone block seen so far, by identity (recordKey: host, type and value), for
 * the check that each is listed once (manifest.ts). A Map keyed by each record's key held a string
 * and an entry a record: 34 MB at once for a zone of 300,000 records read from 17 MB (issue 30,
 * 7f: memory within about ten times the bytes read). Here it is one Int32Array of twice as many
 * slots as records, each the place of a record noted (plus one; 0 for an empty slot), found by
 * a hash of the record's key (FNV-1a) and checked against the record itself: host, type and value
 * equal. The key is equal exactly then, for the records itemZone notes: a host and a type it
 * keeps hold no "\0" (values.ts: HOST and checkValue). Pure.
 */
import type { DnsRecord } from './record.js';

export class FirstListed {
  readonly #records: readonly DnsRecord[];
  readonly #slots: Int32Array;
  readonly #mask: number;

  /** Room for `count` records of `records`, which `note` finds by their place in it. */
  constructor(records: readonly DnsRecord[], count: number) {
    let size = 8;
    while (size < 2 * count) size *= 2;
    this.#records = records;
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
  }

  /**
   * The place (in the records) of a record noted before with the identity of `record`; else -1,
   * and `record` noted as standing at `place` (where it must stay while this set is used).
   */
  firstOrNote(record: DnsRecord, place: number): number {
    const slots = this.#slots;
    let slot = keyHash(record) & this.#mask;
    for (;;) {
      const at = slots[slot] as number;
      if (at === 0) break;
      const earlier = this.#records[at - 1] as DnsRecord;
      if (earlier.host === record.host && earlier.type === record.type && earlier.value === record.value) return at - 1;
      slot = (slot + 1) & this.#mask;
    }
    slots[slot] = place + 1;
    return -1;
  }
}

/** FNV-1a of recordKey(record), computed without making it: equal keys, equal hashes. */
function keyHash(record: DnsRecord): number {
  let hash = mix(0x811c9dc5, record.host);
  hash = Math.imul(hash, 0x01000193); // the separator, "\0": hash ^ 0
  hash = mix(hash, record.type);
  hash = Math.imul(hash, 0x01000193);
  return mix(hash, record.value) >>> 0;
}

function mix(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}
