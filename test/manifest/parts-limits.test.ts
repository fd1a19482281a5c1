/**
 * Manifest directories (src/manifest/parts.ts): how many problems are listed, for a part and for
 * the whole directory (at most 1,000, as for a file), how many errors are counted in all, and
 * that a part's own problems do not hide the ones across parts.
 */
import { describe, expect, it } from 'vitest';
import { type ManifestPart, parseManifestParts } from '../../src/manifest/parts.js';

const DIR = 'panels/fra1';
const part = (name: string, text: string): ManifestPart => ({
  file: `${DIR}/${name}`,
  bytes: new TextEncoder().encode(text),
});

describe('parseManifestParts, many problems', () => {
  it('counts every error when a part lists only the first of them', () => {
    const many = ['version: 1', 'clients:', ...Array.from({ length: 1200 }, (_, i) => `  - username: Bad${i}`)];
    const result = parseManifestParts(
      [part('a.yaml', `${many.join('\n')}\n`), part('b.yaml', 'version: 1\nclients:\n  - username: Bob\n')],
      DIR,
    );
    expect(result.errorCount).toBe(1201);
    // At most 1,000 for the whole directory: a.yaml's first 1,000, then one line for the rest
    // (a.yaml's 200 more and b.yaml's one).
    expect(result.diagnostics).toHaveLength(1001);
    expect(result.diagnostics.at(-1)?.message).toMatch(/^… and 201 more problems from here on, not shown/);
    expect(result.diagnostics.at(-1)).toMatchObject({ file: `${DIR}/a.yaml` });
  });

  it('lists at most 1,000 problems for the whole directory, however many parts hold some', () => {
    const bad = (n: number): string =>
      `${['version: 1', 'clients:', ...Array.from({ length: n }, (_, i) => `  - username: Bad${i}`)].join('\n')}\n`;
    const parts = Array.from({ length: 5 }, (_, i) => part(`p${i}.yaml`, bad(300)));
    const result = parseManifestParts(parts, DIR);
    expect(result.errorCount).toBe(1500);
    expect(result.diagnostics).toHaveLength(1001);
    expect(result.diagnostics.at(-1)).toMatchObject({
      file: `${DIR}/p3.yaml`,
      message: expect.stringMatching(
        /^… and 500 more problems from here on, not shown: fix the ones above first$/,
      ) as unknown,
    });
  });

  it('reports the problems across parts of a part that has problems of its own too: every problem at once', () => {
    const result = parseManifestParts(
      [
        part('b.yaml', 'version: 1\nprune: {clients: true}\nclients:\n  - username: bob\n    domains: [bob.example]\n'),
        part(
          'd.yaml',
          'version: 1\nprune: {domains: true}\nclients:\n  - username: dave\n    domains: [d.example, d.example, ＢＯＢ.example]\n',
        ),
      ],
      DIR,
    );
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      expect.stringMatching(/^panels\/fra1\/d\.yaml:2 "prune" is given again \(first at panels\/fra1\/b\.yaml:2\)/),
      expect.stringMatching(/^panels\/fra1\/d\.yaml:5 domain "d\.example" is listed twice in client "dave"/),
      expect.stringMatching(
        /^panels\/fra1\/d\.yaml:5 domain "ＢＯＢ\.example" \(same as "bob\.example"\) is already listed/,
      ),
    ]);
    expect(result.errorCount ?? result.diagnostics.length).toBe(3);
  });
});
