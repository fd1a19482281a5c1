import { quote } from '../escape.js';
import { isAscii, placeOf } from '../util.js';
import { domainToUnicode } from 'node:url';
import { CONFUSABLES_TABLE } from './confusables.generated.js';
import type { Desired, Diagnostic, Location } from './types.js';

/**
 * Look-alikes mapped to the lowercase Latin letter they pass for, taken before Unicode's data
 * (whose prototypes are sometimes capitals or other scripts' letters): Cyrillic and Greek
 * letters in both cases, and the digits and punctuation that pass for letters.
 */
const LATIN_TWINS: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ь: 'b',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  ϲ: 'c',
  ϳ: 'j',
  // Capitals, mapped before lowercasing (Greek Υ is Y, its lowercase υ is u)
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  Х: 'x',
  Ѕ: 's',
  І: 'i',
  Ј: 'j',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
  // Latin look-alikes
  ı: 'i',
  ł: 'l',
  ɑ: 'a',
  ɡ: 'g',
  ß: 'ss',
  // Digits and punctuation that pass for letters
  '0': 'o',
  '1': 'l',
  '|': 'l',
  _: '-',
};

/** Invisible or spacing characters that make two names differ without showing it. */
const INVISIBLE = /[\s\u00ad\u180e\u200b-\u200f\u2060\ufeff]/gu;

/**
 * Unicode's prototype for a character, or undefined when the data has none: a search of the
 * generated table (`\u0001char\u0002prototype` per entry, scripts/generate-confusables.ts),
 * so loading the module builds nothing, and a run pays one search per distinct character
 * its names hold (remembered in PASSES_FOR).
 */
export function confusablePrototype(char: string): string | undefined {
  const at = CONFUSABLES_TABLE.indexOf(`\u0001${char}\u0002`);
  if (at === -1) return undefined;
  const start = at + char.length + 2;
  const end = CONFUSABLES_TABLE.indexOf('\u0001', start);
  return CONFUSABLES_TABLE.slice(start, end === -1 ? undefined : end);
}

/** What each character seen so far passes for (it is looked up once per process). */
const PASSES_FOR = new Map<string, string>();

/** Each character as the one it passes for: its Latin twin, else Unicode's prototype, else itself. */
function prototypes(text: string): string {
  let out = '';
  for (const char of text) {
    let passesFor = PASSES_FOR.get(char);
    if (passesFor === undefined) {
      passesFor = LATIN_TWINS[char] ?? LATIN_TWINS[char.toLowerCase()] ?? confusablePrototype(char) ?? char;
      PASSES_FOR.set(char, passesFor);
    }
    out += passesFor;
  }
  return out;
}

/**
 * The skeleton of a name (UTS #39, loosened for names that ignore case): two names with the
 * same skeleton look alike. NFKC (fullwidth and compatibility forms), no whitespace or
 * invisible characters, each character replaced by what it passes for (Unicode's confusables
 * data, about 6,300 characters, with the Latin twins above first), lowercase, once more for
 * prototypes that were capitals, then `rn` read as `m` and `vv` as `w`.
 */
export function skeleton(name: string): string {
  // The name itself while each character folds to itself; else its parts joined once, a flat
  // string (one grown by `+=` is a tree of pieces, and the look-alike check keeps a skeleton a name).
  let parts: string[] | undefined;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const part = asciiSkeleton(code);
    if (part === undefined) return readRnVv(folded(name));
    if (parts !== undefined) parts.push(part);
    else if (part.length !== 1 || part.charCodeAt(0) !== code) parts = [name.slice(0, i), part];
  }
  return readRnVv(parts === undefined ? name : parts.join(''));
}

/** The skeleton before `rn` and `vv` are read: each step but the last. */
function folded(name: string): string {
  const visible = name.normalize('NFKC').replace(INVISIBLE, '');
  return prototypes(prototypes(visible).toLowerCase()).toLowerCase();
}

function readRnVv(text: string): string {
  return text.includes('rn') || text.includes('vv') ? text.replaceAll('rn', 'm').replaceAll('vv', 'w') : text;
}

/**
 * `folded` of each ASCII character alone, made at its first use (null: a step's answer for it
 * is not ASCII). A name of ASCII characters (nearly every username and domain) folds
 * character by character: with every step's answer ASCII, lowercasing the whole equals
 * lowercasing the parts, and NFKC leaves ASCII as it is.
 */
