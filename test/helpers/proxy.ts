import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface TestProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** What went through, in order: `CONNECT host:port`, or `GET http://...` for absolute-form requests. */
  readonly used: string[];
  readonly close: () => Promise<void>;
}

/** The panel's host name in proxy tests: not loopback (a loopback panel is never proxied), and only the test proxy can reach it. */
export const PROXIED_HOST = 'panel.test';

/** Where the test proxy sends a host: every `*.test` name is this machine. */
const route = (host: string): string => (host.endsWith('.test') ? '127.0.0.1' : host);

/** `url` (a simulator's, on loopback) with PROXIED_HOST as its host. */
export function proxiedUrl(url: string): string {
  const u = new URL(url);
  u.hostname = PROXIED_HOST;
  return u.href.replace(/\/$/, '');
}

/**
 * A forward proxy on loopback, as HTTPS_PROXY / HTTP_PROXY point at: CONNECT tunnels and
 * absolute-form requests, each recorded; `*.test` hosts reach this machine.
 */
export async function startTestProxy(): Promise<TestProxy> {
  const used: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    used.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: route(target.hostname),
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    used.push(`CONNECT ${req.url ?? ''}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), route(host ?? ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    used,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
