/**
 * A domain item's settings in the manifest (docs/manifest.md, "Domain settings"): `php_version`,
 * `https: {lets_encrypt, force, hsts}` and `redirect` give DesiredDomain.settings by their
 * dotted names, with their defaults; bad values give located errors, odd ones located
 * warnings; the chunked read gives the whole read's answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHttpUrl, settingRow, type DomainSettings } from '../../src/kinds/domain.js';
import { parseManifest } from '../../src/manifest/index.js';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { at, domains, FILE, manifest, report } from '../helpers/domain-items.js';

const FULL = manifest(
  '- alice.example',
  '- name: shop.alice.example',
  '  php_version: "8.3"',
  '  https:',
  '    lets_encrypt: true',
  '    force: true',
  '    hsts: {max_age: 31536000, include_subdomains: true, preload: false}',
  '  redirect: {to: "https://alice.example/", status: 301}',
);

describe('domain settings, valid', () => {
  it('give DesiredDomain.settings by their dotted names; a name alone gives none', () => {
    expect(domains(FULL)).toEqual([
      { name: 'alice.example', input: 'alice.example', state: 'present', loc: at(5, 9) },
      {
        name: 'shop.alice.example',
        input: 'shop.alice.example',
        state: 'present',
        settings: {
          php_version: '8.3',
          'https.lets_encrypt': true,
          'https.force': true,
          'https.hsts': { max_age: 31536000, include_subdomains: true, preload: false },
          redirect: { to: 'https://alice.example/', status: 301 },
        },
        loc: at(6, 15),
      },
    ]);
    expect(parseManifest(FULL, FILE).diagnostics).toEqual([]);
  });

  it('each setting is managed only when given; hsts and redirect take their defaults', () => {
    const text = manifest(
      '- name: a.example',
      '  https: {hsts: {max_age: 31536000}}',
      '- name: b.example',
      '  redirect: {to: "http://c.example/x?y=1"}',
      '- name: c.example',
      '  https: {hsts: false, force: false}',
      '  redirect: false',
      '- name: d.example',
      '  php_version: default',
      '- {name: e.example, state: present}',
    );
    expect(domains(text)?.map((d) => d.settings)).toEqual([
      { 'https.hsts': { max_age: 31536000, include_subdomains: false, preload: false } },
      { redirect: { to: 'http://c.example/x?y=1', status: 301 } },
      { 'https.force': false, 'https.hsts': false, redirect: false },
      { php_version: 'default' },
      undefined,
    ]);
  });
});

describe('domain settings, the chunked read', () => {
  it('gives the whole read answer, settings and locations', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      [
        `  - username: u${i}`,
        '    domains:',
        `      - name: d${i}.example`,
        '        php_version: "8.3"',
        '        https:',
        '          force: true',
        '          hsts:',
        `            max_age: ${31536000 + i}`,
        `        redirect: {to: "https://x${i}.example/", status: 302}`,
      ].join('\n'),
    );
    const text = `version: 1\nclients:\n${many.join('\n')}\n`;
    const whole = parseManifestWhole(text, FILE);
    expect(whole.diagnostics).toEqual([]);
    expect(whole.desired?.clients[39]?.domains[0]?.settings).toEqual({
      php_version: '8.3',
      'https.force': true,
      'https.hsts': { max_age: 31536039, include_subdomains: false, preload: false },
      redirect: { to: 'https://x39.example/', status: 302 },
    });
    expect(parseManifestChunked(text, FILE, 200)).toEqual(whole);
    expect(validateManifest(text, FILE)).toEqual(whole);
    expect(report(text)).toEqual([]);
  });
});

/** The three reads of `text` agree (chunked.test.ts's rule), in batches of `batchChars`. */
function agree(text: string, batchChars: number): void {
  const whole = parseManifestWhole(text, FILE);
  expect(validateManifest(text, FILE)).toEqual(whole);
  const chunked = parseManifestChunked(text, FILE, batchChars);
  if (chunked !== undefined) expect(chunked).toEqual(whole);
  const keeping = parseManifestChunked(text, FILE, batchChars, true);
  expect(keeping).toEqual(whole);
}