const ASCII_FOLDED: (string | null)[] = [];

function asciiSkeleton(code: number): string | undefined {
  if (code >= 0x80) return undefined;
  let part = ASCII_FOLDED[code];
  if (part === undefined) {
    const char = String.fromCharCode(code);
    const steps = [prototypes(char), prototypes(prototypes(char).toLowerCase())];
    part = steps.every(isAscii) ? folded(char) : null;
    ASCII_FOLDED[code] = part;
  }
  return part ?? undefined;
}

/** A name as the manifest wrote it, with where. */
interface NamedAt {
  readonly name: string;
  readonly loc?: Location;
}

/** Groups of two or more different names that share a skeleton, in first-appearance order. */
export function lookalikeGroups(names: readonly NamedAt[]): NamedAt[][] {
  return groupsOf(names, (entry) => entry.name);
}

/**
 * lookalikeGroups over any items, named by `nameOf`: the items themselves grouped, no wrapper
 * made for each. Keeps each skeleton's first item (by its index) and makes a group only when a
 * second name shares it: on a manifest of 100,000 names, the skeletons (most the names
 * themselves) and a number each.
 */
function groupsOf<T>(items: readonly T[], nameOf: (item: T) => string): T[][] {
  const first = new Map<string, number>();
  const groups = new Map<string, { readonly at: number; readonly group: T[] }>();
  items.forEach((item, i) => {
    const key = skeleton(nameOf(item));
    const at = first.get(key);
    if (at === undefined) {
      first.set(key, i);
      return;
    }
    const head = items[at] as T;
    const name = nameOf(item);
    if (nameOf(head) === name) return;
    const found = groups.get(key);
    if (found === undefined) groups.set(key, { at, group: [head, item] });
    else if (!found.group.some((g) => nameOf(g) === name)) found.group.push(item);
  });
  return [...groups.values()].sort((a, b) => a.at - b.at).map((g) => g.group);
}

/**
 * Warnings for manifest usernames, domains (compared in their Unicode form, label by label)
 * and the names of the hosting plans it defines, that differ only by case, whitespace or
 * look-alike characters: one is probably a typo or a spoof of the other (and a panel that
 * compares plan names without case refuses the second). Each warning stands at the later name
 * and names the earlier.
 */
export function lookalikeDiagnostics(desired: Desired): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const warn = <T extends { readonly loc?: Location | undefined }>(
    kind: string,
    items: readonly T[],
    nameOf: (item: T) => string,
  ): void => {
    for (const [first, ...rest] of groupsOf(items, nameOf)) {
      if (first === undefined) continue;
      const firstName = nameOf(first);
      for (const other of rest) {
        const otherName = nameOf(other);
        const where = first.loc === undefined ? '' : ` (${placeOf(first.loc, other.loc?.file ?? desired.file)})`;
        diagnostics.push({
          file: other.loc?.file ?? desired.file,
          line: other.loc?.line ?? 1,
          column: other.loc?.column ?? 1,
          severity: 'warning',
          message:
            `${kind} ${quote(otherName)} looks like ${kind} ${quote(firstName)}${where}: ` +
            `they differ only by case, spacing or look-alike characters${oddCharacter(otherName, firstName)}`,
        });
      }
    }
  };
  warn('username', desired.clients, (c) => c.username);
  warn(
    'domain',
    desired.clients.flatMap((c) => c.domains),
    (d) => (d.input === d.name ? d.name : domainToUnicode(d.name) || d.input),
  );
  warn('hosting plan', desired.hostingPlans ?? [], (p) => p.name);
  return diagnostics;
}

/** ` ("а" is U+0430)` for the first differing character that is not plain ASCII; '' when there is none. */
export function oddCharacter(a: string, b: string): string {
  const ca = Array.from(a);
  const cb = Array.from(b);
  for (let i = 0; i < Math.max(ca.length, cb.length); i++) {
    const x = ca[i] ?? '';
    const y = cb[i] ?? '';
    if (x === y) continue;
    const odd = [x, y].find((ch) => ch !== '' && (ch.codePointAt(0) ?? 0) > 0x7e);
    if (odd === undefined) return '';
    return ` (${JSON.stringify(odd)} is ${codePointName(odd)})`;
  }
  return '';
}

/** A character's code point as Unicode names it: `U+0456`. */
export function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
