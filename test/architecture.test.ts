/**
 * The house rules that hold for every change, checked on the source itself: imports run one
 * way (a lower floor never imports a higher one, types included), no two files import each
 * other even through others (types included), the CLI reaches the stages only through the
 * library (src/api), and no hand-written file is over 400 lines: in src/, and in test/, bench/ and
 * scripts/ beside it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const ROOT = resolve(SRC, '..');

/**
 * Floors, top first (cli, the library API in api/ and the CI action's script in action/ share
 * the top). A file may import its own folder and any lower floor; folders on one
 * floor may import each other only where ALLOWED says so. The rooms of the resource kinds
 * (src/kinds) stand just above the ground floor: every stage imports them, they import only
 * the ground floor. Files directly in src/ are the ground floor (errors, names, util, redact,
 * version).
 */
const FLOORS: readonly (readonly string[])[] = [
  ['cli', 'api', 'action'],
  ['render', 'apply', 'export'],
  ['plan'],
  ['manifest', 'panel', 'secrets', 'simulator'],
  ['kinds'],
  ['.'],
];
/** Same-floor imports that are allowed: the CLI is a layer over the library (cli -> api), nothing else. */
const ALLOWED: readonly string[] = ['cli->api'];
/**
 * The CLI is argv parsing, printing and exit codes over the library (src/api, the one
 * composition root): below api it reaches only what it prints with and what it reads for
 * itself. render (the text, JSON and Markdown it prints), manifest (validate, and a manifest's
 * diagnostics printed as they are read), panel (connecting: URL, key, CA, proxy from flags and
 * the environment), secrets (the lock, the sink and its rails, `secrets decrypt` and `keygen`),
 * simulator (the `simulator` command) and the ground floor. Never the stages the library
 * composes (plan, apply, export) nor the rooms of the kinds: those it gets through api.
 */
const CLI_REACHES: readonly string[] = ['cli', 'api', 'render', 'manifest', 'panel', 'secrets', 'simulator', '.'];
const MAX_LINES = 400;

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

/** A relative module specifier in quotes: '…', "…" or `…` without a substitution. */
const SPECIFIER = String.raw`(['"\`])(\.[^'"\`$]*)\1`;
/** Statements that name a module, each at the start of a line or after a `;` (multi-line clauses included): */
const IMPORT_FORMS: readonly RegExp[] = [
  // import x from, import { a, type B } from, import type { T } from, import * as n from,
  // export { a } from, export type { T } from, export * from, export * as n from
  new RegExp(String.raw`(?:^|[\n;])[ \t]*(?:import|export)\b[^'"\`;]*?\bfrom\s*${SPECIFIER}`, 'g'),
  // import './x.js' (a side-effect import)
  new RegExp(String.raw`(?:^|[\n;])[ \t]*import\s*${SPECIFIER}`, 'g'),
  // import('./x.js') anywhere: a dynamic import, or a type written as import('./x.js').T
  new RegExp(String.raw`\bimport\s*\(\s*${SPECIFIER}\s*\)`, 'g'),
];

/** Every relative module a source text names, in every form of IMPORT_FORMS. */
function importsIn(text: string): string[] {
  return IMPORT_FORMS.flatMap((form) => [...text.matchAll(form)].map((match) => match[2] ?? ''));
}

/** The imports of `file` (whose text is `text`) that break the floors, as `<file> imports <target>`. */
function wrongImports(file: string, text: string): string[] {
  const from = folderOf(file);
  return importsIn(text).flatMap((target) => {
    const to = folderOf(resolve(dirname(file), target));
    if (from === 'cli' && !CLI_REACHES.includes(to)) return [`${relative(SRC, file)} imports ${target}`];
    if (to === from) return [];
    const [a, b] = [floorOf(from), floorOf(to)];
    if (b > a || (b === a && ALLOWED.includes(`${from}->${to}`))) return [];
    return [`${relative(SRC, file)} imports ${target}`];
  });
}

