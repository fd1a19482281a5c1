#!/usr/bin/env node
// The `provision-pr-comment` bin: argv, env and the process's outputs in, the exit code out.
import { watchOutputs } from '../outputs.js';
import { runPrComment } from './run.js';

// A closed stdout or stderr ends the program quietly, never with a stack trace.
watchOutputs();

process.exitCode = await runPrComment(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});
