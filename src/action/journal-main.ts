#!/usr/bin/env node
// The Action's journal script (action.yml runs it by path): argv, env and the process's outputs in, the exit code out.
import { watchOutputs } from '../outputs.js';
import { runJournal } from './journal.js';

// A closed stdout or stderr ends the program quietly, never with a stack trace.
watchOutputs();

process.exitCode = await runJournal(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});