/**
 * Import circles among `files` (path and text), each as the paths around it back to where it
 * starts: `a.ts -> b.ts -> a.ts`. A depth-first walk reports the circle each import that closes
 * one makes with the walk's path, so none is reported exactly when there is none. Every form
 * of IMPORT_FORMS counts, a type-only import too: in a circle of types neither file can be read
 * without the other, and the shared type belongs in a file below both. Paths are relative to SRC.
 */
function importCircles(files: readonly { file: string; text: string }[]): string[] {
  const known = new Set(files.map(({ file }) => file));
  const edges = new Map(
    files.map(({ file, text }) => [
      file,
      [...new Set(importsIn(text).map((target) => resolve(dirname(file), target).replace(/\.js$/, '.ts')))].filter(
        (target) => known.has(target),
      ),
    ]),
  );
  // Depth first: a file met again while it is still on the path closes a circle.
  const circles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      circles.push([...path.slice(at), file].map((f) => relative(SRC, f)).join(' -> '));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const target of edges.get(file) ?? []) visit(target);
    path.pop();
    done.add(file);
  };
  for (const { file } of files) visit(file);
  return circles;
}

/** Generated code: named `*.generated.*` and saying so in its first lines. */
function isGenerated(file: string, text: string): boolean {
  return (
    file.includes('.generated.') && /^\/\/ Generated by .*do not edit/m.test(text.split('\n').slice(0, 5).join('\n'))
  );
}

/**
 * The length of a hand-written file over MAX_LINES, as `<file>: <n> lines` with the path relative
 * to `from` (src/ unless given); none for generated code.
 */
function tooLong(file: string, text: string, from = SRC): string[] {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return lines > MAX_LINES && !isGenerated(file, text) ? [`${relative(from, file)}: ${lines} lines`] : [];
}

