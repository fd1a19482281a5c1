import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * A raw HTTP server on loopback whose every answer `answer` writes (a panel that answers what a
 * test needs, where the simulator would not), closed when the test ends; its API base URL.
 */
export async function rawPanel(answer: (res: ServerResponse) => void | Promise<void>): Promise<string> {
  const server: Server = createServer((_req, res) => void answer(res));
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
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
}

/** A raw panel answering every request 200 with `json` and `headers`. */
export function jsonPanel(json: unknown, headers: Record<string, string> = {}): Promise<string> {
  return rawPanel((res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(json));
  });
}
