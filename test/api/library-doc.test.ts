/**
 * docs/library.md says it lists the library's whole surface: every name the package's entry
 * (src/api/index.ts) exports, values and types, is named there in code (`name`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The names of every `export { ... } from` and `export type { ... } from` of the entry. */
function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const block of source.matchAll(/^export (?:type )?\{([^}]*)\} from /gm))
    for (const item of (block[1] ?? '').split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1);
      if (name !== undefined && name !== '') names.push(name);
    }
  return names;
}

describe('docs/library.md', () => {
  it('names every export of the package entry', async () => {
    const entry = await readFile(join(ROOT, 'src', 'api', 'index.ts'), 'utf8');
    const names = exportedNames(entry);
    // The parse sees every value the module really exports (and the types beside them).
    const values = Object.keys(await import('../../src/api/index.js'));
    expect(values.length).toBeGreaterThan(10);
    for (const value of values) expect(names).toContain(value);

    const doc = await readFile(join(ROOT, 'docs', 'library.md'), 'utf8');
    const spans = [...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
    const missing = names.filter(
      (name) => !spans.some((span) => new RegExp(`(?:^|[^\\w$])${name.replace('$', '\\$')}(?:[^\\w$]|$)`).test(span)),
    );
    expect(missing, 'exported but not named in docs/library.md').toEqual([]);
  });
});