const sources = filesUnder(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
/** The TypeScript beside src/ that the line rule covers too: the tests, the benchmarks and the scripts. */
const BESIDE: readonly string[] = ['test', 'bench', 'scripts'];
const beside = BESIDE.flatMap((dir) => filesUnder(join(ROOT, dir))).map((file) => ({
  file,
  text: readFileSync(file, 'utf8'),
}));

describe('the house rules', () => {
  test('imports run one way: no folder imports a higher floor, or a folder beside it unless allowed', () => {
    expect(sources.flatMap(({ file, text }) => wrongImports(file, text))).toEqual([]);
  });

  test('no import circle among the files of src/, type-only imports included', () => {
    expect(importCircles(sources)).toEqual([]);
  });

  test(`no hand-written file in src/ is over ${MAX_LINES} lines (generated code aside)`, () => {
    expect(sources.flatMap(({ file, text }) => tooLong(file, text))).toEqual([]);
  });

  test(`no hand-written file in ${BESIDE.join('/, ')}/ is over ${MAX_LINES} lines (generated code aside)`, () => {
    // Each folder is read (this file among them), so the rule cannot pass on an empty list.
    const read = beside.map(({ file }) => relative(ROOT, file));
    expect(read).toEqual(expect.arrayContaining(['test/architecture.test.ts', 'bench/run.ts', 'scripts/bundle.ts']));
    expect(beside.flatMap(({ file, text }) => tooLong(file, text, ROOT))).toEqual([]);
  });

  // The order of the floors, held by what it must refuse and allow (not by a copy of FLOORS):
  // a floor moved or merged by mistake lets one of these through or refuses one.
  test.each([
    ['plan', 'render'],
    ['plan', 'apply'],
    ['plan', 'cli'],
    ['manifest', 'plan'],
    ['panel', 'plan'],
    ['secrets', 'apply'],
    ['simulator', 'plan'],
    ['render', 'cli'],
    ['apply', 'api'],
    ['export', 'cli'],
    ['apply', 'render'],
    ['render', 'apply'],
    ['.', 'panel'],
    ['.', 'manifest'],
    ['kinds', 'panel'],
    ['kinds', 'manifest'],
    ['kinds', 'plan'],
    ['kinds', 'render'],
    ['kinds', 'simulator'],
    ['.', 'kinds'],
    // The CLI reaches the stages only through the library (api).
    ['cli', 'plan'],
    ['cli', 'apply'],
    ['cli', 'export'],
    ['cli', 'kinds'],
    ['api', 'cli'],
  ])('src/%s may not import src/%s', (from, to) => {
    const file = join(SRC, from, 'planted.ts');
    const target = from === '.' ? `./${to}/x.js` : `../${to}/x.js`;
    expect(wrongImports(file, `import { x } from '${target}';`)).toHaveLength(1);
  });

  test.each([
    ['cli', 'api'],
    ['cli', 'render'],
    ['cli', 'manifest'],
    ['cli', 'panel'],
    ['cli', 'secrets'],
    ['cli', 'simulator'],
    ['cli', '.'],
    ['api', 'apply'],
    ['api', 'plan'],
    ['api', 'export'],
    ['api', 'kinds'],
    ['apply', 'plan'],
    ['plan', 'manifest'],
    ['plan', 'panel'],
    ['export', 'plan'],
    ['panel', '.'],
    ['kinds', '.'],
    ['panel', 'kinds'],
    ['manifest', 'kinds'],
    ['simulator', 'kinds'],
    ['plan', 'kinds'],
    ['render', 'kinds'],
    ['export', 'kinds'],
  ])('src/%s may import src/%s', (from, to) => {
    const file = join(SRC, from, 'planted.ts');
    const target = to === '.' ? '../util.js' : `../${to}/x.js`;
    expect(wrongImports(file, `import { x } from '${target}';`)).toEqual([]);
  });
});

// A guard on the guard: each form of import planted in a file must be caught, or the rules above
// would pass vacuously for it.
describe('the checks catch what they name', () => {
  const planted = join(SRC, 'manifest', 'planted.ts');
  test.each([
    ['import { x } from', "import { main } from '../cli/main.js';"],
    ['a default import', "import main from '../cli/main.js';"],
    ['a namespace import', "import * as cli from '../cli/main.js';"],
    ['import type', "import type { Io } from '../cli/io.js';"],
    ['an inline type import', "import { type Io } from '../cli/io.js';"],
    ['a multi-line import', "import {\n  main,\n  type Io,\n} from '../cli/main.js';"],
    ['a side-effect import', "import '../panel/url.js';"],
    ['a side-effect import in double quotes', 'import "../panel/url.js";'],
    ['export { } from', "export { main } from '../cli/main.js';"],
    ['export type { } from', "export type { Io } from '../cli/io.js';"],
    ['export * from', "export * from '../plan/saved.js';"],
    ['export * as from', "export * as saved from '../plan/saved.js';"],
    ['a dynamic import', "const cli = await import('../cli/main.js');"],
    ['a dynamic import of a template literal', 'const cli = await import(`../cli/main.js`);'],
    ['an import() type', "let io: import('../cli/io.js').Io;"],
    ['a second statement on a line', "import { a } from './a.js'; import '../panel/url.js';"],
  ])('%s in src/manifest is reported', (_form, line) => {
    const target = /(\.\.\/[^'"`]+)/.exec(line)?.[1];
    for (const text of [line, `/** A file. */\nconst before = 1;\n${line}\nexport const after = before;\n`]) {
      expect(wrongImports(planted, text)).toEqual([`manifest/planted.ts imports ${target ?? ''}`]);
    }
  });

  // The CLI's rule is textual too: a type or a module loaded late is an import all the same.
  test.each([
    ['import type', "import type { Plan } from '../plan/types.js';"],
    ['an inline type import', "import { type Outcome } from '../plan/outcome.js';"],
    ['a dynamic import', "const { recoverJournal } = await import('../apply/recover.js');"],
    ['an import() type', "let model: import('../export/model.js').LiveModel;"],
    ['export type { } from', "export type { Plan } from '../plan/types.js';"],
  ])('%s of a stage in src/cli is reported', (_form, line) => {
    const target = /(\.\.\/[^'"`]+)/.exec(line)?.[1];
    expect(wrongImports(join(SRC, 'cli', 'planted.ts'), line)).toEqual([`cli/planted.ts imports ${target ?? ''}`]);
  });

  test('imports that keep the rules are not reported', () => {
    const text = [
      "import { ProvisionError } from '../errors.js';",
      "import type { Schema } from './schema.js';",
      "import './lookalike.js';",
      "export * from './types.js';",
      "const load = () => import('./load.js');",
      "import { parse } from 'yaml';",
    ].join('\n');
    expect(importsIn(text)).toHaveLength(5);
    expect(wrongImports(planted, text)).toEqual([]);
  });

  // A chain a -> b (-> c) in src/manifest, closed (or not) by the last file's import of a.
  const chain = (names: readonly string[], closing: string): { file: string; text: string }[] =>
    names.map((name, i) => ({
      file: join(SRC, 'manifest', `${name}.ts`),
      text: i + 1 < names.length ? `import { x } from './${names[i + 1] ?? ''}.js';\n` : closing,
    }));
  test.each([
    ['two files, closed by a type-only import', ['a', 'b'], "import type { A } from './a.js';"],
    ['two files, closed by an inline type import', ['a', 'b'], "import { type A } from './a.js';"],
    ['three files, closed by an import() type', ['a', 'b', 'c'], "let a: import('./a.js').A;"],
    ['three files, closed by a re-export', ['a', 'b', 'c'], "export type { A } from './a.js';"],
  ])('an import circle of %s is reported', (_form, names, closing) => {
    const around = [...names, 'a'].map((name) => `manifest/${name}.ts`).join(' -> ');
    expect(importCircles(chain(names, closing))).toEqual([around]);
    expect(importCircles(chain(names, "import { x } from './elsewhere.js';"))).toEqual([]);
  });

  test('an import planted between two real files of src/ that import one way is reported', () => {
    // panel/transport.ts imports errors.ts; errors.ts importing it back closes a circle.
    const transport = sources.find(({ file }) => relative(SRC, file) === 'panel/transport.ts');
    expect(importsIn(transport?.text ?? '')).toContain('../errors.js');
    const planted = sources.map(({ file, text }) =>
      relative(SRC, file) === 'errors.ts'
        ? { file, text: `${text}\nimport type { X } from './panel/transport.js';\n` }
        : { file, text },
    );
    const circles = importCircles(planted);
    expect(circles.length).toBeGreaterThan(0);
    // The tree had none: each circle found runs through the planted import.
    for (const circle of circles) expect(circle).toContain('errors.ts -> panel/transport.ts');
  });

  test(`a hand-written file of ${MAX_LINES + 1} lines is reported, one of ${MAX_LINES} or a generated one is not`, () => {
    const lines = (n: number, first = '// hand-written'): string =>
      `${[first, ...Array.from({ length: n - 1 }, (_, i) => `const a${i} = ${i};`)].join('\n')}\n`;
    expect(tooLong(planted, lines(MAX_LINES + 1))).toEqual([`manifest/planted.ts: ${MAX_LINES + 1} lines`]);
    expect(tooLong(planted, lines(MAX_LINES))).toEqual([]);
    const generated = join(SRC, 'manifest', 'planted.generated.ts');
    expect(tooLong(generated, lines(MAX_LINES + 1, '// Generated by scripts/x.ts: do not edit.'))).toEqual([]);
    // The name alone does not make a file generated.
    expect(tooLong(generated, lines(MAX_LINES + 1))).toHaveLength(1);
  });

  test('a long file beside src/ is reported by its path from the root', () => {
    const long = `${Array.from({ length: MAX_LINES + 1 }, (_, i) => `const a${i} = ${i};`).join('\n')}\n`;
    expect(tooLong(join(ROOT, 'test', 'cli', 'planted.test.ts'), long, ROOT)).toEqual([
      `test/cli/planted.test.ts: ${MAX_LINES + 1} lines`,
    ]);
  });
});
