import { domainToASCII } from 'node:url';
import { quote } from '../escape.js';
import { isAscii, isRecord } from '../util.js';
import type { Locator } from './locate.js';
import { type Diagnostic, NO_PRUNE, type Prune } from './types.js';

/**
 * The manifest's `prune:` as Desired.prune: NO_PRUNE when the manifest has none (nothing is
 * deleted for being unlisted); otherwise `domains` and `clients` as written (false when left
 * out), `keep` as written, and `loc` where the `prune` key stands. The schema has checked the
 * types (this reads only what has the right type); this adds what it cannot say: a `keep`
 * pattern that is empty or has spaces around it matches nothing, and is refused. A pattern
 * with international letters is kept in its ASCII (punycode) form label by label, since names
 * are matched in that form; a label that mixes them with a wildcard cannot be converted and is
 * refused. Problems go to `diagnostics`, located at the pattern.
 */
export function buildPrune<N>(data: unknown, source: Locator<N>, diagnostics: Diagnostic[]): Prune {
  const prune = isRecord(data) ? data.prune : undefined;
  const root = source.root();
  if (!isRecord(prune) || root === undefined) return NO_PRUNE;
  const loc = source.keyAt(root, 'prune') ?? source.at(root);
  const keep: string[] = [];
  const pruneNode = source.step(root, 'prune');
  const keepNode = pruneNode && source.step(pruneNode, 'keep');
  if (Array.isArray(prune.keep)) {
    prune.keep.forEach((pattern: unknown, i) => {
      if (typeof pattern !== 'string') return; // the schema check reported it
      const problem = patternProblem(pattern);
      if (typeof problem === 'string') {
        const at = keepNode === undefined ? loc : source.at(source.step(keepNode, i) ?? keepNode);
        diagnostics.push({
          ...at,
          severity: 'error',
          message: `pattern ${quote(pattern)} in "prune.keep" ${problem}`,
        });
      } else {
        keep.push(problem.ascii);
      }
    });
  }
  return {
    domains: prune.domains === true,
    clients: prune.clients === true,
    keep,
    loc,
  };
}

/** What is wrong with a keep pattern (the end of a sentence), or its ASCII form. */
function patternProblem(pattern: string): string | { ascii: string } {
  if (pattern.trim() === '')
    return 'is empty: write a username or domain name, with * or ? as wildcards (like "legacy-*"), or remove it';
  if (pattern.trim() !== pattern)
    return 'has spaces around it: remove them (names have no spaces, so it would keep nothing)';
  if (isAscii(pattern)) return { ascii: pattern };
  const labels: string[] = [];
  for (const label of pattern.toLowerCase().split('.')) {
    if (isAscii(label)) {
      labels.push(label);
      continue;
    }
    const ascii = /[*?]/.test(label) ? '' : domainToASCII(label);
    if (ascii === '' || ascii.includes('.')) {
      return `has a label ${quote(label)} with international letters that cannot be matched as written: write that label in its ASCII (punycode) form, as names are compared`;
    }
    labels.push(ascii);
  }
  return { ascii: labels.join('.') };
}
