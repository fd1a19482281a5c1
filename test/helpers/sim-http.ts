import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { onTestFinished } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { API_KEY } from './key.js';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly json: unknown;
}

/**
 * One real HTTP request to a simulator, path relative to its /api/v2 URL. Sends the test key
 * unless `key` says otherwise (null: no key header); `body` as JSON, `raw` as is.
 */
export async function call(
  sim: Simulator,
  method: string,
  path: string,
  options: {
    body?: unknown;
    raw?: string;
    key?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const key = options.key === undefined ? API_KEY : options.key;
  if (key !== null && !Object.keys(headers).some((name) => name.toLowerCase() === 'x-api-key'))
    headers['x-api-key'] = key;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await request(sim.url + path, {
    method: method as 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

/** A temporary directory, removed when the current test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sim-test-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Creates a client through the API and returns its id. */
export async function createClient(simulator: Simulator, body: Record<string, unknown>): Promise<number> {
  const answer = await call(simulator, 'POST', '/clients', { body });
  if (answer.status !== 201) throw new Error(`POST /clients answered ${answer.status}: ${answer.text}`);
  return (answer.json as { id: number }).id;
}