const ERRORS = manifest(
  '- name: a.example',
  '  php_version: 8.10',
  '- name: b.example',
  '  php_version: "8"',
  '- {name: c.example, php_version: Default}',
  '- {name: d.example, php_version: [8]}',
  '- name: e.example',
  '  https: {lets_encrypt: yes, force: 1, hsts: true}',
  '- name: f.example',
  '  https: {hsts: {max_age: -1, include_subdomains: "true", preload: 1}}',
  '- name: g.example',
  '  https: {hsts: {max_agee: 3}, forse: true}',
  '- {name: h.example, https: {hsts: {}}}',
  '- {name: i.example, https: on}',
  '- {name: j.example, redirect: {to: example.com, status: 303}}',
  '- {name: k.example, redirect: true}',
  '- {name: l.example, redirect: {status: 302, too: "https://x.example/"}}',
  '- {name: m.example, redirect: {to: 3}}',
  '- name: n.example',
  '  state: absent',
  '  php_version: "8.3"',
  '  https: {force: true}',
  '- {name: o.example, https: {hsts: {max_age: 2.5}}}',
  '- {name: p.example, https: {hsts: {max_age: 100000000000000000000}}}',
  '- {name: q.example, redirect: {to: "ftp://q.example/"}}',
  '- {name: -bad.example, redirect: {to: "https://"}}',
  '- {name: r.example, https: {hsts: yes}, redirect: ~}',
);

const WARNINGS = manifest(
  '- {name: a.example, https: {}}',
  '- {name: b.example, https: {hsts: {max_age: 0}}}',
  '- {name: c.example, https: {hsts: {max_age: 299}}}',
  '- {name: d.example, https: {hsts: {max_age: 63072001}}}',
  '- {name: e.example, https: {hsts: {max_age: 86400, preload: true}}}',
  '- {name: f.example, https: {hsts: {max_age: 63072000, preload: true, include_subdomains: true}}}',
  '- {name: G.Example, redirect: {to: "https://g.example./x"}}',
  '- {name: bücher.example, redirect: {to: "http://BÜCHER.example", status: 302}}',
  '- {name: h.example, redirect: {to: "https://www.h.example"}}',
  '- {name: i.example, https: {hsts: {max_age: 300}}}',
);

