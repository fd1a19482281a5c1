#!/usr/bin/env node
// Imports are dynamic: `--version` loads nothing else than the stream guard and the version.
const args = process.argv.slice(2);
// Memory, for the commands that read a manifest: the read keeps what it builds (the clients to
// plan) and makes garbage as it goes (a batch's syntax tree). V8's defaults let the young
// generation grow from 1 to 16 MB a semi-space and the old one run to several times what lives
// before a full collection: about 15 to 30 bytes of memory a byte of manifest read, where the
// goal is 10 (docs/reliability.md, "Sizes"; bench/manifest-memory.ts measures each path). Both
// flags are read when V8 decides to grow, so they take effect here. CPU time: block YAML and
// JSON read 10 to 17% faster; the shapes read through yaml batch by batch (quoted strings, a flow
// mapping per client) up to 30 to 50% slower (docs/benchmarks.md). Not set for the commands that
// read no manifest: export of a large panel ran 1.18x slower under them, for no memory goal.
if (
  ['validate', 'plan', 'apply'].includes(args[0] ?? '') ||
  (args[0] === 'export' && args.some((arg) => arg === '--into' || arg.startsWith('--into=')))
) {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=25');
}
// PROVISION_DEBUG=1: stack traces name src/*.ts positions, from the bundle's linked source maps
// (for a bug report). Off by default: reading the maps costs about 10 ms of every start.
// Set before anything else is imported: only modules loaded afterwards are mapped.
if ((process.env.PROVISION_DEBUG ?? '') !== '') process.setSourceMapsEnabled(true);
// Before the first byte is written: a closed stdout or stderr ends the process as Unix tools
// end, never with a stack trace (`provision plan big.yaml | head -1`, `provision --version | true`).
const { processIo, watchOutputs } = await import('./process-io.js');
watchOutputs();
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // What main() prints for it, without loading main() and what it imports.
  const { VERSION } = await import('../version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('./main.js');
  // The one place the process's exit code is set.
  process.exitCode = await main(args, processIo());
}
