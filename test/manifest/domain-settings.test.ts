/**
 * A domain item's settings in the manifest (design.md, "Domain settings"): `php_version`,
 * `https: {lets_encrypt, force, hsts}` and `redirect` give DesiredDomain.settings by their
 * dotted names, with their defaults; bad values give located errors, odd ones located
 * warnings; the chunked read gives the whole read's answer.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import type { DesiredDomain } from '../../src/manifest/types.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const FILE = 'm.yaml';
const at = (line: number, column: number) => ({ file: FILE, line, column });

/** A manifest of one client, alice, whose domains are the lines given (indented under `domains:`). */
function manifest(...lines: string[]): string {
  return `version: 1\nclients:\n  - username: alice\n    domains:\n${lines.map((l) => `      ${l}\n`).join('')}`;
}

/** The formatted diagnostics, as the CLI prints them. */
function report(text: string): string[] {
  return parseManifest(text, FILE).diagnostics.map(formatDiagnostic);
}

/** The domains of the first client, when the manifest is valid. */
function domains(text: string): readonly DesiredDomain[] | undefined {
  const result = parseManifest(text, FILE);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.desired?.clients[0]?.domains;
}

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
