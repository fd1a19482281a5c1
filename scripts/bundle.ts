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
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

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
    packages: 'external',
    // Positions only: a stack trace needs no source text, and the tarball stays smaller.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await bundle();
