import type { Desired } from '../manifest/types.js';
import { PanelClient, type PanelClientOptions } from '../panel/client.js';
import { checkApiKey } from '../panel/key.js';
import { readLive as readPanel } from '../panel/read.js';
import { checkCaPem } from '../panel/transport.js';
import type { Live } from '../panel/types.js';
import type { OnEvent } from '../plan/events.js';
import { readsForManifest } from '../plan/reads.js';
import { normalizeBaseUrl } from '../panel/url.js';

/** How to reach a panel. Nothing here is read from the environment: pass what you mean. */
export interface ConnectOptions {
  /** The panel's URL; `/api/v2` is appended when missing. Plain http:// only for loopback unless `allowHttp`. */
  readonly url: string;
  /** Sent as X-API-Key; never put in a message. */
  readonly apiKey: string;
  readonly allowHttp?: boolean;
  /** A PEM CA bundle to trust (a panel with a private CA). */
  readonly ca?: string;
  /** Do not verify the panel's certificate. */
  readonly insecure?: boolean;
  /** Parallel connections to keep open (default 8); executePlan's concurrency needs as many. */
  readonly connections?: number;
  /** Proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), e.g. `process.env`; default none: no proxy. */
  readonly proxyEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * Told the client's events (ProvisionEvent): `sent` after each request (method, path,
   * status, time), `retry` in one sentence before each retry's wait (never the key). One
   * handler serves connectPanel, readLive and executePlan alike.
   */
  readonly onEvent?: OnEvent;
  /** Told, in one sentence, before each retry's wait (never the key): the `retry` events. */
  readonly onWait?: (message: string) => void;
  /** Told after each request (method, path, status, time): the `sent` events. */
  readonly onRequest?: (event: { method: string; path: string; status: number; ms: number }) => void;
}

/**
 * A client of the panel's API v2, with the CLI's retries, time limits and checks; nothing is sent
 * until it is used. Close it (`await panel.close()`) when done. Throws ProvisionError `usage`
 * for a bad URL, key or CA bundle.
 */
export function connectPanel(options: ConnectOptions): PanelClient {
  const clientOptions: PanelClientOptions = {
    baseUrl: normalizeBaseUrl(options.url, { allowHttp: options.allowHttp === true }),
    apiKey: checkApiKey(options.apiKey, 'the apiKey option'),
    ...(options.ca === undefined ? {} : { ca: checkCaPem(options.ca, 'the ca option') }),
    insecure: options.insecure === true,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
    proxyEnv: options.proxyEnv ?? {},
    onEvent: (event) => {
      options.onEvent?.(event);
      if (event.type === 'retry') options.onWait?.(event.message);
      else if (event.type === 'sent') {
        const { method, path, status, ms } = event;
        options.onRequest?.({ method, path, status, ms });
      }
    },
  };
  return new PanelClient(clientOptions);
}

/** What readLive may tell beside its result. */
export interface ReadOptions {
  /**
   * Told a `note` (ProvisionEvent), in a sentence, when the read is partial (no domain list)
   * or costs more requests.
   */
  readonly onEvent?: OnEvent;
  /** Told, in a sentence, when the read is partial (no domain list) or costs more requests: the `note` events. */
  readonly onNote?: (message: string) => void;
  /**
   * `--clients`: read for the clients these username patterns match only (their details and
   * zones), as for diff's `scope`; the four lists are read whole either way.
   */
  readonly scope?: readonly string[] | undefined;
}

/**
 * Reads what the panel holds for `desired` (a loaded manifest's `desired`), as `provision plan`
 * does: GET /ping, /hosting-plans, /clients and /domains (plus GET /clients/{id} for the
 * manifest's clients only when the list leaves out a field the manifest manages, and domain
 * look-ups by name on a panel without GET /domains). Changes nothing on the panel.
 */
export async function readLive(panel: PanelClient, desired: Desired, options: ReadOptions = {}): Promise<Live> {
  return readPanel(panel, {
    ...readsForManifest(desired, options.scope),
    onEvent: (event) => {
      options.onEvent?.(event);
      if (event.type === 'note') options.onNote?.(event.message);
    },
  });
}
