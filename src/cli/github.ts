import { appendFile } from 'node:fs/promises';
import { errnoCode } from '../errors.js';
import type { Io } from './io.js';

/** Running under GitHub Actions: annotations and the step summary are understood. */
export function onGitHubActions(env: Io['env']): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Appends Markdown to $GITHUB_STEP_SUMMARY under GitHub Actions; a failure there is a warning. */
export async function stepSummary(io: Io, markdown: string): Promise<void> {
  const path = io.env.GITHUB_STEP_SUMMARY;
  if (!onGitHubActions(io.env) || path === undefined || path === '') return;
  try {
    await appendFile(path, `${markdown}\n`);
  } catch (error) {
    io.stderr.write(`warning: cannot append to $GITHUB_STEP_SUMMARY (${errnoCode(error)})\n`);
  }
}
