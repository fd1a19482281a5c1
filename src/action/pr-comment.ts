#!/usr/bin/env node
// The `provision-pr-comment` bin: argv, env and the process's outputs in, the exit code out.
import { runPrComment } from './run.js';

process.exitCode = await runPrComment(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});
