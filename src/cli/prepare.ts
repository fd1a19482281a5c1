import {
  classifyInput,
  type OnEvent,
  DEFAULT_MAX_CREATES,
  DEFAULT_MAX_DELETES,
  type Input,
  type Limits,
  type ManifestDigest,
  planManifest,
  planSaved,
  type Prepared as PreparedPlan,
  type SavedPlan,
} from '../api/prepare.js';
import type { PanelClient } from '../panel/index.js';
import { checkClientPatterns, count, type Credentials, type Range, rangeText } from './args.js';
import { ProvisionError } from '../errors.js';
import { alreadyAppliedError, isAlreadyApplied } from './already-applied.js';
import { connect, type ConnectionValues } from './connection.js';
import { EXIT } from './exit.js';
import { readManifestFiles } from './manifest-files.js';
import { manifestDigest, type ManifestFiles } from '../manifest/parts.js';
import type { Desired } from '../manifest/types.js';
import type { Io } from './io.js';
import { loadWithDiagnostics, manifestSizeLimit, sourceName } from './manifest-input.js';
import { readHead, type SizeLimit } from './files.js';

/**
 * The CLI's side of the stage plan and apply share (api/prepare.ts does the work): the mass
 * flags, read the input once (a manifest or a saved plan, from a path, a pipe or stdin), load
 * it with its diagnostics printed, connect, and print what the stage tells on the way.
 */

/** The highest --max-creates and --max-deletes accepted. */
const MAX_MASS_LIMIT = 1_000_000;
/** --max-creates: at least 1 (0 would refuse every create: that is what plan is for). */
const MAX_CREATES: Range = { min: 1, max: MAX_MASS_LIMIT };
/** --max-deletes: from 0 (no delete without --allow-mass-delete). */
const MAX_DELETES: Range = { min: 0, max: MAX_MASS_LIMIT };

export const MASS_OPTIONS = {
  'max-creates': { type: 'string' },
  'allow-mass-create': { type: 'boolean', default: false },
  'max-deletes': { type: 'string' },
  'allow-mass-delete': { type: 'boolean', default: false },
} as const;

/** The range and default of --max-creates and of --max-deletes, as their help lines give them. */
const maxCreatesText = `${rangeText(MAX_CREATES)}, default ${DEFAULT_MAX_CREATES}`;
const maxDeletesText = `${rangeText(MAX_DELETES)}, default ${DEFAULT_MAX_DELETES}`;

export const MASS_HELP =
  `  --max-creates N        a plan creating more than N resources is a mass change (${maxCreatesText}):\n` +
  `                         plan warns, apply refuses (exit ${EXIT.massChange}) unless --allow-mass-create\n` +
  '  --allow-mass-create    allow a plan over --max-creates\n' +
  `  --max-deletes N        the same for deletes (${maxDeletesText}); a deleted client counts once\n` +
  '                         plus once per domain that goes with it (its mail, databases and files go too)\n' +
  '  --allow-mass-delete    allow a plan over --max-deletes';

/** `--clients`, for plan and apply: Terraform's -target, for clients. */
export const SCOPE_OPTIONS = { clients: { type: 'string', multiple: true } } as const;

export const SCOPE_HELP =
  '  --clients GLOB         only the clients whose username matches (repeatable; * any run of\n' +
  '                         characters, ? one), with their domains and zones; prune acts within them;\n' +
  '                         other clients and the hosting plans are left alone. For an urgent fix, as\n' +
  "                         Terraform's -target: the next plan without it shows what else is pending";

/** The scope of SCOPE_OPTIONS, checked; undefined without --clients. */
export function scopeOf(values: { clients?: string[] | undefined }): readonly string[] | undefined {
  return values.clients === undefined ? undefined : checkClientPatterns(values.clients);
}

/** The limits of MASS_OPTIONS, checked: plain digits in MAX_CREATES and MAX_DELETES. */
export function massLimits(values: {
  'max-creates'?: string | undefined;
  'allow-mass-create': boolean;
  'max-deletes'?: string | undefined;
  'allow-mass-delete': boolean;
}): Limits {
  return {
    maxCreates: count(values['max-creates'], '--max-creates', MAX_CREATES, DEFAULT_MAX_CREATES),
    allowMassCreate: values['allow-mass-create'],
    maxDeletes: count(values['max-deletes'], '--max-deletes', MAX_DELETES, DEFAULT_MAX_DELETES),
    allowMassDelete: values['allow-mass-delete'],
  };
}

/**
 * Reads `path` (`-`: stdin) once and tells a saved plan from a manifest (api/prepare.ts
 * classifyInput); a directory is a manifest's parts. `cap`: a manifest's size limit (none: show's plan).
 */
