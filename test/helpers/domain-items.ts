/**
 * What the tests of a domain item's keys in the manifest share (test/manifest/dns.test.ts,
 * domain-settings.test.ts): a manifest of one client whose domain items are given as lines, its
 * diagnostics as the CLI prints them, and its domains when valid.
 */
import { expect } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import type { DesiredDomain } from '../../src/manifest/types.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

export const FILE = 'm.yaml';
export const at = (line: number, column: number) => ({ file: FILE, line, column });

/** A manifest of one client, alice, whose domains are the lines given (indented under `domains:`). */
export function manifest(...lines: string[]): string {
  return `version: 1\nclients:\n  - username: alice\n    domains:\n${lines.map((l) => `      ${l}\n`).join('')}`;
}

/** The formatted diagnostics, as the CLI prints them. */
export function report(text: string): string[] {
  return parseManifest(text, FILE).diagnostics.map(formatDiagnostic);
}

/** The domains of the first client, when the manifest is valid. */
export function domains(text: string): readonly DesiredDomain[] | undefined {
  const result = parseManifest(text, FILE);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.desired?.clients[0]?.domains;
}
