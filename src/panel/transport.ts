import { createRequire, Module } from 'node:module';
import type { Dispatcher } from 'undici';
import type * as Undici from 'undici';
import { ProvisionError } from '../errors.js';
import type { PanelTimeouts } from './client-options.js';
import { DEFAULT_CONNECTIONS } from './limits.js';
import type { ProxyChoice } from './proxy.js';

/**
 * undici's parts, each loaded when first used (so a command that sends nothing loads none),
 * and one by one rather than through its index: the index loads fetch, WebSocket, the caches
 * and the mocks too, and touches globalThis.Headers (which loads Node's own copy of undici):
 * about 110 ms of start-up against about 40 for the parts used here. Of the request API, only
 * `request` (every call) and `connect` (a ProxyAgent's tunnel) go on the dispatchers. undici
 * declares no "exports", so its files can be required; the version is pinned exact in
 * package.json, and every request of the test suite goes through these.
 */
const require = createRequire(import.meta.url);
let loaded: { Agent: typeof Undici.Agent; Pool: typeof Undici.Pool; ProxyAgent: typeof Undici.ProxyAgent } | undefined;
function undici(): NonNullable<typeof loaded> {
  if (loaded === undefined) {
    const { prototype } = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
    Object.assign(prototype, {
      request: require('undici/lib/api/api-request.js') as unknown,
      connect: require('undici/lib/api/api-connect.js') as unknown,
    });
    loaded = {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent,
      Pool: require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool,
      ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent,
    };
  }
  return loaded;
}

/**
 * For a process whose undici is its own (the CLI), before its first connection: undici's
 * HTTP/2 client is never loaded, and with it node:http2 (about 12 ms of every start that
 * connects). Nothing here asks for HTTP/2 (no `allowH2`), so TLS offers the panel only
 * http/1.1 and undici never calls that client; should it ever, the call fails as a connection
 * error. Not for the library API: a host process may share this undici and use HTTP/2.
 */
export function withoutHttp2(): void {
  if (loaded !== undefined) return;
  let path: string;
  try {
    path = require.resolve('undici/lib/dispatcher/client-h2.js');
  } catch {
    return; // another layout of undici: it loads as it is (a start-up cost, not a failure)
  }
  if (require.cache[path] !== undefined) return;
  const stub = new Module(path);
  stub.filename = path;
  stub.loaded = true;
  stub.exports = function connectH2(): never {
    throw new Error('HTTP/2 was not offered to this server');
  };
  require.cache[path] = stub;
}

/**
 * The connection pool the client sends through: TLS settings, per-attempt timeouts, the pool
 * size, and the proxy chosen for this panel (panel/proxy.ts), if any. Through a proxy, the
 * connection to the proxy has the connect timeout, and `requestTls` applies to the panel inside
 * the tunnel, so a private CA and --insecure apply to the panel in both cases.
 */
export function createDispatcher(options: {
  readonly ca?: string;
  readonly insecure: boolean;
  readonly connections?: number;
  readonly timeouts: PanelTimeouts;
  readonly proxy: ProxyChoice;
}): Dispatcher {
  const { timeouts, proxy } = options;
  const tls = {
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
  };
  const agentOptions = {
    connections: options.connections ?? DEFAULT_CONNECTIONS,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connect: { timeout: timeouts.connectMs, ...tls },
  };
  const { Agent, Pool, ProxyAgent } = undici();
  if (proxy.url === undefined) return new Agent(agentOptions);
  return new ProxyAgent({
    ...agentOptions,
    uri: proxy.url,
    proxyTls: { timeout: timeouts.connectMs },
    requestTls: { timeout: timeouts.connectMs, ...tls },
    // The proxy's answer to CONNECT is part of connecting: it gets the connect timeout, not
    // undici's default of 300 s for headers (a proxy that accepts and never answers).
    clientFactory: (origin, options) =>
      new Pool(origin, {
        ...options,
        headersTimeout: timeouts.connectMs,
        bodyTimeout: timeouts.connectMs,
      }),
  });
}

/** Refuses a CA bundle that holds no PEM certificate (`source` names it: 'the CA file ca.pem'). */
export function checkCaPem(pem: string, source: string): string {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ProvisionError('usage', `${source} holds no PEM certificate`, {
      hint:
        'expected "-----BEGIN CERTIFICATE-----" blocks; ' +
        'convert a DER file with: openssl x509 -inform der -in ca.der -out ca.pem',
    });
  }
  return pem;
}
