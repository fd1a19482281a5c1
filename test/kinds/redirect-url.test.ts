/**
 * `redirect.to` takes only what a URL may hold unencoded, and no user info (issue 30, item 8):
 * each refusal at its value's file:line:column with the URL to write instead; what export writes
 * still validates (a panel's URL the manifest refuses is left out with a warning, and `export
 * --into` leaves the manifest's own value as written).
 */
import { describe, expect, it } from 'vitest';
import { exportManifest } from '../../src/api/export.js';
import { redirectUrlProblem } from '../../src/kinds/domain/url.js';
import { validateManifest } from '../../src/manifest/load.js';
import { live } from '../helpers/builders.js';
import { into, record } from '../export/settings-fixtures.js';

/** A manifest with one domain redirecting to `to` (a YAML single-quoted scalar, at line 5 column 42). */
function manifest(to: string): string {
  return (
    'version: 1\nclients:\n  - username: alice\n    domains:\n' +
    `      - {name: a.example, redirect: {to: '${to.replaceAll("'", "''")}'}}\n`
  );
}

/** The errors and warnings of `text`, as `line:column: severity: message`. */
function report(text: string): string[] {
  return validateManifest(text, 'm.yaml').diagnostics.map((d) => `${d.line}:${d.column}: ${d.severity}: ${d.message}`);
}

describe('redirect.to', () => {
  it.each([
    ['https://b.example/"x"', '%22x%22', '"'],
    ['https://b.example/<script>', '%3Cscript%3E', '<'],
    ['https://b.example/`id`', '%60id%60', '`'],
    ['https://b.example/a|b', 'a%7Cb', '|'],
    ['https://b.example/a;b', 'a%3Bb', ';'],
    ['https://b.example/%{HTTP_HOST}', '%25%7BHTTP_HOST%7D', '% not before two hex digits'],
    ['https://b.example/a\\b', 'a%5Cb', '\\'],
    ['https://b.example/ü', '%C3%BC', 'U+00FC'],
  ])('refuses %s at its value, with the URL encoded', (to, encoded, named) => {
    const [only, ...more] = report(manifest(to));
    expect(more).toEqual([]);
    expect(only).toMatch(/^5:42: error: "redirect\.to" of domain "a\.example" in client "alice" holds characters/);
    expect(only).toContain(named);
    expect(only).toContain(`write "https://b.example/${encoded}" instead`);
  });

  it('refuses user info, and offers the URL without it', () => {
    expect(report(manifest('https://bank.example@evil.example/login'))).toEqual([
      '5:42: error: "redirect.to" of domain "a.example" in client "alice" carries user info ' +
        '(a name or password before "@" in front of the host): write "https://evil.example/login" instead ' +
        '(the same URL, encoded)',
    ]);
    expect(redirectUrlProblem('https://user:secret@b.example/')?.instead).toBe('https://b.example/');
    // A backslash cannot smuggle a host: what follows the host stays a path.
    expect(redirectUrlProblem('https://b.example\\@evil.example/')?.instead).toBe(
      'https://b.example/%5C@evil.example/',
    );
  });

  it('takes what a URL may hold: escapes, queries, fragments, ports, IPv6, international hosts', () => {
    for (const to of [
      'https://b.example/',
      'https://b.example/a%20b?x=1&y=%7B#frag',
      "http://b.example:8080/(a)*b!c$d'e,f=g+h~i@j:k",
      'https://[2001:db8::1]:8443/x',
      'https://bücher.example/',
    ])
      expect(report(manifest(to)), to).toEqual([]);
  });

  it('export leaves a panel URL the manifest refuses out, with a warning offering it encoded', () => {
    const panel = live(
      [[1, 'alice', null, { email: null, suspended: false }]],
      [
        [1, 'a.example', 1, false, record({ redirect: ['https://b.example/%{REQUEST_URI}"', 302] })],
        [2, 'c.example', 1, false, record({ redirect: ['https://user:pw@b.example/', 301] })],
        [3, 'd.example', 1, false, record({ redirect: ['https://b.example/ok', 301] })],
      ],
    );
    const { text, warnings } = exportManifest(panel, () => true, []);
    expect(text).not.toContain('REQUEST_URI');
    expect(text).not.toContain('user:pw');
    expect(text).toContain('https://b.example/ok');
    expect(warnings.join('\n')).toContain('(encoded: "https://b.example/%25%7BREQUEST_URI%7D%22")');
    expect(warnings.join('\n')).toContain('(encoded: "https://b.example/")');
    expect(validateManifest(text, 'x.yaml').diagnostics).toEqual([]);
  });

  it('export --into leaves the manifest value as written when the panel holds one it refuses', () => {
    const panel = live(
      [[1, 'alice', null, { email: null, suspended: false }]],
      [[1, 'a.example', 1, false, record({ redirect: ['https://b.example/a|b', 301] })]],
    );
    const { text, warnings } = into(manifest('https://b.example/old'), panel, { drift: true });
    expect(text).toBe(manifest('https://b.example/old'));
    expect(warnings).toEqual([expect.stringContaining('"redirect" left as written')]);
  });
});
