import { domainToASCII } from 'node:url';
import { quote } from '../escape.js';
import { isAscii, isRecord } from '../util.js';
import type { Locator } from './locate.js';
import { codePointName, skeleton } from './lookalike.js';
import { type Diagnostic, NO_PRUNE, type Prune } from './types.js';
import { HOSTING_PLANS_KEY, KEEP_PLAN_KEY, planKeepProblem } from '../kinds/hosting-plan/manifest.js';
import type { SectionKind } from '../kinds/index.js';
import { sectionKeepPattern, sectionPrunes } from './sections.js';

/**
 * The manifest's `prune:` as Desired.prune: NO_PRUNE when the manifest has none (nothing is
 * deleted for being unlisted); otherwise `domains` and `clients` as written (false when left
 * out), `keep` as written, and `loc` where the `prune` key stands. The schema has checked the
 * types (this reads only what has the right type); this adds what it cannot say: a `keep`
 * pattern that can never match a name is refused, since the domain or client it was meant to
 * protect would be deleted: empty, spaces around it, a trailing dot or an empty label, a
 * character no username or ASCII domain name holds (a scheme, a path, a port, an `@`, a space,
 * a control character, brackets: only `*` and `?` are wildcards), and any character outside
 * ASCII (names are compared in their ASCII form; a look-alike letter, a
 * dotted capital I or an invisible character would make it keep another name, or none). The
 * message says which form to write. ASCII capitals stay allowed: they match case-insensitively.
 * Problems go to `diagnostics`, located at the pattern. A typed entry of hosting plans
 * (KEEP_PLAN_EXAMPLE) matches plan names (which may hold spaces and any text): checked by the plan's room
 * (planKeepProblem), kept in `keepHostingPlans` as written. `hostingPlans` and
 * `keepHostingPlans` are set only when the manifest gives them.
 */
export function buildPrune<N>(
  data: unknown,
  source: Locator<N>,
  diagnostics: Diagnostic[],
  sections?: readonly SectionKind[],
): Prune {
  const prune = isRecord(data) ? data.prune : undefined;
  const root = source.root();
  if (!isRecord(prune) || root === undefined) return NO_PRUNE;
  const loc = source.keyAt(root, 'prune') ?? source.at(root);
  const keep: string[] = [];
  const keepHostingPlans: string[] = [];
  const pruneNode = source.step(root, 'prune');
  const keepNode = pruneNode && source.step(pruneNode, 'keep');
  if (Array.isArray(prune.keep)) {
    prune.keep.forEach((pattern: unknown, i) => {
      const entryNode = keepNode && source.step(keepNode, i);
      if (isRecord(pattern)) {
        const plan = pattern[KEEP_PLAN_KEY];
        if (typeof plan !== 'string') return; // the schema check reported it
        const problem = planKeepProblem(plan);
        if (problem !== undefined) {
          const valueNode = entryNode && (source.step(entryNode, KEEP_PLAN_KEY) ?? entryNode);
          diagnostics.push({
            ...(valueNode === undefined ? loc : source.at(valueNode)),
            severity: problem.severity,
            message: `hosting plan pattern ${quote(plan)} in "prune.keep" ${problem.message}`,
          });
        }
        if (problem?.severity !== 'error') keepHostingPlans.push(plan);
        return;
      }
      if (typeof pattern !== 'string') return; // the schema check reported it
      // A pattern a kind's section claims (an address): its own check (./sections.ts).
      const claimed = sectionKeepPattern(pattern, sections);
      const problem =
        claimed === undefined
          ? patternProblem(pattern)
          : 'problem' in claimed
            ? claimed.problem
            : { ascii: claimed.keep };
      if (typeof problem === 'string') {
        const at = keepNode === undefined ? loc : source.at(entryNode ?? keepNode);
        diagnostics.push({
          ...at,
          severity: 'error',
          message: `pattern ${quote(pattern)} in "prune.keep" ${problem}${planHint(pattern)}`,
        });
      } else {
        keep.push(problem.ascii);
      }
    });
  }
  // The prune keys of the kinds' sections (`prune.<key>`), each as its section says.
  const flags = sectionPrunes(prune, source, pruneNode, diagnostics, sections);
  return {
    domains: prune.domains === true,
    clients: prune.clients === true,
    keep,
    ...(typeof prune[HOSTING_PLANS_KEY] === 'boolean' ? { hostingPlans: prune[HOSTING_PLANS_KEY] } : {}),
    ...(keepHostingPlans.length === 0 ? {} : { keepHostingPlans }),
    ...(flags === undefined ? {} : { sections: flags }),
    loc,
  };
}

