#!/usr/bin/env node
import { main } from './main.js';
import { processIo } from './process-io.js';

// The one place the process's exit code is set.
process.exitCode = await main(process.argv.slice(2), processIo());
