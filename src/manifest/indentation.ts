/**
 * Indentation mistakes in block YAML, in plain words at the line that holds them.
 *
 * `yaml` reports a key indented one space too far as "implicit keys need to be on a single
 * line" at the line above it, and a list item one space off as "all sequence items must start
 * at the same column" or "a block sequence may not be used as an implicit map key". This reads
 * the lines of block YAML as `yaml` nests them (mappings and sequences by their indentation) and
 * finds the lines whose indentation matches no level open above them: a key further in than
 * the keys of its mapping (after a key whose value is on its line), or between two levels, a
 * list item off its list's column. It reads only block YAML and stops (finds nothing further) at a
 * flow collection or quoted scalar that goes on over lines, a tab in an indentation, a complex
 * key (`? `), or a bare scalar where a key or item belongs: yaml's own words stand then.
 *
 * load.ts asks for these only when `yaml` found errors, and reports a mistake only where `yaml`
 * found one too (on the mistake's line or the content line above it), in place of those: so a
 * document `yaml` reads is never refused here, and a finding always stands for an error `yaml`
 * has. After a mistake the line is read as if it stood at the level it was meant for, and the
 * scan goes on: every mistake at once.
 */

/** An indentation mistake: where it is, the content line above it, and what to say. */
export interface IndentMistake {
  /** The mistake's line, from 1. */
  readonly line: number;
  /** The column of its first character (after the indentation), from 1. */
  readonly column: number;
  /** The line of the content line above it (not blank, not a comment), from 1. */
  readonly previousLine: number;
  readonly message: string;
  /**
   * A list item indented further than the key or item above it whose value is a plain scalar
   * on its line: YAML reads the line as more of that scalar (`- a.example` then `   - b.example`
   * is the one string "a.example - b.example"), no error, but never what was meant.
   */
  readonly continued?: true;
}

import type { Diagnostic } from './types.js';

type Kind = 'map' | 'seq';

/** A block collection open at a line: its indentation, and its last key or item. */
interface Level {
  readonly indent: number;
  readonly kind: Kind;
  /** A sequence at the indentation of the key whose value it is (`key:` then `- a` under it). */
  readonly atKey: boolean;
  line: number;
  key: string | undefined;
}

/** What the line before leaves open: a nested block, a scalar that may go on, a block scalar. */
type Pending =
  | { readonly what: 'none' }
  | { readonly what: 'child'; readonly indent: number; readonly kind: Kind }
  | { readonly what: 'scalar'; readonly indent: number; readonly owner: Owner | undefined }
  | {
      readonly what: 'block';
      readonly indent: number;
      /** Its content lines' indentation: set by the first line that is not blank (or its indicator). */
      readonly content: number | undefined;
    };

/** The key or list item whose value on its line a plain scalar is. */
interface Owner {
  readonly kind: Kind;
  readonly line: number;
  readonly key: string | undefined;
  readonly indent: number;
}

const NONE: Pending = { what: 'none' };

/** Thrown to give up: the text holds something this reader does not follow. */
class GiveUp extends Error {}

/** Collections nested deeper than this are left to yaml's words (a manifest nests a few deep). */
const MAX_DEPTH = 64;

/** At most this many mistakes are reported (load.ts shows at most 1,000 problems). */
const MAX_MISTAKES = 1000;

/** Characters a plain key may not start with (YAML's indicators). */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** The indentation mistakes in `text`, in line order, up to what it does not follow (see above). */
export function indentationMistakes(text: string): IndentMistake[] {
  const mistakes: IndentMistake[] = [];
  try {
    scan(text, mistakes);
  } catch (e) {
    // The lines before what it does not follow were read: their mistakes stand.
    if (!(e instanceof GiveUp)) throw e;
  }
  return mistakes;
}

