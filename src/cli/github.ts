import { appendFile } from 'node:fs/promises';
import { errnoCode } from '../errors.js';
import { guardOutput } from '../escape.js';
import type { Redactions } from '../redact.js';
import type { Io } from './io.js';

/** Running under GitHub Actions: annotations and the step summary are understood. */
export function onGitHubActions(env: Io['env']): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * Appends Markdown to $GITHUB_STEP_SUMMARY under GitHub Actions; a failure there is a warning.
 * The page is shown to everyone who can see the run: it passes the run's redaction filter and
 * the control-character guard, as stdout does.
 */
export async function stepSummary(io: Io, redactions: Redactions, markdown: string): Promise<void> {
  const path = io.env.GITHUB_STEP_SUMMARY;
  if (!onGitHubActions(io.env) || path === undefined || path === '') return;
  try {
    await appendFile(path, `${guardOutput(redactions.redact(markdown))}\n`);
  } catch (error) {
    io.stderr.write(`warning: cannot append to $GITHUB_STEP_SUMMARY (${errnoCode(error)})\n`);
  }
}
