#!/usr/bin/env node
import { once } from 'node:events';
import { main } from './main.js';

// The one place the process's exit code is set.
process.exitCode = await main(process.argv.slice(2), {
  stdout: { write: (text) => process.stdout.write(text), isTTY: process.stdout.isTTY },
  stderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY },
  env: process.env,
  untilStopped: () => Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]).then(() => undefined),
});
