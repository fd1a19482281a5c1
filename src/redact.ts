/**
 * The run's redaction set: every credential the run learns (the API key, each new password)
 * is added here as soon as it is in hand, and every output of the run passes through
 * `redact`, so a bug elsewhere cannot print one, nor a panel that echoes one back in another
 * form. Belt and braces: the code never formats a credential into text in the first place, and
 * the leak test checks that without this filter.
 */

/** What a redacted credential is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not redacted: blanking every "a" or "12" of the output would
 * garble it, and no key or generated password is that short.
 */
export const MIN_REDACTED_LENGTH = 4;

/**
 * The credentials to blank, in every form they can come back in: as is, URL-encoded,
 * JSON-escaped and HTML-escaped (a panel may echo the key inside an error page or a JSON
 * string). Kept as one trie of code units, so that `redact` costs one walk per position of
 * the text, bounded by the longest match, however many credentials it holds; adding one costs
 * its length. (A regular expression of alternatives, or a `replaceAll` per credential, costs
 * the text's length times their number: at 10,000 new clients 3,900 times the cost of writing
 * the output unfiltered, against 120 times for the trie; `bench/redact.ts`.)
 */
export class Redactions {
  /**
   * Edges by code unit, then parent node → child node; node 0 is the root. (Keyed this way
   * round, every key stays a small integer, which V8's maps hash fastest.)
   */
  private readonly edges = new Map<number, Map<number, number>>();
  /** Nodes where a credential ends. */
  private readonly ends = new Set<number>();
  private nodes = 1;

  /** Adds `value` in all its forms; values shorter than MIN_REDACTED_LENGTH are ignored. */
  add(value: string): this {
    if (value.length < MIN_REDACTED_LENGTH) return this;
    for (const form of formsOf(value)) this.insert(form);
    return this;
  }

  get size(): number {
    return this.ends.size;
  }

  /**
   * `text` with every credential blanked: at each position the longest credential that starts
   * there, left to right, so that overlapping ones are blanked whole.
   */
  redact(text: string): string {
    if (this.ends.size === 0) return text;
    let out = '';
    let copied = 0;
    for (let i = 0; i < text.length; ) {
      let node = 0;
      let end = -1;
      for (let j = i; j < text.length; j++) {
        const child = this.edges.get(text.charCodeAt(j))?.get(node);
        if (child === undefined) break;
        node = child;
        if (this.ends.has(node)) end = j + 1;
      }
      if (end < 0) {
        i++;
        continue;
      }
      out += text.slice(copied, i) + REDACTED;
      copied = i = end;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  private insert(form: string): void {
    let node = 0;
    for (let i = 0; i < form.length; i++) {
      const code = form.charCodeAt(i);
      let byParent = this.edges.get(code);
      if (byParent === undefined) this.edges.set(code, (byParent = new Map<number, number>()));
      let child = byParent.get(node);
      if (child === undefined) {
        child = this.nodes++;
        byParent.set(node, child);
      }
      node = child;
    }
    this.ends.add(node);
  }
}

/** The forms a credential can be echoed in; the same one only once. */
function formsOf(value: string): Set<string> {
  const html = value.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c] ?? ''};`);
  return new Set([
    value,
    encodeURIComponent(value),
    // Form encoding writes a space as +; some encoders write hex in lower case.
    encodeURIComponent(value).replace(/%20/g, '+'),
    encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    JSON.stringify(value).slice(1, -1),
    // PHP's json_encode (the panel's) also escapes "/" and everything beyond ASCII.
    JSON.stringify(value)
      .slice(1, -1)
      .replace(/\//g, '\\/')
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    html,
    html.replace(/&#39;/g, '&#x27;'),
    html.replace(/&#39;/g, '&apos;'),
  ]);
}