function scan(text: string, mistakes: IndentMistake[]): void {
  let levels: Level[] = [];
  let pending: Pending = NONE;
  let previousLine = 0;

  let number = 0;
  for (let start = text.charCodeAt(0) === 0xfeff ? 1 : 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    number++;
    const indent = raw.length - raw.replace(/^ +/, '').length;
    const body = raw.slice(indent);
    if (pending.what === 'block') {
      if (body === '') continue;
      // The first content line sets the block's indentation; a line less indented ends it.
      if (pending.content === undefined && indent > pending.indent) {
        pending = { ...pending, content: indent };
        continue;
      }
      if (pending.content !== undefined && indent >= pending.content) continue;
      pending = NONE;
    }
    if (body === '' || body.startsWith('#')) continue;
    if (body.startsWith('\t')) throw new GiveUp();
    if (indent === 0 && /^(?:---|\.\.\.)(?: |$)/.test(body)) {
      if (body.slice(3).trim() !== '' && !body.slice(3).trim().startsWith('#')) throw new GiveUp();
      levels = [];
      pending = NONE;
      previousLine = number;
      continue;
    }
    if (indent === 0 && body.startsWith('%')) continue;

    const kind = kindOf(body);
    if (pending.what === 'scalar') {
      // A plain scalar goes on over lines indented further than its key or item; one that
      // holds a key is an error in yaml, and is the mistake here.
      if (indent > pending.indent && kind !== 'map') {
        if (kind === 'seq' && pending.owner !== undefined) mistakes.push(continued(pending.owner, number, indent));
        continue;
      }
    }
    const at = { number, indent, previousLine };
    previousLine = number;
    if (pending.what === 'child') {
      const open = pending;
      pending = NONE;
      if (indent > open.indent && kind !== undefined) {
        levels.push({ indent, kind, atKey: false, line: number, key: undefined });
        pending = content(body, indent, levels, number);
        continue;
      }
      if (indent > open.indent) {
        // A scalar value on the next line (`key:` then the value under it).
        pending = scalarValue(body, open.indent, undefined);
        continue;
      }
      if (indent === open.indent && kind === 'seq' && open.kind === 'map') {
        levels.push({ indent, kind, atKey: true, line: number, key: undefined });
        pending = content(body, indent, levels, number);
        continue;
      }
    }
    if (kind === undefined) throw new GiveUp();
    pending = NONE;
    const mistake = place(levels, indent, kind);
    if (mistake !== undefined) mistakes.push(describe(mistake, at, body, kind));
    pending = content(body, mistake?.level.indent ?? indent, levels, number);
  }
}

/** The level found for a line, and how it is off (undefined: where it belongs). */
interface Placed {
  readonly level: Level;
  readonly off: 'more' | 'less' | undefined;
}

/**
 * Closes the levels the line leaves and finds the one it belongs to. A line that matches none
 * is read as the nearest level of its kind's (the inner one on a tie): the mistake returned.
 */
function place(levels: Level[], indent: number, kind: Kind): Placed | undefined {
  const top = levels.at(-1);
  if (top === undefined) {
    levels.push({ indent, kind, atKey: false, line: 0, key: undefined });
    return undefined;
  }
  const closed: Level[] = [];
  for (;;) {
    const level = levels.at(-1);
    if (level === undefined) break;
    if (level.indent > indent || (level.indent === indent && level.atKey && kind === 'map')) {
      closed.push(level);
      levels.pop();
      continue;
    }
    if (level.indent === indent && level.kind === kind) return undefined;
    break;
  }
  // Off: the nearest level of the line's kind, among the ones just closed and the ones open.
  const candidates = [...closed.slice(-1), ...levels].filter((l) => l.kind === kind);
  let best: Level | undefined;
  for (const level of candidates) {
    const distance = Math.abs(level.indent - indent);
    if (best === undefined || distance < Math.abs(best.indent - indent)) best = level;
  }
  if (best === undefined) throw new GiveUp();
  // Read the line as if at its level: reopen what it closed down to that level.
  while (closed.length > 0 && !levels.includes(best)) {
    const level = closed.pop();
    if (level !== undefined) levels.push(level);
  }
  while (levels.at(-1) !== best) levels.pop();
  return { level: best, off: best.indent > indent ? 'less' : 'more' };
}

function describe(
  placed: Placed,
  at: { number: number; indent: number; previousLine: number },
  body: string,
  kind: Kind,
): IndentMistake {
  const { level, off } = placed;
  const column = at.indent + 1;
  const above = level.indent + 1;
  const message =
    kind === 'map'
      ? `line ${at.number} is indented ${off} than the key above it: ` +
        `"${keyOf(body) ?? ''}" starts at column ${column}, "${level.key ?? ''}" on line ${level.line} at column ${above}; ` +
        'the keys of one mapping start at the same column'
      : `line ${at.number} is indented ${off} than the list item above it: ` +
        `this "-" is at column ${column}, the one on line ${level.line} at column ${above}; ` +
        'the items of one list start at the same column';
  return { line: at.number, column, previousLine: at.previousLine, message };
}

/** A list item read as more of the plain scalar above it (IndentMistake.continued). */
function continued(owner: Owner, number: number, indent: number): IndentMistake {
  const column = indent + 1;
  const above = owner.indent + 1;
  const message =
    owner.kind === 'seq'
      ? `line ${number} is indented more than the list item above it: this "-" is at column ${column}, ` +
        `the one on line ${owner.line} at column ${above}; the items of one list start at the same column ` +
        `(as written, line ${number} is more of the text on line ${owner.line})`
      : `line ${number} is indented more than the key above it: this "-" is at column ${column}, ` +
        `"${owner.key ?? ''}" on line ${owner.line} at column ${above} has its value on its line ` +
        `(as written, line ${number} is more of that value): a list goes under a key with nothing after its colon`;
  return { line: number, column, previousLine: owner.line, message, continued: true };
}

