import { ProvisionError } from '../errors.js';
import {
  API_KEY_HINT,
  apiKeyFromEnv,
  checkApiKey,
  checkCaPem,
  DEFAULT_MAX_ANSWER_MB,
  MAX_ANSWER_MB,
  normalizeBaseUrl,
  PanelClient,
  withoutHttp2,
} from '../panel/index.js';
import { parseArgs } from 'node:util';
import { type Command, count, type Credentials, type Range, rangeText } from './args.js';
import { readSmallText, readText } from './files.js';
import type { Io } from './io.js';

/** --max-answer-mb. */
const MAX_ANSWER: Range = { min: 1, max: MAX_ANSWER_MB };

/** An API key file larger than this is refused unread (a key is a few dozen characters). */
const MAX_KEY_FILE_BYTES = 4096;

/** The connection flags shared by plan and apply. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'api-key-file': { type: 'string' },
  'allow-http': { type: 'boolean', default: false },
  'ca-file': { type: 'string' },
  insecure: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  'max-answer-mb': { type: 'string' },
} as const;

/** --max-answer-mb's range and default, as its help line gives them. */
const maxAnswerText = `${rangeText(MAX_ANSWER)}, default ${DEFAULT_MAX_ANSWER_MB}`;

export const CONNECTION_HELP = `Connection:
  --url URL              the panel (or PROVISION_URL); /api/v2 is appended when missing
  --api-key-file FILE    read the API key from FILE (default: PROVISION_API_KEY)
  --ca-file FILE         trust this PEM CA bundle (self-signed panels)
  --insecure             do not verify the panel's certificate (loud warning)
  --allow-http           allow plain http:// to a non-loopback host
  --verbose              log every request (method, path, status, time) to stderr
  --max-answer-mb N      read answers up to N MB (${maxAnswerText}): a larger one stops the run
  HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured.`;

export interface ConnectionValues {
  url?: string | undefined;
  'api-key-file'?: string | undefined;
  'allow-http'?: boolean | undefined;
  'ca-file'?: string | undefined;
  'max-answer-mb'?: string | undefined;
  insecure?: boolean | undefined;
  verbose?: boolean | undefined;
}

/**
 * The panel's URL and key come from flags and the environment only, never from the manifest:
 * a pull request that edits the manifest must not be able to send the key elsewhere.
 * The key joins the run's redaction set at once, so no output of the run can show it (a key
 * from --api-key-file is there already: main read it first, see preloadApiKey).
 * `connections`: parallel connections to keep open (apply passes its --concurrency).
 */
export async function connect(
  values: ConnectionValues,
  io: Io,
  credentials: Credentials,
  connections?: number,
): Promise<PanelClient> {
  const raw = values.url ?? io.env.PROVISION_URL;
  if (raw === undefined || raw === '') {
    throw new ProvisionError('usage', 'no panel URL', {
      hint: 'give --url https://panel.example or set PROVISION_URL',
    });
  }
  const baseUrl = normalizeBaseUrl(raw, { allowHttp: values['allow-http'] === true });
  const apiKey = credentials.apiKey ?? (await readApiKey(values['api-key-file'], io));
  credentials.redactions.add(apiKey);
  const caFile = values['ca-file'];
  const ca =
    caFile === undefined ? undefined : checkCaPem(await readText(caFile, io, 'CA file'), `the CA file ${caFile}`);
  if (values.insecure === true) {
    io.stderr.write(
      `warning: --insecure: the certificate of ${baseUrl} is NOT verified (through a proxy too); ` +
        'anyone on the path can read the API key. Use --ca-file instead.\n',
    );
  }
  const log = (line: string): void => {
    io.stderr.write(`${line}\n`);
  };
  ownUndici();
  const panel = new PanelClient({
    baseUrl,
    apiKey,
    ...(ca === undefined ? {} : { ca }),
    insecure: values.insecure === true,
    maxAnswerMb: count(values['max-answer-mb'], '--max-answer-mb', MAX_ANSWER, DEFAULT_MAX_ANSWER_MB),
    ...(connections === undefined ? {} : { connections }),
    proxyEnv: io.env,
    onEvent: (e) => {
      if (e.type === 'retry') log(e.message);
      else if (e.type === 'sent' && values.verbose === true)
        log(`${e.method} ${e.path} ${e.status === 0 ? 'no answer' : e.status} ${Math.round(e.ms)} ms`);
    },
  });
  // Said once: where the key travels. (Credentials in the proxy URL are never shown.)
  if (panel.proxy !== undefined)
    io.stderr.write(
      `${baseUrl}: through the proxy ${panel.proxy}, from the environment (NO_PROXY can exempt the panel)\n`,
    );
  return panel;
}

/**
 * The key of `--api-key-file FILE` in a command's `args`, read before anything else the
 * command reads, so that it is in the redaction set before any error could quote an argument
 * that is the key itself (`provision apply KEY --api-key-file k.txt`). undefined when the
 * command takes no such flag or it is not given (once); a file that cannot be read is an error
 * here, before any other input is opened.
 */
export async function preloadApiKey(command: Command, args: readonly string[], io: Io): Promise<string | undefined> {
  const options = command.options;
  if (options?.['api-key-file'] === undefined) return undefined;
  // Loose parsing, with the command's flags so that values split the same way: only this flag
  // is wanted here; the command's own strict parse reports whatever else is wrong.
  const { tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const given = tokens.flatMap((t) =>
    t.kind === 'option' && t.name === 'api-key-file' && typeof t.value === 'string' ? [t.value] : [],
  );
  // Given twice: the command refuses that before it reads anything.
  return given.length === 1 ? readApiKey(given[0], io) : undefined;
}

/**
 * The API key: from --api-key-file when given (an explicit flag wins over the environment),
 * else from PROVISION_API_KEY; trimmed. Errors name the source, never the key or the file's
 * content; one that says the file cannot be read does not repeat its path either: that may be
 * the key itself, pasted by mistake, and a path is not blanked as a credential (a key file
 * named `prod` would blank every "production" of the run's output).
 */
export async function readApiKey(file: string | undefined, io: Io): Promise<string> {
  if (file === undefined) return apiKeyFromEnv(io.env);
  let content: string;
  try {
    content = await readSmallText(file, io, 'API key file', MAX_KEY_FILE_BYTES, 'the API key file of --api-key-file');
  } catch (error) {
    if (error instanceof ProvisionError)
      throw new ProvisionError(error.code, error.message, {
        hint:
          'check the path given to --api-key-file (not repeated here, in case it is the key itself); ' + API_KEY_HINT,
        cause: error,
      });
    throw error;
  }
  return checkApiKey(content.trim(), `the API key file ${file}`);
}

/**
 * The CLI's choices for its own process, made before undici's first connection (the library
 * API leaves a host's process alone):
 * - Baseline (Liftoff) code only for WebAssembly: otherwise V8 optimises undici's HTTP parser
 *   on a background thread, and every run that sent a request waits about 160 ms for that at
 *   exit, with nothing of its own left to do. The parser's speed does not show at our request
 *   rates. node:v8 is loaded only by the commands that connect.
 * - No HTTP/2 client (panel/transport.ts withoutHttp2): about 12 ms of every such start.
 */
function ownUndici(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  withoutHttp2();
}