/**
 * For a pattern with a space inside and nothing of a domain, an address or a list (a plan's name, like
 * "Premium Plus": plan names may hold spaces, and match typed entries only), the typed entry to
 * write; nothing otherwise.
 */
function planHint(pattern: string): string {
  if (pattern.trim() !== pattern || !pattern.includes(' ') || /[/@:,;.[\]]/.test(pattern)) return '';
  return `; for a hosting plan's name, write {${KEEP_PLAN_KEY}: ${quote(pattern)}}`;
}

/** What is wrong with a keep pattern (the end of a sentence), or its form to match with; `dns.keep`'s too. */
export function patternProblem(pattern: string): string | { ascii: string } {
  if (pattern.trim() === '')
    return 'is empty: write a username or domain name, with * or ? as wildcards (like "legacy-*"), or remove it';
  if (pattern.trim() !== pattern)
    return 'has spaces around it: remove them (names have no spaces, so it would keep nothing)';
  const odd = Array.from(pattern).find((char) => !isAscii(char));
  if (odd !== undefined) return unicodeProblem(pattern, odd);
  const strange = Array.from(pattern).find((char) => !NAME_OR_GLOB.test(char));
  if (strange !== undefined) return asciiProblem(pattern, strange);
  if (pattern.endsWith('.'))
    return (
      'ends with a dot, which no name has (names are compared without it), ' +
      `so it would keep nothing: write ${quote(pattern.replace(/\.+$/, ''))}`
    );
  if (pattern.startsWith('.') || pattern.includes('..'))
    return (
      'has an empty label (a dot at the start or two in a row), ' +
      `which no name has, so it would keep nothing: write ${quote(
        `${pattern.startsWith('.') ? '*.' : ''}${pattern
          .split('.')
          .filter((label) => label !== '')
          .join('.')}`,
      )}`
    );
  return { ascii: pattern };
}

/**
 * What a keep pattern may hold: the characters of a username (`^[a-z][a-z0-9_-]*$`) and of an
 * ASCII domain name (letters, digits, `-`, `_`, `.`), in either case, and the wildcards `*`
 * and `?`. Anything else (a scheme, a path, a port, an `@`, a space, a control character,
 * brackets, which match themselves) is in no name, so the pattern would keep nothing. Hosting
 * plan names (design: "keep patterns match plan names too") may hold spaces and any text: they
 * need patterns of their own, not a wider set here, which would let these mistakes through.
 */
const NAME_OR_GLOB = /^[A-Za-z0-9._*?-]$/;

/**
 * Why an ASCII pattern with a character no name holds (`odd`, the first) is refused, and what
 * to write: the name inside an address (`https://important.example/` is "important.example",
 * `user@important.example` the domain or the username), one pattern per bracketed letter, or
 * the pattern without the character.
 */
