/**
 * The shape of a saved plan's facts, which each kind's room states for its changes
 * (plan/fingerprint.ts gathers them): a fact's key, its value when the plan was made, its
 * value now, and why the plan is stale when they differ. Pure.
 */
import { quote } from '../escape.js';
import { compare } from '../util.js';

/**
 * One fact a change depends on, read from `I`, the live panel indexed as the fact looks it up.
 * Its key (factKey) is `topic:subject`, kept in its two parts: the subject is most often a string
 * the change holds already (its name), so a plan's facts add no key string each (the
 * fingerprint of a plan of 100,000 creates sorts them: plan/fingerprint.ts).
 */
export interface Fact<I> {
  /** What the fact is of, the key's part before its first colon: `client`, `domain-parent`; never holds a colon. */
  readonly topic: string;
  /** The key's part after that colon: the name the fact is of (`alice`, `a.example:php_version`). */
  readonly subject: string;
  readonly expected: string;
  actual(live: I): string;
  /** Why the plan is stale when `actual` differs from `expected`, for people. */
  reason(actual: string, live: I): string;
}

/** A fact's key, `topic:subject`: `client:alice`. */
export function factKey(fact: Pick<Fact<never>, 'topic' | 'subject'>): string {
  return `${fact.topic}:${fact.subject}`;
}

/** `id:<n>`, or `absent`. */
export const idFact = (n: number | undefined): string => (n === undefined ? 'absent' : `id:${n}`);

/** The number in `id:7` or `owner:7`. */
export const valueOf = (fact: string): string => fact.slice(fact.indexOf(':') + 1);

/** A sorted list of names as a fact's value; `unknown` when the panel cannot list them. */
export function namesFact(names: readonly string[] | null): string {
  return names === null ? 'unknown' : JSON.stringify([...names].sort(compare));
}

/** What changed between two names facts, for people: `now also "x.example"; no longer "y.example"`. */
export function namesDifference(expected: string, actual: string): string {
  if (expected === 'unknown' || actual === 'unknown')
    return actual === 'unknown'
      ? 'the panel cannot list them now'
      : 'the panel lists them now, and could not when the plan was made';
  const before = new Set(JSON.parse(expected) as string[]);
  const after = new Set(JSON.parse(actual) as string[]);
  const added = [...after].filter((n) => !before.has(n));
  const removed = [...before].filter((n) => !after.has(n));
  const list = (names: string[]): string =>
    names
      .slice(0, 5)
      .map((n) => quote(n))
      .join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  return [added.length > 0 ? `now also ${list(added)}` : '', removed.length > 0 ? `no longer ${list(removed)}` : '']
    .filter(Boolean)
    .join('; ');
}