/** What a line at `indent` starts: a list item, a key, or (undefined) a scalar. */
function kindOf(body: string): Kind | undefined {
  if (/^-(?: |$)/.test(body)) return 'seq';
  if (body.startsWith('? ') || body === '?') throw new GiveUp();
  return keyOf(body) === undefined ? undefined : 'map';
}

/** The key a line starts with (`key:` then a space or the line's end); undefined when none. */
function keyOf(body: string): string | undefined {
  const quote = body[0];
  if (quote === '"' || quote === "'") {
    const match = (quote === '"' ? /^"((?:[^"\\]|\\.)*)"[ ]*:(?= |$)/ : /^'((?:[^']|'')*)'[ ]*:(?= |$)/).exec(body);
    return match?.[1];
  }
  if (INDICATOR.test(body) && !body.startsWith('<<')) return undefined;
  const colon = /:(?= |$)/.exec(body);
  if (colon === null) return undefined;
  const key = body.slice(0, colon.index);
  if (/ #/.test(key) || /[{[]/.test(key)) return undefined;
  return key.trimEnd();
}

/**
 * Reads a line's content at its level (the level at `indent` is the top of `levels`): records
 * its key or item, opens the compact collections it starts (`- key: value`, `- - a`), and says
 * what it leaves open.
 */
function content(body: string, indent: number, levels: Level[], number: number): Pending {
  const level = levels.at(-1);
  if (level === undefined || levels.length > MAX_DEPTH) throw new GiveUp();
  if (level.kind === 'seq') {
    level.line = number;
    const rest = body.slice(1).replace(/^ +/, '');
    // An anchor or tag alone (`- &base`, then the item's mapping on the lines below) is no content.
    const own = rest.replace(/^(?:[&!][^ ]* *)+/, '');
    if (own === '' || own.startsWith('#')) return { what: 'child', indent, kind: 'seq' };
    const inner = indent + (body.length - rest.length);
    const kind = kindOf(rest);
    if (kind === undefined) return scalarValue(rest, indent, { kind: 'seq', line: number, key: undefined, indent });
    levels.push({ indent: inner, kind, atKey: false, line: level.line, key: undefined });
    return content(rest, inner, levels, number);
  }
  const key = keyOf(body);
  if (key === undefined) throw new GiveUp();
  level.key = key;
  level.line = number;
  const value = body
    .slice(body.indexOf(':', key.length) + 1)
    .replace(/^ +/, '')
    .replace(/^(?:[&!][^ ]* *)+/, '');
  if (value === '' || value.startsWith('#')) return { what: 'child', indent, kind: 'map' };
  return scalarValue(value, indent, { kind: 'map', line: number, key, indent });
}

/** A value on the line: a block scalar, a flow collection or quoted scalar (closed on the line), or a plain one. */
function scalarValue(value: string, indent: number, owner: Owner | undefined): Pending {
  if (/^[|>]/.test(value)) {
    // An indentation indicator (`|2`): any line indented further is content.
    return { what: 'block', indent, content: /^.[-+]?[1-9]/.test(value) ? indent + 1 : undefined };
  }
  if (/^[[{]/.test(value)) {
    if (!closesOnLine(value)) throw new GiveUp();
    return NONE;
  }
  if (value.startsWith('"') || value.startsWith("'")) {
    if (!closesOnLine(value)) throw new GiveUp();
    return NONE;
  }
  if (value.startsWith('*')) return NONE;
  return { what: 'scalar', indent, owner };
}

/** Whether the brackets and quotes opened in `value` close on it. */
function closesOnLine(value: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote !== undefined) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) {
        if (quote === "'" && value[i + 1] === "'") i++;
        else quote = undefined;
      }
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === '#' && value[i - 1] === ' ') break;
  }
  return depth === 0 && quote === undefined;
}

/**
 * `yaml`'s errors with the indentation mistakes they stand for in plain words: a mistake is
 * reported where `yaml` found an error on its line or the content line above it, in place of
 * those errors; the other errors stay. A list item read as more of a scalar
 * (IndentMistake.continued) is an error of its own, `yaml` having found none. `errors` are
 * `yaml`'s, located in `file`.
 */
export function withIndentation(text: string, file: string, errors: readonly Diagnostic[]): Diagnostic[] {
  let kept = [...errors];
  const explained: Diagnostic[] = [];
  for (const mistake of indentationMistakes(text).slice(0, MAX_MISTAKES)) {
    const near = (d: Diagnostic): boolean => d.line >= mistake.previousLine && d.line <= mistake.line;
    if (mistake.continued !== true && !errors.some(near)) continue;
    kept = kept.filter((d) => !near(d));
    explained.push({ file, line: mistake.line, column: mistake.column, severity: 'error', message: mistake.message });
  }
  return [...explained, ...kept];
}