function asciiProblem(pattern: string, odd: string): string {
  const code = codePointName(odd);
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(pattern)?.[0];
  let rest = scheme === undefined ? pattern : pattern.slice(scheme.length);
  rest = rest.replace(/[/#].*$/s, '');
  const at = rest.lastIndexOf('@');
  const user = at < 0 ? undefined : rest.slice(0, at).replace(/:.*$/s, '');
  if (at >= 0) rest = rest.slice(at + 1);
  const port = /:\d*$/.exec(rest)?.[0];
  if (port !== undefined) rest = rest.slice(0, -port.length);
  const what =
    scheme !== undefined
      ? `${quote(scheme)} (an address, not a name)`
      : at >= 0
        ? `"@" (an email address, not a name)`
        : port !== undefined && pattern.endsWith(port)
          ? `${quote(port)} (a port)`
          : odd === '/'
            ? `"/" (a path)`
            : odd === ' '
              ? `a space (${code})`
              : odd === '[' || odd === ']'
                ? `${quote(odd)} (brackets match themselves: only * and ? are wildcards)`
                : (odd.codePointAt(0) ?? 0) < 0x20 || odd === '\x7f'
                  ? `an invisible character (${code})`
                  : `${quote(odd)} (${code})`;
  const clean = (text: string): string | undefined => {
    const form = text.replace(/[^A-Za-z0-9._*?-]/g, '').replace(/\.+$/, '');
    return form !== '' && typeof patternProblem(form) !== 'string' ? form : undefined;
  };
  const forms: string[] = [];
  const list = rest.split(/[\s,;]+/).filter((part) => part !== '');
  if (list.length > 1 && /[,;]/.test(rest)) {
    const each = list.map(clean);
    if (each.every((form) => form !== undefined)) forms.push(`${each.map(quote).join(' and ')} (one pattern each)`);
  }
  const bracket = /\[([A-Za-z0-9_]{2,8})\]/.exec(rest);
  if (bracket !== null && rest.indexOf('[', bracket.index + 1) < 0) {
    const each = Array.from(new Set(bracket[1] ?? ''))
      .map((char) => clean(rest.replace(bracket[0], char)))
      .filter((form) => form !== undefined);
    if (each.length > 1) forms.push(`${each.map(quote).join(' and ')} (one pattern each)`);
  }
  const named = forms.length > 0 && list.length > 1 ? undefined : clean(rest.replace(/\[[^\]]*\]/g, '?'));
  if (named !== undefined) forms.push(at >= 0 ? `${quote(named)} for the domain` : quote(named));
  const username = user === undefined ? undefined : clean(user);
  if (username !== undefined) forms.push(`${quote(username)} for the client`);
  const write =
    forms.length > 0
      ? `write ${forms.join(', or ')}`
      : 'write a username or domain name, with * or ? as wildcards (like "legacy-*")';
  return `holds ${what}, which no username or domain name has, so it would keep nothing: ${write}`;
}

/**
 * Why a pattern with a character outside ASCII (`odd`, the first) is refused, and what to write:
 * names are compared in their ASCII form (usernames are ASCII; domains in punycode), and the
 * conversion of a pattern could keep another name than the one meant: a look-alike letter
 * ("і", Cyrillic) turns into a punycode name nobody sees, a dotted capital I ("İ") lowercases
 * to "i" with a combining dot, an invisible character vanishes or not. So the pattern is never
 * converted: the message gives the plain name its look-alikes pass for, and the ASCII
 * (punycode) form of the international name, for the writer to choose.
 */
function unicodeProblem(pattern: string, odd: string): string {
  const code = codePointName(odd);
  const twin = plainTwin(odd);
  const what =
    twin === ''
      ? `holds an invisible character (${code})`
      : twin !== undefined
        ? `holds ${quote(odd)} (${code}), which looks like ${quote(twin)} but is another character`
        : `holds ${quote(odd)} (${code}), a character outside ASCII`;
  const forms: string[] = [];
  const plain = plainForm(pattern);
  if (plain !== undefined) forms.push(`${quote(plain)} for the name it looks like`);
  const ascii = punycodeForm(pattern);
  if (ascii !== undefined && ascii !== plain?.toLowerCase())
    forms.push(`${quote(ascii)} for the international name (its ASCII form)`);
  const write =
    forms.length > 0
      ? `write ${forms.join(', or ')}`
      : 'write each label with international letters in its ASCII (punycode) form, ' +
        'with the wildcards in labels of their own';
  return `${what}; names are compared in their ASCII form, so it would keep nothing as written: ${write}`;
}

/**
 * The plain ASCII character `char` passes for: its look-alike skeleton when that is ASCII, ''
 * for an invisible character, the letter under the dot of a capital whose lowercase is no one
 * character ("İ" is "I"); undefined for a letter of its own ("ü", "é").
 */
function plainTwin(char: string): string | undefined {
  const folded = skeleton(char);
  if (isAscii(folded)) return folded;
  if (char.toLowerCase().normalize('NFC').length > char.length) {
    const base = char.normalize('NFD').replace(/\p{M}/gu, '');
    if (base !== '' && isAscii(base)) return base;
  }
  return undefined;
}

/**
 * The pattern with every character outside ASCII replaced by its plain twin, without a trailing
 * dot; undefined when one has none.
 */
function plainForm(pattern: string): string | undefined {
  let out = '';
  for (const char of pattern) {
    const twin = isAscii(char) ? char : plainTwin(char);
    if (twin === undefined) return undefined;
    out += twin;
  }
  out = out.replace(/\.+$/, '');
  return out === '' ? undefined : out;
}

/**
 * The pattern's ASCII (punycode) form label by label, without a trailing dot; undefined when a
 * label cannot be converted (a wildcard beside international letters).
 */
function punycodeForm(pattern: string): string | undefined {
  const labels: string[] = [];
  for (const label of pattern.replace(/\.+$/, '').split('.')) {
    if (isAscii(label)) {
      labels.push(label.toLowerCase());
      continue;
    }
    const ascii = /[*?]/.test(label) ? '' : domainToASCII(label);
    if (ascii === '' || ascii.includes('.')) return undefined;
    labels.push(ascii);
  }
  return labels.join('.');
}
