/**
 * Bundles the `provision` CLI into bundle/ (what package.json's bin runs): one entry file,
 * bundle/bin.js, and a chunk per piece main() imports lazily (a chunk per command and what only
 * it needs), each with a linked source map, so a stack trace with source maps enabled
 * (PROVISION_DEBUG=1 or node --enable-source-maps) names src/*.ts positions. Measured against
 * the unbundled dist/: the ES module loader over dist/'s many files cost more at start-up than
 * these few files (docs/benchmarks.md).
 *
 * Every output file sits directly in bundle/: src/version.ts reads `../package.json` from
 * wherever its code lands, which is the package root from bundle/ as from dist/ and src/.
 * Packages stay external (resolved from node_modules as installed, as dist/ does), so nothing
 * CommonJS is bundled into ES modules and no `require` shim is needed (src/panel/transport.ts
 * makes its own with createRequire). The library API (exports) stays on dist/, with its types;
 * so does provision-pr-comment, run once per CI job.
 *
 * `node --import tsx scripts/bundle.ts`, run by `npm run build` after tsc; test/global-setup.ts
 * calls bundle() before the tests.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The runtime dependencies resolved from node_modules as installed: all but yaml. */
const EXTERNAL = Object.keys(
  (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies,
)
  .filter((name) => name !== 'yaml')
  .flatMap((name) => [name, `${name}/*`]);

/**
 * `yaml` resolved to the package's own ES module build (its exports' "default" condition, the
 * same code as its CommonJS "node" build but for one thing: warnings go to console.warn rather
 * than process.emitWarning). Bundled as CommonJS it would need a `require` shim for `process`.
 */
const YAML_AS_ESM: Plugin = {
  name: 'yaml-as-esm',
  setup(on) {
    on.onResolve({ filter: /^yaml$/ }, () => ({
      path: join(ROOT, 'node_modules', 'yaml', 'browser', 'index.js'),
    }));
  },
};

/** Where the bin and its chunks go, under the package root (package.json's bin: bundle/bin.js). */
const BUNDLE_DIR = 'bundle';

/**
 * Writes bundle/. `clean`: empties it first (`npm run build`, so prepack's build ships no old
 * chunk: their names carry a hash). The tests' global setup leaves old chunks in place: in a
 * shared tree, another run's process may be loading them.
 */
export async function bundle(root: string = ROOT, options: { clean: boolean } = { clean: true }): Promise<void> {
  if (options.clean) rmSync(join(root, BUNDLE_DIR), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { bin: 'src/cli/bin.ts' },
    outdir: BUNDLE_DIR,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // yaml is bundled in, as its ES module build (every command that reads a manifest loads it:
    // as 74 CommonJS files from node_modules it cost more at start than the rest of validate);
    // the other packages stay external.
    external: EXTERNAL,
    plugins: [YAML_AS_ESM],
    // Whitespace only (names and syntax kept): 0.78 of the bytes to read, decode and parse at
    // every start, validate 0.97 of the unminified bundle's time (docs/benchmarks.md). The
    // source maps still map every position to src/*.ts.
    minifyWhitespace: true,
    // Positions only: a stack trace needs no source text, and the tarball stays smaller.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await bundle();
