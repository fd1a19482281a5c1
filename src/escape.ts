/* eslint-disable no-control-regex -- finding control characters is this module's job */
/**
 * Names and messages that did not come from the program (usernames, domain and hosting plan
 * names, panel messages, file names) are data: whatever they hold, they must not act as markup,
 * terminal commands or workflow commands where they are printed. One function per output
 * format; control characters (C0, DEL, C1: ESC and BEL included) never reach any output raw,
 * nor the characters that reorder or break lines invisibly (bidirectional controls, U+2028/9)
 * or hide in a name (zero-width characters, word joiners, the byte order mark).
 */

/** Characters shown as escapes wherever data is printed. */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text for a terminal or a log: every unsafe character as a visible escape (`\n`, `\u001b`). */
export function safeText(value: string): string {
  return value.replace(UNSAFE, escapeChar);
}

/** A name in running text: `"alice"`; a quote or backslash in it is escaped, like any unsafe character. */
export function quote(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`).replace(UNSAFE, escapeChar)}"`;
}

/**
 * JSON text whose strings hold no unsafe character raw: JSON.stringify escapes C0 but leaves
 * DEL, C1 and the rest as they are. The text parses back to the same value.
 */
export function jsonText(value: unknown, space?: number): string {
  // JSON.stringify has escaped C0 inside strings already; its own newlines (indentation) stay.
  return JSON.stringify(value, null, space).replace(
    /[\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Text inside Markdown (a pull-request comment): characters Markdown or HTML would act on as
 * entities, unsafe characters as escapes, so a name stays one inline literal (in a table cell,
 * a list item, a `<summary>`).
 */
export function markdownText(value: string): string {
  return safeText(value).replace(/[<>&`*_[\]|\\~]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The data of a GitHub workflow command (`::warning ...::DATA`), as the runner reads it: `%`,
 * CR and LF encoded; other unsafe characters (the hidden ones too) as escapes.
 */
export function workflowData(value: string): string {
  return value
    .replace(
      /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
      escapeChar,
    )
    .replaceAll('%', '%25')
    .replaceAll('\r', '%0D')
    .replaceAll('\n', '%0A');
}

/** A property value of a workflow command (`file=…`): as data, and `:` and `,` too. */
export function workflowProperty(value: string): string {
  return workflowData(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * The last guard on every byte the CLI writes as text: unsafe characters that are not the
 * program's own (its colours and the progress line's redraw) become escapes. Names are escaped
 * where they are formatted already; this catches what a message built elsewhere let through.
 */
export function guardOutput(text: string): string {
  return text.replace(OWN_OR_UNSAFE, (match) =>
    match.length > 1 || match === '\n' || match === '\t' ? match : escapeChar(match),
  );
}
/** The program's own sequences (kept whole), its line breaks and tabs (kept), and unsafe characters. */
const OWN_OR_UNSAFE =
  /\r\u001b\[2K|\u001b\[\d{1,2}m|[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
