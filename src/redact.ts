/**
 * The run's redaction set: every credential the run learns (the API key, each new password)
 * is added here as soon as it is in hand, and everything the run prints (stdout, stderr, the
 * prompt, the step summary) passes through `redact`, so a bug elsewhere cannot print one, nor a
 * panel that echoes one back in another form. Belt and braces: the code never formats a
 * credential into text in the first place, and the leak test checks that without this filter.
 * Only credentials join the set, never a path or a name (blanking a key file's name `prod`
 * blanked every "production"); and a document the user asked for (a plan, a manifest) is
 * written as it is, not filtered: it holds no credential in the first place.
 */

/** What a redacted credential is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not redacted: blanking every "a" or "12" of the output would
 * garble it, and no key or generated password is that short.
 */
export const MIN_REDACTED_LENGTH = 4;

/**
 * The credentials to blank, in every form they can come back in. Only the credential itself is
 * stored, in a trie of code units; the text is read through a decoder instead: at each of its
 * positions a character may stand as itself or escaped, in any of the escapes below, each
 * character independently. So every mix is blanked: the encodings that leave some reserved
 * characters raw (encodeURI, PHP's urlencode and rawurlencode, form encoding), HTML escaping
 * with or without the quotes (PHP before and after 8.1: `'` raw, `&#39;`, `&#039;`, `&#x27;`,
 * `&apos;`), and JSON escaping (`\/`, `\u00e9`, as PHP's json_encode writes). One level of
 * escaping: a form escaped twice over is not recognised.
 *
 * The escapes: `%XX` in either case (UTF-8 sequences of them for one character), `+` for a space,
 * `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and numeric references `&#NN;` / `&#xHH;`, and JSON's
 * backslash escapes (`\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`).
 *
 * Cost: `redact` walks the trie from each position of the text, at most as far as the longest
 * credential reaches (an escape is at most 12 code units), however many credentials it holds;
 * adding one costs its length. (A regular expression of alternatives, or a `replaceAll` per
 * credential, costs the text's length times their number: at 10,000 new clients thousands of
 * times the cost of writing the output unfiltered; `bench/redact.ts` measures it.)
 */
export class Redactions {
  /**
   * Edges by code unit, then parent node → child node; node 0 is the root. (Keyed this way
   * round, every key stays a small integer, which V8's maps hash fastest.) A child may be a
   * tail's place (a negative number, see `tails`).
   */
  private readonly edges = new Map<number, Map<number, number>>();
  /** Trie nodes where a credential ends. */
  private readonly ends = new Set<number>();
  private nodes = 1;
  /**
   * A credential's code units past the point where it parts from every other one, as a run of
   * `tails` (a place `p` in it is node `-(p + 1)`: the next code unit expected is `tails[p]`),
   * ended by a slot that `tailEnds` marks. A trie node per code unit cost each generated
   * password about 800 bytes (a map entry each): an apply of 10,000 new clients held 8 MB of
   * them. A credential added later that shares part of a tail turns that part into trie nodes.
   */
  private tails = new Uint16Array(256);
  private tailEnds = new Uint8Array(256);
  private used = 0;
  private count = 0;
  /**
   * By code unit: 1 where a walk can start (a credential's first code unit, or an escape's).
   * The scan looks each position up here, an array read, and walks the trie only from these.
   * The shared table of escapes until the first credential is added, then a copy of its own.
   */
  private starts = ESCAPE_STARTS;
  /** The walk's pending (position, node) pairs, reused by every call. */
  private readonly pending: number[] = [];

