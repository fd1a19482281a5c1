import { domainToASCII } from 'node:url';
import { quote } from './escape.js';

/**
 * A client's username: a lowercase letter first, then lowercase letters, digits, `-` and `_`,
 * at most 32 characters (the panel creates a system user of that name). Refused, never
 * rewritten, when it breaks the rule.
 */
export const USERNAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The label separators IDNA maps to "." (ideographic, fullwidth and halfwidth full stops). */
const DOT_FORMS = /[\u3002\uff0e\uff61]/g;

/** A last label the URL parser reads as a number (decimal or 0x-hex), making the whole an IPv4 address. */
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;

const ADDRESS = 'is an IP address or a number, not a domain name: write a name like example.com';

/**
 * The comparison form of a domain name: lowercase ASCII, international names in punycode.
 * Returns an explanation instead when the name cannot be a hosting domain (at least two
 * labels, each 1-63 letters, digits or inner hyphens, 253 characters in all). Refused, never
 * rewritten: an IPv4 or IPv6 literal, and anything the URL parser would turn into one ("127.1",
 * "0x7f.0.0.2", "127.１" with a fullwidth digit, "10.0.0。2" with an ideographic full stop). The
 * rules are checked on the name as IDNA maps it (NFKC, those full stops as dots) and again on
 * the ASCII result, so no spelling that maps to a refused name gets through.
 */
export function normalizeDomain(input: string): DomainAnswer {
  return answerOf(input);
}

/** What normalizeDomain answers: one object per name read, frozen, shared by every caller. */
type DomainAnswer = { readonly name: string } | { readonly problem: string };

/**
 * The names read so far and their answers. The same name comes many times in a run (a domain item
 * and the items listed under it, the panel's record of the domain, the addresses on it in other
 * records and their `_utf8` twins), and reading one (NFKC, IDNA, the checks) costs far more than a
 * look-up.
 * Bounded: emptied when full, so a run over any number of names holds at most this many.
 */
const answers = new Map<string, DomainAnswer>();
const MAX_ANSWERS = 8192;

function answerOf(input: string): DomainAnswer {
  let answer = answers.get(input);
  if (answer === undefined) {
    if (answers.size >= MAX_ANSWERS) answers.clear();
    answer = Object.freeze(readDomain(input));
    answers.set(input, answer);
  }
  return answer;
}

/**
 * Whether `name` is a domain in comparison form already: normalizeDomain gives it back as it is.
 * For readers that take most names as the panel sends them (lowercase ASCII), without a copy of
 * the answer; it shares normalizeDomain's memory of the last name.
 */
export function isNormalDomain(name: string): boolean {
  const answer = answerOf(name);
  return 'name' in answer && answer.name === name;
}

function readDomain(input: string): { name: string } | { problem: string } {
  const trimmed = input.trim();
  if (trimmed === '') return { problem: 'is empty' };
  if (trimmed !== input) return { problem: 'has spaces around it' };
  const mapped = trimmed.normalize('NFKC').toLowerCase().replace(DOT_FORMS, '.');
  if (mapped.endsWith('.')) return { problem: 'ends with a dot: write it without the trailing dot' };
  if (/[\s/:@*[\]]/.test(mapped))
    return {
      problem: 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name',
    };
  // A numeric last label makes the URL parser read the whole as an IPv4 address and rewrite it
  // ("127.1" becomes "127.0.0.1"): refused before, and after, the conversion.
  if (NUMERIC_LABEL.test(mapped.split('.').at(-1) ?? '')) return { problem: ADDRESS };
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === '') return { problem: 'is not a valid domain name' };
  if (NUMERIC_LABEL.test(ascii.split('.').at(-1) ?? '')) return { problem: ADDRESS };
  if (ascii.length > 253) return { problem: 'is longer than 253 characters' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { problem: 'needs at least two labels, like example.com' };
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return {
      problem: `has an invalid label ${quote(bad)}: use 1-63 letters, digits or inner hyphens`,
    };
  }
  return { name: ascii };
}

/**
 * The closest of `candidates` to `word` (case-insensitive edit distance; a candidate that
 * contains the word, or the other way round, counts as one edit), when close enough to suggest.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const d =
      other.includes(lower) || lower.includes(other)
        ? Math.min(1, editDistance(lower, other))
        : editDistance(lower, other);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current[j] = d;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * A test for names against glob patterns (`prune.keep`, `--clients`): `*` matches any run of
 * characters (dots included), `?` exactly one; everything else is literal, and the whole name
 * must match. Patterns are compared case-insensitively, as usernames and domains are.
 */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  const any = wildcardMatcher(patterns.map((p) => p.toLowerCase()));
  return (name) => any(name.toLowerCase());
}

/**
 * A `--clients` scope, compiled once (clientScope) and handed to each stage that asks it: the
 * planner, the reads it needs, plan's notes, the secrets journal's settling.
 */
export interface ClientScope {
  /** The username patterns as given; undefined: no scope (the whole manifest). */
  readonly patterns: readonly string[] | undefined;
  /** Whether a username matches one of the patterns (globMatcher); every username without a scope. */
  readonly covers: (username: string) => boolean;
}

/** The scope of `--clients` patterns (undefined: none), compiled; a scope already compiled is returned as it is. */
export function clientScope(scope: ClientScope | readonly string[] | undefined): ClientScope {
  if (scope !== undefined && 'covers' in scope) return scope;
  return { patterns: scope, covers: scope === undefined ? () => true : globMatcher(scope) };
}

/**
 * The test of a `--clients` scope (diff's, readLive's, a snapshot's): usernames matching one of
 * its patterns (globMatcher); without a scope, every username.
 */
export function scopeMatcher(scope: ClientScope | readonly string[] | undefined): (username: string) => boolean {
  return clientScope(scope).covers;
}

/**
 * A test for names against wildcard patterns, exactly as written (case-sensitive): `*` any run of
 * characters, `?` one (a code point), everything else literal, the whole name. Never a regular
 * expression: a pattern from a pull request (`*a*a*a*a*a*b`) costs at most its length times the
 * name's, where backtracking took minutes.
 */
export function wildcardMatcher(patterns: readonly string[]): (name: string) => boolean {
  const compiled = patterns.map((p) => (/[*?]/.test(p) ? Array.from(p) : p));
  return (name) => {
    let chars: string[] | undefined;
    return compiled.some((p) => (typeof p === 'string' ? p === name : wildcardMatch(p, (chars ??= Array.from(name)))));
  };
}

/** One pattern against one name, both as code points: the greedy match that backs up to the last `*` only. */
function wildcardMatch(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const c = pattern[p];
    if (c === '*') {
      star = p++;
      resume = n;
    } else if (c !== undefined && (c === '?' || c === name[n])) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
