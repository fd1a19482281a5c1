/**
 * `prune.keep` patterns that can never match a name are refused at file:line:column, with the
 * form to write (issue 20 item 3): the domain or client such a pattern was meant to protect
 * would otherwise be deleted. A trailing dot, an empty label, a look-alike letter (Cyrillic
 * "і"), a dotted capital I ("İ", which lowercases to "i" and a combining dot), an invisible
 * character, any letter outside ASCII; and any ASCII character no username or domain name
 * holds (second review): an address, a path, a port, a space, a control character, brackets
 * (only * and ? are wildcards). A pattern with "@" is a mailbox address pattern, checked by the
 * mailbox section (a URL with "@" still by the names' check). Plain ASCII capitals stay allowed: they match
 * case-insensitively. Through the CLI: apply refuses such a manifest and deletes nothing;
 * an upper-case ASCII pattern protects its domain.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import { quote } from '../../src/escape.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';
import { run, workspace } from '../helpers/cli.js';

function report(patterns: readonly string[]): string[] {
  const text = `version: 1\nprune:\n  domains: true\n  keep:\n${patterns.map((p) => `    - ${JSON.stringify(p)}`).join('\n')}\nclients: []\n`;
  return parseManifest(text, 'm.yaml').diagnostics.map(formatDiagnostic);
}

const REFUSED = 'names are compared in their ASCII form, so it would keep nothing as written';

describe('keep patterns that can never match', () => {
  it.each([
    [
      'important.example.',
      'ends with a dot, which no name has (names are compared without it), so it would keep nothing: write "important.example"',
    ],
    [
      '\u0456mportant.example',
      `holds "\u0456" (U+0456), which looks like "i" but is another character; ${REFUSED}: write "important.example" for the name it looks like, or "xn--mportant-shh.example" for the international name (its ASCII form)`,
    ],
    [
      '\u0130MPORTANT.EXAMPLE',
      `holds "\u0130" (U+0130), which looks like "I" but is another character; ${REFUSED}: write "IMPORTANT.EXAMPLE" for the name it looks like, or "xn--important-5jf.example" for the international name (its ASCII form)`,
    ],
    [
      'p\u0430ypal-*',
      `holds "\u0430" (U+0430), which looks like "a" but is another character; ${REFUSED}: write "paypal-*" for the name it looks like`,
    ],
    [
      'a\u200bb.example',
      `holds an invisible character (U+200B); ${REFUSED}: write "ab.example" for the name it looks like`,
    ],
    [
      '\uff4cegacy-*',
      `holds "\uff4c" (U+FF4C), which looks like "l" but is another character; ${REFUSED}: write "legacy-*" for the name it looks like`,
    ],
    [
      '*.B\u00fccher.example',
      `holds "\u00fc" (U+00FC), a character outside ASCII; ${REFUSED}: write "*.xn--bcher-kva.example" for the international name (its ASCII form)`,
    ],
    [
      'stra\u00dfe.example.',
      `holds "\u00df" (U+00DF), which looks like "ss" but is another character; ${REFUSED}: write "strasse.example" for the name it looks like, or "xn--strae-oqa.example" for the international name (its ASCII form)`,
    ],
    [
      '.example',
      'has an empty label (a dot at the start or two in a row), which no name has, so it would keep nothing: write "*.example"',
    ],
    [
      'a..example',
      'has an empty label (a dot at the start or two in a row), which no name has, so it would keep nothing: write "a.example"',
    ],
  ])('%j is refused at its line, with the form to write', (pattern, problem) => {
    expect(report(['legacy-*', pattern])).toEqual([
      `m.yaml:6:7: error: pattern ${JSON.stringify(pattern).replace('\u200b', '\\u200b')} in "prune.keep" ${problem}`,
    ]);
  });

  const NONE = 'which no username or domain name has, so it would keep nothing';
  it.each([
    // The second review's patterns: each passed validate and kept nothing.
    ['https://important.example', `holds "https://" (an address, not a name), ${NONE}: write "important.example"`],
    ['important.example/', `holds "/" (a path), ${NONE}: write "important.example"`],
    ['important .example', `holds a space (U+0020), ${NONE}: write "important.example"`],
    ['important.example:443', `holds ":443" (a port), ${NONE}: write "important.example"`],
    ['imp\u0000ortant.example', `holds an invisible character (U+0000), ${NONE}: write "important.example"`],
    ['*.example\u007f', `holds an invisible character (U+007F), ${NONE}: write "*.example"`],
    [
      '[ab]*.example',
      `holds "[" (brackets match themselves: only * and ? are wildcards), ${NONE}: write "a*.example" and "b*.example" (one pattern each), or "?*.example"`,
    ],
    // More of the class.
    [
      '[a-z]*.example',
      `holds "[" (brackets match themselves: only * and ? are wildcards), ${NONE}: write "?*.example"`,
    ],
    [
      'http://bob:pw@important.example:8080/x',
      `holds "http://" (an address, not a name), ${NONE}: write "important.example" for the domain, or "bob" for the client`,
    ],
    ['a.example, b.example', `holds "," (U+002C), ${NONE}: write "a.example" and "b.example" (one pattern each)`],
    ['legacy-*!', `holds "!" (U+0021), ${NONE}: write "legacy-*"`],
    [
      'ftp://',
      `holds "ftp://" (an address, not a name), ${NONE}: write a username or domain name, with * or ? as wildcards (like "legacy-*")`,
    ],
  ])('%j is refused at its line, naming the character and the form to write', (pattern, problem) => {
    expect(report(['legacy-*', pattern])).toEqual([
      `m.yaml:6:7: error: pattern ${quote(pattern)} in "prune.keep" ${problem}`,
    ]);
  });

  it('a pattern with "@" is a mailbox address pattern: kept, or refused at its line by the mailbox check', () => {
    const { desired, diagnostics } = parseManifest(
      'version: 1\nprune:\n  keep: [user@important.example, "info@*"]\nclients: []\n',
      'm.yaml',
    );
    expect(diagnostics).toEqual([]);
    expect(desired?.prune.keep).toEqual(['user@important.example', 'info@*']);
    expect(report(['legacy-*', 'us er@important.example'])).toEqual([
      'm.yaml:6:7: error: pattern "us er@important.example" in "prune.keep" is not an address pattern: write a ' +
        'whole address in ASCII (its domain in punycode), with * or ? as wildcards (like "info@*" or "*@alice.example")',
    ]);
  });

  it('plain ASCII, in any case, with wildcards, is kept as written', () => {
    const text =
      'version: 1\nprune:\n  domains: true\n  keep: [IMPORTANT.EXAMPLE, "Legacy-?", "*.xn--bcher-kva.example", "*", old_user-2, _dmarc.example]\nclients: []\n';
    const { desired, diagnostics } = parseManifest(text, 'm.yaml');
    expect(diagnostics).toEqual([]);
    expect(desired?.prune.keep).toEqual([
      'IMPORTANT.EXAMPLE',
      'Legacy-?',
      '*.xn--bcher-kva.example',
      '*',
      'old_user-2',
      '_dmarc.example',
    ]);
  });
});

describe('through the CLI', () => {
  const SEED = {
    clients: [{ username: 'alice', domains: ['alice.example', 'important.example', 'old.example'] }],
  };
  const manifest = (keep: string): string =>
    `version: 1\nprune:\n  domains: true\n  keep: [${JSON.stringify(keep)}]\nclients:\n  - username: alice\n    domains: [alice.example]\n`;

  it.each(['important.example.', '\u0456mportant.example', '\u0130MPORTANT.EXAMPLE', 'https://important.example'])(
    'apply refuses keep %j at file:line and deletes nothing',
    async (keep) => {
      const w = await workspace(manifest(keep), { seed: SEED });
      const r = await run(['apply', w.file, '--auto-approve'], w.env);
      expect(w.sim.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${w.file}:4:10: error: pattern `);
      expect(r.stderr).toContain('in "prune.keep"');
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    },
  );

  it('an upper-case ASCII pattern protects its domain: only the other unlisted one is deleted', async () => {
    const w = await workspace(manifest('IMPORTANT.EXAMPLE'), { seed: SEED });
    const r = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(r.code).toBe(0);
    expect(w.sim.state.domainNamed('important.example')).toBeDefined();
    expect(w.sim.state.domainNamed('old.example')).toBeUndefined();
  });
});