export async function readInput(path: string, io: Io, cap?: SizeLimit): Promise<Input> {
  // A saved plan (plan --out) is the tool's own output, larger than its manifest: the cap is a
  // manifest's. Told by its first key; on standard input it is held to the cap too.
  const head = cap === undefined ? undefined : await readHead(path, 64);
  const plan = head !== undefined && /^\s*\{\s*"format_version"/.test(new TextDecoder().decode(head));
  const files = await readManifestFiles(path, io, 'manifest or plan file', plan ? undefined : cap);
  const [only] = files.parts;
  return files.directory || only === undefined ? { kind: 'manifest', files } : classifyInput(only.bytes, path);
}

/** A plan ready to show or apply, and the open connection it was made over (the caller closes it). */
export interface Prepared extends PreparedPlan {
  readonly panel: PanelClient;
}

/** What preparing needs beside the input. */
interface PrepareOptions {
  readonly connection: ConnectionValues;
  /** Parallel connections to keep open (apply's --concurrency). */
  readonly connections?: number;
  /** Requests in flight at once (apply's --concurrency): the DNS zones are read at that pace too. */
  readonly concurrency?: number;
  readonly showUnmanaged: boolean;
  /** The secrets file, to name clients whose password an earlier killed run lost. */
  readonly secretsPath?: string | undefined;
  /** `--clients`: only the clients these patterns match. */
  readonly scope?: readonly string[] | undefined;
  /** `--max-manifest-mb`: the manifest a saved plan names, read to tell it already applied. */
  readonly cap?: SizeLimit | undefined;
}

/**
 * A manifest's files handed to planFromManifest, which takes them out (`files` undefined after):
 * their bytes are let go once read and hashed, before the panel is read (memory: a byte a byte).
 */
export interface ManifestHandle {
  files: ManifestFiles | undefined;
}

/** Manifest (its diagnostics printed), panel, diff. */
export async function planFromManifest(
  handle: ManifestHandle,
  io: Io,
  credentials: Credentials,
  options: PrepareOptions,
): Promise<Prepared> {
  const manifest = takeManifest(handle, io);
  return withPanel(io, credentials, options, (panel) =>
    planManifest(panel, manifest, {
      showUnmanaged: options.showUnmanaged,
      secretsPath: options.secretsPath,
      redactions: credentials.redactions,
      onEvent: journalPrinter(io),
      scope: options.scope,
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    }),
  );
}

/** The manifest in `handle` loaded (its diagnostics printed) and hashed; its files taken out. */
function takeManifest(handle: ManifestHandle, io: Io): { desired: Desired; name: string; files: ManifestDigest } {
  const { files } = handle;
  if (files === undefined) throw new Error('the manifest was taken already');
  handle.files = undefined;
  const desired = loadWithDiagnostics(files, io);
  return { desired, name: sourceName(files.name), files: manifestDigest(files) };
}

/** `--clients` with a saved plan: refused before anything is said or sent (a saved plan keeps its own scope). */
export function refuseScopedSavedPlan(scope: readonly string[] | undefined, file: string): void {
  if (scope !== undefined)
    throw new ProvisionError('usage', `--clients scopes a manifest's plan; ${file} is a saved plan: nothing was sent`, {
      hint:
        file === '-'
          ? 'a saved plan applies as it was made (its scope included): leave --clients out'
          : `a saved plan applies as it was made (its scope included): leave --clients out, or plan again: provision plan <manifest> --clients ... --out ${file}`,
    });
}

/** The panel re-read for a saved plan (api/prepare.ts planSaved: another panel's plan or a stale one is refused). */
export async function planFromSavedPlan(
  saved: SavedPlan,
  file: string,
  io: Io,
  credentials: Credentials,
  options: PrepareOptions,
): Promise<Prepared> {
  return withPanel(io, credentials, options, async (panel) => {
    try {
      return await planSaved(panel, saved, file, {
        secretsPath: options.secretsPath,
        redactions: credentials.redactions,
        onEvent: journalPrinter(io),
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      });
    } catch (error) {
      // A stale plan may be one the panel already holds: said so (./already-applied.ts).
      if (
        error instanceof ProvisionError &&
        error.code === 'stale_plan' &&
        (await isAlreadyApplied(panel, saved, io, credentials.redactions, options.cap ?? manifestSizeLimit({})))
      )
        throw alreadyAppliedError(file, error);
      throw error;
    }
  });
}

/** Connects, then prepares; the connection is closed when that fails and handed on when not. */
async function withPanel(
  io: Io,
  credentials: Credentials,
  options: PrepareOptions,
  prepare: (panel: PanelClient) => Promise<PreparedPlan>,
): Promise<Prepared> {
  const panel = await connect(options.connection, io, credentials, options.connections);
  try {
    return { ...(await prepare(panel)), panel };
  } catch (error) {
    await panel.close();
    throw error;
  }
}

/** Prints what settling the secrets file tells (a warning so marked), on stderr as it comes. */
export function journalPrinter(io: Io): OnEvent {
  return (event) => {
    if (event.type === 'warning') io.stderr.write(`warning: ${event.message}\n`);
    else if (event.type === 'note') io.stderr.write(`${event.message}\n`);
  };
}
