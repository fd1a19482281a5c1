/**
 * Plain and quoted scalars as `yaml` (its core schema) reads them, for the fast reads of
 * simple-items.ts and chunked-json.ts: which characters mean only themselves, and which
 * plain scalars are plainly strings, `true`, `false` or a decimal integer.
 */

/** A plain decimal integer YAML's core schema reads as that number: no sign, no leading zero, safe. */
export const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;

/** An IPv4 address (an A record's value): three dots, where a number of the core schema has one at most. */
export const IPV4 = /^[0-9]{1,3}(?:\.[0-9]{1,3}){3}$/;

/**
 * A plain scalar that YAML's core schema could read as something else than a string: a null
 * (`~`, `null`), a boolean in another spelling than `true` and `false`, or a number. Every
 * number of the schema (an integer, a hexadecimal or octal one, a float, `.inf`, `.nan`)
 * starts with a sign, a dot or a digit, and holds only characters of the second class: a
 * wider net than the schema's, so anything it may resolve is caught.
 */
export const NOT_PLAINLY_A_STRING = /^(?:~|null|Null|NULL|True|TRUE|False|FALSE|[-+.0-9][-+.0-9a-fA-FxXoOiInN]*)$/;

/**
 * Whether a quoted scalar read here may hold this code unit: what a plain scalar may hold
 * inside, the space and the indicators; never a backslash (an escape is yaml's to read).
 */
export function quotedCharacter(code: number): boolean {
  if (code < 0x80) return code >= 0x20 && code < 0x7f && code !== 92;
  return plainCharacter(code, false);
}

/**
 * Whether a plain scalar may hold this code unit here and mean only itself: printable ASCII
 * but the indicators, `:`, `,`, brackets and quotes (a space inside but not first), and
 * what Unicode prints from U+00A0 on, except the byte order mark, the line and paragraph
 * separators and the non-characters U+FFFE and U+FFFF. Surrogates come in pairs: the text
 * was decoded from valid UTF-8.
 */
export function plainCharacter(code: number, first: boolean): boolean {
  if (code < 0x80) return (PLAIN_ASCII[code] ?? 0) > (first ? 1 : 0);
  return code >= 0xa0 && code !== 0xfeff && code !== 0x2028 && code !== 0x2029 && code < 0xfffe;
}

/** By ASCII code unit: 0 never in a plain scalar here, 1 inside one but not first, 2 anywhere. */
const PLAIN_ASCII = new Uint8Array(0x80);
for (let code = 0x20; code < 0x7f; code++) {
  const char = String.fromCharCode(code);
  PLAIN_ASCII[code] = ':,[]{}"\'\\`'.includes(char) ? 0 : ' -?#&*!|>%@~'.includes(char) ? 1 : 2;
}

/**
 * A plain scalar's value as `yaml` resolves it, for a token already cut at its end (chunked-json.ts,
 * YAML's flow style): `true`, `false`, a plain decimal integer, or a string that is plainly one;
 * undefined for anything else (yaml's to read).
 */
export function plainValue(text: string): { readonly value: unknown } | undefined {
  if (text === '' || text.includes(' #')) return undefined;
  for (let i = 0; i < text.length; i++) if (!plainCharacter(text.charCodeAt(i), i === 0)) return undefined;
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (DECIMAL.test(text)) return { value: Number(text) };
  return NOT_PLAINLY_A_STRING.test(text) && !IPV4.test(text) ? undefined : { value: text };
}
