import { ProvisionError } from '../errors.js';
import { normalizeBaseUrl, PanelClient, readApiKey } from '../panel/index.js';
import type { Redactions } from '../redact.js';
import type { Io } from './io.js';

/** The connection flags shared by plan and apply. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'api-key-file': { type: 'string' },
  'allow-http': { type: 'boolean', default: false },
  'ca-file': { type: 'string' },
  insecure: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
} as const;

export const CONNECTION_HELP = `Connection:
  --url URL              the panel (or PROVISION_URL); /api/v2 is appended when missing
  --api-key-file FILE    read the API key from FILE (default: PROVISION_API_KEY)
  --ca-file FILE         trust this PEM CA bundle (self-signed panels)
  --insecure             do not verify the panel's certificate (loud warning)
  --allow-http           allow plain http:// to a non-loopback host
  --verbose              log every request (method, path, status, time) to stderr
  HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured.`;

export interface ConnectionValues {
  url?: string | undefined;
  'api-key-file'?: string | undefined;
  'allow-http'?: boolean | undefined;
  'ca-file'?: string | undefined;
  insecure?: boolean | undefined;
  verbose?: boolean | undefined;
}

/**
 * The panel's URL and key come from flags and the environment only, never from the manifest:
 * a pull request that edits the manifest must not be able to send the key elsewhere.
 * The key joins the run's redaction set at once, so no output of the run can show it.
 * `connections`: parallel connections to keep open (apply passes its --concurrency).
 */
export async function connect(values: ConnectionValues, io: Io, redactions: Redactions, connections?: number): Promise<PanelClient> {
  const raw = values.url ?? io.env.PROVISION_URL;
  if (raw === undefined || raw === '') {
    throw new ProvisionError('usage', 'no panel URL', { hint: 'give --url https://panel.example or set PROVISION_URL' });
  }
  const baseUrl = normalizeBaseUrl(raw, { allowHttp: values['allow-http'] === true });
  const apiKey = await readApiKey(io.env, values['api-key-file']);
  redactions.add(apiKey);
  if (values.insecure === true) {
    io.stderr.write(
      `warning: --insecure: the certificate of ${baseUrl} is NOT verified (through a proxy too); anyone on the path can read the API key. Use --ca-file instead.\n`,
    );
  }
  const log = (line: string): void => {
    io.stderr.write(`${line}\n`);
  };
  return new PanelClient({
    baseUrl,
    apiKey,
    ...(values['ca-file'] === undefined ? {} : { caFile: values['ca-file'] }),
    insecure: values.insecure === true,
    ...(connections === undefined ? {} : { connections }),
    proxyEnv: io.env,
    onWait: log,
    ...(values.verbose === true
      ? {
          onRequest: (e) => {
            log(`${e.method} ${e.path} ${e.status === 0 ? 'no answer' : e.status} ${Math.round(e.ms)} ms`);
          },
        }
      : {}),
  });
}
