/**
 * The one error type the engine throws on purpose. `code` is stable (scripts and tests match
 * on it, never on the message); the CLI turns codes into exit codes in one place. Messages
 * are one line, say where (file:line:column, or method, path and status) and what to do,
 * and never carry the API key or a password. `meta` holds the same facts as data, for
 * `--format json` and the library's callers: it never says more than the message does.
 */
export class ProvisionError extends Error {
  override readonly name = 'ProvisionError';
  readonly code: ErrorCode;
  /** What the user can do about it, printed under the message. */
  readonly hint: string | undefined;
  /** Further lines, one problem each, when one error stands for several. */
  readonly details: readonly string[];
  /** Problems at places in a file (unknown hosting plans in the manifest), as data: the CLI renders them. */
  readonly located: readonly LocatedProblem[];
  /**
   * The command printed `located` already, as it found them (a manifest's diagnostics, its
   * warnings among them, in line order): the text form of the error does not repeat them; the
   * JSON form lists them.
   */
  readonly locatedShown: boolean;
  /**
   * The facts of the message as JSON-safe data, snake_case keys (`method`, `path`, `status`,
   * `file`, `errno`, `flag`): given, plus `errno` when the cause is a failed system call.
   * Names are data here, escaped by JSON alone; never a credential.
   */
  readonly meta: ErrorMeta;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      hint?: string;
      details?: readonly string[];
      located?: readonly LocatedProblem[];
      locatedShown?: boolean;
      meta?: ErrorMetaInit;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.details = options.details ?? [];
    this.located = options.located ?? [];
    this.locatedShown = options.locatedShown ?? false;
    this.meta = jsonSafe({ ...errnoMeta(options.cause), ...options.meta });
  }
}

/** An error's facts as data: what JSON holds as it is (no undefined, no NaN or Infinity). */
type ErrorMeta = Readonly<Record<string, string | number | boolean | null>>;

/** What a thrower gives as `meta`: undefined values are left out. */
type ErrorMetaInit = Readonly<Record<string, string | number | boolean | null | undefined>>;

function jsonSafe(init: ErrorMetaInit): ErrorMeta {
  const meta: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(init)) {
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) continue;
    meta[key] = value;
  }
  return meta;
}

/**
 * `{errno: 'ENOENT'}` when `cause` (or a cause of it) is a failed system call, else nothing.
 * The code only: the call's path may be a key pasted where a path belongs (cli/connection.ts).
 */
function errnoMeta(cause: unknown): { errno?: string } {
  const seen = new Set<unknown>();
  for (let e = cause; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const { code, syscall } = e as NodeJS.ErrnoException;
    if (typeof code === 'string' && typeof syscall === 'string' && /^E[A-Z0-9]+$/.test(code)) return { errno: code };
  }
  return {};
}

/**
 * A problem at a place in a file, as plain data (lines and columns from 1): the CLI prints it as
 * `file:line:column: error: message` and, under GitHub Actions, as an annotation on that line.
 */
export interface LocatedProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export type ErrorCode =
  /** Bad command line, missing URL or key. */
  | 'usage'
  /** A local file cannot be read or written (the errno says why). */
  | 'io'
  /** The manifest failed to load or validate; diagnostics carry the locations. */
  | 'manifest_invalid'
  /** The panel answered with an HTTP error status. */
  | 'panel_http'
  /** The panel could not be reached (DNS, connect, TLS, timeout). */
  | 'panel_unreachable'
  /** The panel answered something that breaks the API's contract (HTML, wrong shape). */
  | 'panel_contract'
  /** The manifest names a hosting plan the panel does not have. */
  | 'unknown_hosting_plan'
  /** The plan has conflicts (a manifest domain owned by another client); nothing is sent. */
  | 'plan_conflict'
  /** The GitHub API (the action's pull-request comment) failed or answered something unusable. */
  | 'github_api'
  /** The secrets file cannot be used. */
  | 'secrets'
  /** apply needs --auto-approve (or a confirmation) and got none. */
  | 'approval_required'
  /** A saved plan file is unreadable, malformed, edited, too new, or made for another panel. */
  | 'plan_file'
  /** A saved plan no longer matches the panel (what it creates or references changed); nothing is sent. */
  | 'stale_plan'
  /**
   * The plan creates more than --max-creates or deletes more than --max-deletes resources, without
   * --allow-mass-create / --allow-mass-delete; nothing is sent.
   */
  | 'mass_change';

/** The errno code of a failed file or socket call (`ENOENT`), or the error's text when it has none. */
export function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
