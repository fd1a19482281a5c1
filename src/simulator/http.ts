/**
 * The simulator's HTTP plumbing: paths under /api/v2, request bodies (bounded), answers (with
 * a slow-body fault), and the constant-time key check. What a request does is routes.ts's job
 * and the kinds' modules' (kinds/).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer, Body } from './answer.js';

export const BASE_PATH = '/api/v2';
export const MAX_BODY_BYTES = 1024 * 1024;
export const API_DISABLED_PAGE =
  '<!DOCTYPE html><html><head><title>Panel</title></head><body><h1>API disabled</h1>' +
  '<p>The REST API is disabled in the panel settings.</p></body></html>';

/** The path after /api/v2 ('/' for the base itself); a path outside it stays whole. */
export function relativePath(path: string): string {
  if (path === BASE_PATH) return '/';
  return path.startsWith(`${BASE_PATH}/`) ? path.slice(BASE_PATH.length) : path;
}

export function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      resolve(size > MAX_BODY_BYTES ? 'too_large' : Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

export function parseBody(raw: Buffer): Body {
  if (raw.length === 0) return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}

/** Sends the answer; with `slowMs`, the body goes in up to 8 pieces `slowMs` apart. */
export function send(res: ServerResponse, answer: Answer, slowMs = 0): void {
  const headers: Record<string, string> = {};
  let payload = '';
  if (answer.text !== undefined) {
    headers['content-type'] = 'text/plain; charset=UTF-8';
    payload = answer.text;
  } else if (answer.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(answer.json);
  }
  Object.assign(headers, answer.headers);
  headers['content-length'] = Buffer.byteLength(payload).toString();
  res.writeHead(answer.status, headers);
  if (slowMs <= 0) {
    res.end(payload);
    return;
  }
  const bytes = Buffer.from(payload);
  const size = Math.max(1, Math.ceil(bytes.length / 8));
  res.flushHeaders();
  let offset = 0;
  const next = (): void => {
    if (res.destroyed) return;
    const piece = bytes.subarray(offset, offset + size);
    offset += size;
    if (offset >= bytes.length) res.end(piece);
    else {
      res.write(piece);
      setTimeout(next, slowMs).unref();
    }
  };
  setTimeout(next, slowMs).unref();
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Constant time: both sides are hashed to the same length before comparing. */
export function keyMatches(header: string | string[] | undefined, expected: Buffer): boolean {
  if (typeof header !== 'string') return false;
  return timingSafeEqual(sha256(header), expected);
}
