/**
 * The house rules that hold for every change, checked on the source itself: imports run one
 * way (a lower floor never imports a higher one, types included), and no hand-written file
 * is over 400 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * Floors, top first. A file may import its own folder and any lower floor; folders on one
 * floor may import each other only where ALLOWED says so. Files directly in src/ are the
 * ground floor (errors, names, util, redact, version).
 */
const FLOORS: readonly (readonly string[])[] = [['cli'], ['render', 'apply', 'export'], ['plan'], ['manifest', 'panel', 'secrets', 'simulator'], ['.']];
/** Same-floor imports that are allowed: render shows apply's outcomes. */
const ALLOWED: readonly string[] = ['render->apply'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function folderOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? '.' : (parts[0] ?? '.');
}

function floorOf(folder: string): number {
  const floor = FLOORS.findIndex((names) => names.includes(folder));
  if (floor < 0) throw new Error(`src/${folder} is on no floor: add it to FLOORS in test/architecture.test.ts`);
  return floor;
}

/** Every relative import and export-from of a file, `import type` included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]/g)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(match[1] ?? '');
  return found;
}

const files = filesUnder(SRC);

describe('the house rules', () => {
  test('imports run one way: no folder imports a higher floor, or a folder beside it unless allowed', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      for (const target of importsOf(file)) {
        const to = folderOf(resolve(dirname(file), target));
        if (to === from) continue;
        const [a, b] = [floorOf(from), floorOf(to)];
        if (b > a || (b === a && ALLOWED.includes(`${from}->${to}`))) continue;
        wrong.push(`${relative(SRC, file)} imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('no hand-written file in src/ is over 400 lines (generated code aside)', () => {
    const long = files
      .filter((file) => !file.includes('.generated.'))
      .map((file) => [relative(SRC, file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  test('the check sees imports of every form', () => {
    // A guard on the guard: if the pattern stopped matching, the rule above would pass vacuously.
    const cli = files.find((file) => file.endsWith('cli/main.ts')) ?? '';
    expect(importsOf(cli).some((target) => target.startsWith('./'))).toBe(true);
    expect(files.flatMap(importsOf).some((target) => target.includes('../'))).toBe(true);
  });
});
