import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * `server` listening on a free loopback port, closed (its connections too) when the test ends;
 * the API base URL it serves (`https` for a TLS server).
 */
export async function onLoopback(server: Server | HttpsServer, scheme: 'http' | 'https' = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  );
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
}

/**
 * A raw HTTP server on loopback whose every answer `answer` writes (a panel that answers what a
 * test needs, where the simulator would not), closed when the test ends; its API base URL.
 */
export function rawPanel(answer: (res: ServerResponse) => void | Promise<void>): Promise<string> {
  return onLoopback(createServer((_req, res) => void answer(res)));
}

/** A raw panel answering every request 200 with `json` and `headers`. */
export function jsonPanel(json: unknown, headers: Record<string, string> = {}): Promise<string> {
  return rawPanel((res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(json));
  });
}