describe('domain settings, refused', () => {
  it('each bad value is an error at its value, in words that say what to write', () => {
    expect(report(ERRORS)).toMatchInlineSnapshot(`
      [
        "m.yaml:6:22: error: "php_version" of domain "a.example" in client "alice" must be quoted, like php_version: "8.3": YAML reads an unquoted version as a number (8.10 as 8.1), not 8.1",
        "m.yaml:8:22: error: "php_version" of domain "b.example" in client "alice" must be a PHP version MAJOR.MINOR like "8.3", or "default", not "8"",
        "m.yaml:9:40: error: "php_version" of domain "c.example" in client "alice" must be a PHP version MAJOR.MINOR like "8.3", or "default", not "Default": did you mean "default"?",
        "m.yaml:10:40: error: "php_version" of domain "d.example" in client "alice" must be a string: a PHP version like "8.3", or "default"",
        "m.yaml:12:31: error: "https.lets_encrypt" of domain "e.example" in client "alice" must be true or false, not "yes"",
        "m.yaml:12:43: error: "https.force" of domain "e.example" in client "alice" must be true or false, not 1",
        "m.yaml:12:52: error: "https.hsts" of domain "e.example" in client "alice" must be false or a mapping: write hsts: {max_age: 31536000} (one year) to turn HSTS on",
        "m.yaml:14:33: error: "https.hsts.max_age" of domain "f.example" in client "alice" must be a whole number of seconds, 0 or more, like 31536000 (one year), not -1",
        "m.yaml:14:57: error: "https.hsts.include_subdomains" of domain "f.example" in client "alice" must be true or false, not "true"",
        "m.yaml:14:74: error: "https.hsts.preload" of domain "f.example" in client "alice" must be true or false, not 1",
        "m.yaml:16:24: error: unknown key "max_agee" in "https.hsts" of domain "g.example" in client "alice": did you mean "max_age"?",
        "m.yaml:16:38: error: unknown key "forse" in "https" of domain "g.example" in client "alice": did you mean "force"?",
        "m.yaml:17:41: error: "https.hsts" of domain "h.example" in client "alice" has no "max_age": add one, like hsts: {max_age: 31536000} (one year)",
        "m.yaml:18:34: error: "https" of domain "i.example" in client "alice" must be a mapping with "lets_encrypt", "force" or "hsts", not "on"",
        "m.yaml:19:42: error: "redirect.to" of domain "j.example" in client "alice" must be an absolute http or https URL with a host, like "https://example.com/", not "example.com"",
        "m.yaml:19:63: error: "redirect.status" of domain "j.example" in client "alice" must be 301 (moved permanently) or 302 (found: temporary), not 303",
        "m.yaml:20:37: error: "redirect" of domain "k.example" in client "alice" must be false, or a mapping like {to: "https://example.com/", status: 301}, not true",
        "m.yaml:21:51: error: unknown key "too" in "redirect" of domain "l.example" in client "alice": did you mean "to"?",
        "m.yaml:22:42: error: "redirect.to" of domain "m.example" in client "alice" must be a string: an absolute http(s) URL like "https://example.com/"",
        "m.yaml:25:9: error: domain "n.example" in client "alice" has state: absent and settings ("php_version" and "https"): a domain that is deleted has none; remove the settings, or the state",
        "m.yaml:27:51: error: "https.hsts.max_age" of domain "o.example" in client "alice" must be a whole number of seconds, 0 or more, like 31536000 (one year), not 2.5",
        "m.yaml:28:51: error: "https.hsts.max_age" of domain "p.example" in client "alice" is too large: at most 9007199254740991 (two years is 63072000)",
        "m.yaml:29:42: error: "redirect.to" of domain "q.example" in client "alice" must be an absolute http or https URL with a host, like "https://example.com/", not "ftp://q.example/"",
        "m.yaml:30:16: error: domain "-bad.example" in client "alice" has an invalid label "-bad": use 1-63 letters, digits or inner hyphens",
        "m.yaml:30:45: error: "redirect.to" of domain "-bad.example" in client "alice" must be an absolute http or https URL with a host, like "https://example.com/", not "https://"",
        "m.yaml:31:41: error: "https.hsts" of domain "r.example" in client "alice" must be false, or a mapping like {max_age: 31536000, include_subdomains: true}, not "yes"",
        "m.yaml:31:57: error: "redirect" of domain "r.example" in client "alice" must be false, or a mapping like {to: "https://example.com/", status: 301}",
      ]
    `);
    expect(parseManifest(ERRORS, FILE).desired).toBeUndefined();
  });

  it('odd but possible values are warnings at their values: the manifest stays valid', () => {
    expect(report(WARNINGS)).toMatchInlineSnapshot(`
      [
        "m.yaml:5:34: warning: "https" of domain "a.example" in client "alice" is empty: it manages nothing; give "lets_encrypt", "force" or "hsts", or remove it",
        "m.yaml:6:51: warning: "https.hsts.max_age" of domain "b.example" in client "alice" is 0: browsers drop the HTTPS-only rule at once; write hsts: false to turn HSTS off",
        "m.yaml:7:51: warning: "https.hsts.max_age" of domain "c.example" in client "alice" is 299 seconds: under 300 (5 minutes), browsers forget the HTTPS-only rule almost at once; one year is 31536000",
        "m.yaml:8:51: warning: "https.hsts.max_age" of domain "d.example" in client "alice" is 63072001 seconds: over two years (63072000, the longest hstspreload.org recommends); is it a typo?",
        "m.yaml:9:67: warning: "https.hsts.preload" of domain "e.example" in client "alice" is true with max_age under 31536000 (one year): preload lists refuse it; raise max_age, or set preload: false",
        "m.yaml:9:67: warning: "https.hsts.preload" of domain "e.example" in client "alice" is true without include_subdomains: preload lists refuse it; set include_subdomains: true, or preload: false",
        "m.yaml:11:42: warning: "redirect.to" of domain "G.Example" in client "alice" points at the domain itself ("https://g.example./x"): a redirect loop; point it at another host",
        "m.yaml:12:47: warning: "redirect.to" of domain "bücher.example" in client "alice" points at the domain itself ("http://BÜCHER.example"): a redirect loop; point it at another host",
      ]
    `);
    expect(domains(WARNINGS)?.map((d) => d.settings)).toMatchObject([
      undefined,
      { 'https.hsts': { max_age: 0 } },
      { 'https.hsts': { max_age: 299 } },
      { 'https.hsts': { max_age: 63072001 } },
      { 'https.hsts': { max_age: 86400, include_subdomains: false, preload: true } },
      { 'https.hsts': { max_age: 63072000, include_subdomains: true, preload: true } },
      { redirect: { to: 'https://g.example./x', status: 301 } },
      { redirect: { to: 'http://BÜCHER.example', status: 302 } },
      { redirect: { to: 'https://www.h.example', status: 301 } },
      { 'https.hsts': { max_age: 300 } },
    ]);
  });

  it('the chunked read, keeping diagnostics or not, says exactly what the whole read says', () => {
    for (const text of [ERRORS, WARNINGS, FULL]) for (const batchChars of [1, 64, 4096]) agree(text, batchChars);
  });
});

