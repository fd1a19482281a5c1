import { compare } from '../util.js';
import { sha256OfPieces } from './json-pieces.js';

/**
 * A plan's facts held lean for its fingerprint (plan/fingerprint.ts). A plan of 100,000 creates
 * has as many facts or more; a map of them by key, with a key string each, sorted, was the
 * largest thing a plan made after its diff (docs/benchmarks.md). Here a fact is kept as its
 * key's two parts (kinds/facts.ts Fact: `topic:subject`, the subject most often a string the
 * change holds already, its name), a topic as a number, and its value, the same string as the
 * previous value of its topic when they are equal. Pure.
 *
 * The facts are kept in parts of PART facts, each list of a part an ordinary object: a longer
 * list is a large object, on pages of its own that only a full collection gives back, so each
 * would grow the heap by its size where ordinary objects fill the space the heap has.
 */

/** Facts a part holds: its lists of 8,192 (64 KB) stay under V8's large objects (128 KB). */
const PART = 8192;

interface Part {
  readonly topicOf: Uint16Array;
  readonly subjects: string[];
  /** Each fact's value, as its place in the table's values. */
  readonly valueAt: Uint32Array;
  length: number;
  /** Its facts' places in key order, once all are taken (sorted). */
  order: Uint16Array;
}

/**
 * Facts taken one at a time (add), then hashed (fingerprint): `sha256:<hex>` of the JSON text of
 * their `[key, value]` pairs in key order, of a key taken more than once its last value, as
 * fingerprint.ts fingerprintOf hashes a map of them.
 */
export class FactTable {
  private readonly codes = new Map<string, number>();
  private readonly topics: string[] = [];
  /** The values taken, each once for as long as its topic's facts keep it (most are `absent`). */
  private readonly values: string[] = [];
  /** Of each topic, the place of its value last taken. */
  private readonly lastValue: number[] = [];
  private readonly parts: Part[] = [];

  add(topic: string, subject: string, value: string): void {
    let code = this.codes.get(topic);
    if (code === undefined) {
      // The order below holds only for topics without a colon (kinds/facts.ts Fact.topic).
      if (topic.includes(':') || this.topics.length === 0xffff) throw new Error(`a fact's topic: ${topic}`);
      code = this.topics.push(topic) - 1;
      this.codes.set(topic, code);
      this.lastValue.push(this.values.push(value) - 1);
    }
    let part = this.parts[this.parts.length - 1];
    if (part === undefined || part.length === PART) {
      part = {
        topicOf: new Uint16Array(PART),
        subjects: new Array<string>(PART),
        valueAt: new Uint32Array(PART),
        length: 0,
        order: new Uint16Array(0),
      };
      this.parts.push(part);
    }
    const i = part.length++;
    part.topicOf[i] = code;
    part.subjects[i] = subject;
    // A value equal to the topic's last is kept once (`id:1`, the hosting plan of every client).
    let at = this.lastValue[code] as number;
    if (this.values[at] !== value) this.lastValue[code] = at = this.values.push(value) - 1;
    part.valueAt[i] = at;
  }

  /**
   * The facts in key order, sorted by topic, then subject, which is key order (a topic holds no
   * colon, so two keys of different topics first differ within `topic:`), then by when they were
   * taken: each part sorted on its own, then the parts merged.
   */
  fingerprint(): string {
    const rankOf = new Uint16Array(this.topics.length);
    this.topics
      .map((topic, code) => ({ code, text: `${topic}:` }))
      .sort((a, b) => compare(a.text, b.text))
      .forEach(({ code }, rank) => (rankOf[code] = rank));
    for (const part of this.parts) {
      const { topicOf, subjects } = part;
      const order = new Array<number>(part.length);
      for (let i = 0; i < order.length; i++) order[i] = i;
      order.sort(
        (a, b) =>
          (rankOf[topicOf[a] as number] as number) - (rankOf[topicOf[b] as number] as number) ||
          compare(subjects[a] as string, subjects[b] as string) ||
          a - b,
      );
      part.order = Uint16Array.from(order);
    }
    return sha256OfPieces(this.pairs(rankOf));
  }

  /** The pairs' text in key order, a pair a piece, of each key its last fact only. */
  private *pairs(rankOf: Uint16Array): Generator<string> {
    const { parts, topics, values } = this;
    // A heap of the parts not yet done, the one whose next fact comes first at the top.
    const at = new Array<number>(parts.length).fill(0);
    const heap = parts.flatMap((part, p) => (part.length > 0 ? [p] : []));
    const topicOf = (p: number): number => {
      const part = parts[p] as Part;
      return part.topicOf[part.order[at[p] as number] as number] as number;
    };
    const subjectOf = (p: number): string => {
      const part = parts[p] as Part;
      return part.subjects[part.order[at[p] as number] as number] as string;
    };
    const valueOf = (p: number): string => {
      const part = parts[p] as Part;
      return values[part.valueAt[part.order[at[p] as number] as number] as number] as string;
    };
    // Of two facts of one key, the earlier part's was taken first.
    const before = (p: number, q: number): boolean =>
      ((rankOf[topicOf(p)] as number) - (rankOf[topicOf(q)] as number) ||
        compare(subjectOf(p), subjectOf(q)) ||
        p - q) < 0;
    const down = (from: number): void => {
      let i = from;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let first = i;
        if (left < heap.length && before(heap[left] as number, heap[first] as number)) first = left;
        if (right < heap.length && before(heap[right] as number, heap[first] as number)) first = right;
        if (first === i) return;
        [heap[i], heap[first]] = [heap[first] as number, heap[i] as number];
        i = first;
      }
    };
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);

    yield '[';
    let written = 0;
    // The fact taken from the heap last (of no topic: none yet), written once the next is of another key.
    let heldTopic = -1;
    let heldSubject = '';
    let heldValue = '';
    while (heap.length > 0) {
      const p = heap[0] as number;
      const topic = topicOf(p);
      const subject = subjectOf(p);
      if (heldTopic !== -1 && (heldTopic !== topic || heldSubject !== subject))
        yield pair(written++, topics[heldTopic] as string, heldSubject, heldValue);
      heldTopic = topic;
      heldSubject = subject;
      heldValue = valueOf(p);
      at[p] = (at[p] as number) + 1;
      if (at[p] === (parts[p] as Part).length) {
        heap[0] = heap[heap.length - 1] as number;
        heap.pop();
      }
      down(0);
    }
    if (heldTopic !== -1) yield pair(written, topics[heldTopic] as string, heldSubject, heldValue);
    yield ']';
  }
}

/** `["topic:subject","value"]`, after a comma but the first. */
function pair(n: number, topic: string, subject: string, value: string): string {
  return `${n === 0 ? '' : ','}[${JSON.stringify(`${topic}:${subject}`)},${JSON.stringify(value)}]`;
}
