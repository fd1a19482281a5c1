#!/usr/bin/env node
// Imports are dynamic: `--version` loads nothing else than the stream guard and the version.
const args = process.argv.slice(2);
// Memory, for the commands that read a manifest (heap.ts says why and what it costs).
const flags = (await import('./heap.js')).heapFlags(args);
if (flags.length > 0) {
  const { setFlagsFromString } = await import('node:v8');
  for (const flag of flags) setFlagsFromString(flag);
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