/** A setting's value as export writes it: YAML flow style, strings quoted. */
function yamlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${yamlValue(v)}`)
      .join(', ')}}`;
  return String(value);
}

describe('validation never refuses what a panel can hold', () => {
  const settings: fc.Arbitrary<DomainSettings> = fc.record(
    {
      php_version: fc.oneof(fc.stringMatching(/^[0-9]{1,3}\.[0-9]{1,3}$/), fc.constant('default')),
      'https.lets_encrypt': fc.boolean(),
      'https.force': fc.boolean(),
      'https.hsts': fc.oneof(
        fc.constant(false as const),
        fc.record({
          max_age: fc.oneof(fc.nat(), fc.maxSafeNat()),
          include_subdomains: fc.boolean(),
          preload: fc.boolean(),
        }),
      ),
      redirect: fc.oneof(
        fc.constant(false as const),
        fc.record({
          to: fc.webUrl({ withQueryParameters: true, withFragments: true }),
          status: fc.constantFrom(301, 302),
        }),
      ),
    },
    { requiredKeys: [] },
  );

  it('every value the rows can write (unwritable says nothing) loads as itself, without an error', () => {
    fc.assert(
      fc.property(settings, (given) => {
        const writable = Object.entries(given).every(
          ([key, value]) => settingRow(key as keyof DomainSettings).unwritable(value as never) === undefined,
        );
        fc.pre(writable && Object.keys(given).length > 0);
        const lines = ['- name: z.example'];
        const https: string[] = [];
        for (const [key, value] of Object.entries(given)) {
          if (key.startsWith('https.')) https.push(`${key.slice(6)}: ${yamlValue(value)}`);
          else lines.push(`  ${key}: ${yamlValue(value)}`);
        }
        if (https.length > 0) lines.push(`  https: {${https.join(', ')}}`);
        const result = parseManifest(manifest(...lines), FILE);
        expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(result.desired?.clients[0]?.domains[0]?.settings).toEqual(given);
      }),
      { numRuns: 300 },
    );
    expect(isHttpUrl('https://a.example/')).toBe(true);
  });
});