  /** Adds `value` (in all its forms, see above); values shorter than MIN_REDACTED_LENGTH are ignored. */
  add(value: string): this {
    if (value.length < MIN_REDACTED_LENGTH) return this;
    if (this.starts === ESCAPE_STARTS) this.starts = ESCAPE_STARTS.slice();
    this.starts[value.charCodeAt(0)] = 1;
    let node = 0;
    /** The edge into the tail `node` is in (when it is in one), and where that tail starts. */
    let parent = 0;
    let into = 0;
    let start = 0;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (node < 0) {
        const next = this.child(node, code);
        if (next !== undefined) {
          node = next;
          continue;
        }
        node = this.split(parent, into, start, -node - 1);
      }
      const next = this.child(node, code);
      if (next === undefined) {
        this.setEdge(node, code, this.tail(value, i + 1));
        this.count++;
        return this;
      }
      if (next < 0) [parent, into, start] = [node, code, -next - 1];
      node = next;
    }
    if (node < 0) {
      // Already held, or a credential that ends inside another's tail.
      if (this.tailEnds[-node - 1] === 1) return this;
      node = this.split(parent, into, start, -node - 1);
    }
    if (!this.ends.has(node)) {
      this.ends.add(node);
      this.count++;
    }
    return this;
  }

  /** How many credentials are held. */
  get size(): number {
    return this.count;
  }

  /**
   * `text` with every credential blanked: at each position the longest credential that starts
   * there, left to right, so that overlapping ones are blanked whole.
   */
  redact(text: string): string {
    if (this.count === 0) return text;
    const starts = this.starts;
    let out = '';
    let copied = 0;
    for (let i = 0; i < text.length;) {
      // Most positions start nothing: neither a credential's first character nor an escape.
      const end = starts[text.charCodeAt(i)] === 1 ? this.longestAt(text, i) : -1;
      if (end < 0) {
        i++;
        continue;
      }
      out += text.slice(copied, i) + REDACTED;
      copied = i = end;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  /**
   * Where the longest credential that starts at `start` ends in `text`, or -1. Walks the text
   * as it stands; where an escape starts, its decoding is a second path, walked afterwards.
   */
  private longestAt(text: string, start: number): number {
    let end = -1;
    const pending = this.pending;
    let at = start;
    let node = 0;
    for (;;) {
      while (at < text.length) {
        const raw = text.charCodeAt(at);
        if (isEscapeStart(raw)) {
          const escaped = decodeAt(text, at);
          const via = escaped === undefined ? undefined : this.follow(node, escaped[0]);
          if (escaped !== undefined && via !== undefined) {
            if (this.isEnd(via)) end = Math.max(end, at + escaped[1]);
            pending.push(at + escaped[1], via);
          }
        }
        const next = this.child(node, raw);
        if (next === undefined) break;
        node = next;
        at++;
        if (this.isEnd(node)) end = Math.max(end, at);
      }
      if (pending.length === 0) return end;
      node = pending.pop() ?? 0;
      at = pending.pop() ?? text.length;
    }
  }

  /** The node `units` lead to from `node`, or undefined. */
  private follow(node: number, units: string): number | undefined {
    let next: number | undefined = node;
    for (let k = 0; k < units.length && next !== undefined; k++) next = this.child(next, units.charCodeAt(k));
    return next;
  }

  private child(node: number, code: number): number | undefined {
    if (node >= 0) return this.edges.get(code)?.get(node);
    const at = -node - 1;
    return this.tailEnds[at] === 0 && this.tails[at] === code ? node - 1 : undefined;
  }

  /** Whether a credential ends at `node`. */
  private isEnd(node: number): boolean {
    return node >= 0 ? this.ends.has(node) : this.tailEnds[-node - 1] === 1;
  }

  private setEdge(parent: number, code: number, child: number): void {
    let byParent = this.edges.get(code);
    if (byParent === undefined) this.edges.set(code, (byParent = new Map<number, number>()));
    byParent.set(parent, child);
  }

  /** A new tail holding `value` from `from` on: its first place, as a node. */
  private tail(value: string, from: number): number {
    const length = value.length - from;
    if (this.used + length + 1 > this.tails.length) {
      const size = Math.max(this.tails.length * 2, this.used + length + 1);
      const tails = new Uint16Array(size);
      tails.set(this.tails);
      const tailEnds = new Uint8Array(size);
      tailEnds.set(this.tailEnds);
      [this.tails, this.tailEnds] = [tails, tailEnds];
    }
    const start = this.used;
    for (let k = 0; k < length; k++) this.tails[start + k] = value.charCodeAt(from + k);
    this.tailEnds[start + length] = 1;
    this.used += length + 1;
    return -(start + 1);
  }

  /**
   * The tail entered from `parent` by `into` at `start`, made trie nodes up to `at` (a place in
   * it): the last of them, from which the rest of the tail goes on as before.
   */
  private split(parent: number, into: number, start: number, at: number): number {
    let node = this.nodes++;
    this.setEdge(parent, into, node);
    for (let p = start; p < at; p++) {
      const next = this.nodes++;
      this.setEdge(node, this.tails[p] as number, next);
      node = next;
    }
    if (this.tailEnds[at] === 1) this.ends.add(node);
    else this.setEdge(node, this.tails[at] as number, -(at + 2));
    return node;
  }
}

/** By code unit: 1 where an escape can start (`%`, `+`, `&`, `\`); what Redactions.starts begins as. */
const ESCAPE_STARTS = new Uint8Array(0x10000);
for (const char of '%+&\\') ESCAPE_STARTS[char.charCodeAt(0)] = 1;

function isEscapeStart(code: number): boolean {
  return ESCAPE_STARTS[code] === 1;
}

/** The character(s) an escape at `at` stands for, and the escape's length; undefined when none starts there. */
function decodeAt(text: string, at: number): readonly [string, number] | undefined {
  switch (text.charCodeAt(at)) {
    case 0x2b:
      return [' ', 1];
    case 0x25:
      return decodePercent(text, at);
    case 0x26:
      return decodeReference(text, at);
    default:
      return decodeBackslash(text, at);
  }
}

/** `%XX` (either case), or the UTF-8 sequence of `%XX` that makes one character. */
function decodePercent(text: string, at: number): readonly [string, number] | undefined {
  const lead = percentByte(text, at);
  if (lead < 0x80) return lead < 0 ? undefined : [String.fromCharCode(lead), 3];
  const count = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (count === 0 || lead > 0xf4) return undefined;
  let point = lead & (0xff >> (count + 1));
  for (let k = 1; k < count; k++) {
    const byte = percentByte(text, at + 3 * k);
    if (byte < 0 || (byte & 0xc0) !== 0x80) return undefined;
    point = (point << 6) | (byte & 0x3f);
  }
  return point > 0x10ffff ? undefined : [String.fromCodePoint(point), 3 * count];
}

/** The byte of `%XX` at `at`, or -1. */
function percentByte(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x25) return -1;
  const hex = text.slice(at + 1, at + 3);
  return /^[0-9a-fA-F]{2}$/.test(hex) ? parseInt(hex, 16) : -1;
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/** `&name;`, `&#NN;` (leading zeros too: PHP 8.1 writes `&#039;`) or `&#xHH;`, looked for within 12 code units. */
function decodeReference(text: string, at: number): readonly [string, number] | undefined {
  let semicolon = -1;
  for (let j = at + 1; j < Math.min(text.length, at + 12); j++) {
    if (text.charCodeAt(j) === 0x3b) {
      semicolon = j;
      break;
    }
  }
  if (semicolon < 0) return undefined;
  const name = text.slice(at + 1, semicolon);
  const length = semicolon + 1 - at;
  const point = /^#\d{1,8}$/.test(name)
    ? Number(name.slice(1))
    : /^#x[0-9a-f]{1,6}$/i.test(name)
      ? parseInt(name.slice(2), 16)
      : undefined;
  if (point === undefined) {
    // Own keys only: `&__proto__;` names no character.
    const lower = name.toLowerCase();
    const named = Object.hasOwn(NAMED_REFERENCES, lower) ? NAMED_REFERENCES[lower] : undefined;
    return named === undefined ? undefined : [named, length];
  }
  return point > 0x10ffff ? undefined : [String.fromCodePoint(point), length];
}

/** JSON's one-character backslash escapes, by the character after the backslash (also read by manifest/chunked-json.ts). */
export const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** JSON's `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\uXXXX` (one code unit each). */
function decodeBackslash(text: string, at: number): readonly [string, number] | undefined {
  const next = text.charAt(at + 1);
  if (next === 'u') {
    const hex = text.slice(at + 2, at + 6);
    return /^[0-9a-fA-F]{4}$/.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), 6] : undefined;
  }
  const escaped = Object.hasOwn(JSON_ESCAPES, next) ? JSON_ESCAPES[next] : undefined;
  return escaped === undefined ? undefined : [escaped, 2];
}
