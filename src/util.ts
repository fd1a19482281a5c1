/**
 * Small helpers every floor may use: no I/O, no imports from the project. Each exists once;
 * import it rather than writing a twin.
 */

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value as JSON.parse gives it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object: a request body, a nested object of a panel record. */
export type JsonObject = { readonly [key: string]: JsonValue };

/** JSON with object keys sorted, so a document reformatted by another tool (or re-read) compares equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/**
 * sha256 of text (UTF-8) or bytes, in lowercase hex. node:crypto is loaded at the first hash,
 * not with this module: every floor imports it, and a command that hashes nothing (validate)
 * does not pay for loading crypto.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest('hex');
}

/** Whether every code unit of `text` is ASCII (below 0x80). */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Code-unit order of two strings: the same on every machine, whatever its locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Where an earlier entry stands, as a message about a later one names it: `line 3` in the same
 * file, `clients/a.yaml:3` in another (a manifest directory's parts).
 */
export function placeOf(first: { readonly file: string; readonly line: number }, hereFile: string): string {
  return first.file === hereFile ? `line ${first.line}` : `${first.file}:${first.line}`;
}

/** `1 client`, `2 clients`; `many` for irregular plurals. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** Phrases as a sentence lists them: `a`, `a and b`, `a, b and c`. */
export function inWords(phrases: readonly string[]): string {
  return phrases.length <= 1 ? (phrases[0] ?? '') : `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1) ?? ''}`;
}

/** A duration for people: `30 s`, `2.5 s`. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

/**
 * The end of every branch over a closed union (a change's kind, an outcome's status): the
 * compiler refuses the call while a member is unhandled, so a new kind cannot slip through.
 */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}

/**
 * `wait`, cut short when `signal` aborts (it then resolves at once; the caller checks
 * `signal.aborted`). Without a signal, `wait` itself.
 */
export async function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return wait;
  if (signal.aborted) return;
  let onAbort = (): void => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([wait, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** An error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Below this length V8 copies a cut-out string anyway: it makes slices of 13 characters or more. */
const SLICED_FROM = 13;

/**
 * `text` as a string of its own: a copy when it may be a slice of a longer string (the manifest's
 * text, a batch of it), so that keeping it keeps nothing more. Joining two pieces makes a new flat
 * string (a concatenation would keep both).
 */
export function ownString(text: string): string {
  return text.length < SLICED_FROM ? text : [text.charAt(0), text.slice(1)].join('');
}
