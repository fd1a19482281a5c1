import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ProvisionError } from '../errors.js';
import { quote, safeText } from '../escape.js';
import { closest } from '../names.js';
import { plural } from '../util.js';
import type { Redactions } from '../redact.js';
import type { ExitCode } from './exit.js';
import type { Io } from './io.js';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A command: its help and what it does with its arguments; it returns the exit code. */
export interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly help: string;
  /** The flags it accepts (parseArgs config), for checks such as the examples' tests. */
  readonly options?: ParseArgsOptionsConfig;
  /**
   * A subcommand's own help page when the arguments name one (`secrets decrypt --help`: only
   * the flags it takes); undefined: the command's page (usage, summary, help).
   */
  helpFor?(args: readonly string[]): string | undefined;
  /**
   * Runs the command and returns its exit code (an EXIT value); errors are thrown, and `main`
   * turns them into codes. `credentials`: what main learnt before the command started.
   */
  run(args: readonly string[], io: Io, credentials: Credentials): Promise<ExitCode>;
}

/**
 * What `main` knows before a command reads or writes anything: the run's redaction set
 * (src/redact.ts), to which a command adds every credential it learns (a password) before
 * anything could print it, and the API key when --api-key-file named one. The key file is read
 * first of all inputs, once (it may be a pipe), so the key is in the set before any error could
 * quote an argument that turns out to be the key.
 */
export interface Credentials {
  readonly redactions: Redactions;
  /** The key read from --api-key-file; undefined without the flag (connect then reads PROVISION_API_KEY). */
  readonly apiKey: string | undefined;
}

/**
 * parseArgs, strict, with errors that say how to call the command: an unknown flag gets the
 * nearest known one suggested, and a flag given twice is an error (not "the last one wins":
 * a pipeline that sets one in two places means one of them). `positionals`: exactly that many
 * arguments, or `{atLeast}`.
 */
export function parseCommandLine<O extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: O,
  positionals: number | { readonly atLeast: number },
  usage: string,
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    } as const);
  } catch (error) {
    const message = (error as Error).message.split('. ')[0] ?? 'invalid arguments';
    const unknown = /^Unknown option '-/.test(message) ? unknownFlag(args, options) : undefined;
    if (unknown !== undefined) {
      const suggestion = flagHint(unknown, Object.keys(options));
      throw new ProvisionError('usage', `unknown option '${safeText(unknown)}'`, {
        hint: suggestion === undefined ? `usage: ${usage}` : `did you mean ${suggestion}? usage: ${usage}`,
        meta: { flag: unknown },
      });
    }
    throw new ProvisionError('usage', safeText(message.charAt(0).toLowerCase() + message.slice(1)), {
      hint: `usage: ${usage}`,
    });
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple === true) continue;
    if (seen.has(token.name))
      throw new ProvisionError('usage', `--${token.name} is given twice`, {
        hint: `give each option once; usage: ${usage}`,
        meta: { flag: `--${token.name}` },
      });
    seen.add(token.name);
  }
  const got = parsed.positionals.length;
  if (typeof positionals === 'number' ? got !== positionals : got < positionals.atLeast) {
    const wanted =
      typeof positionals === 'number'
        ? plural(positionals, 'argument')
        : `at least ${plural(positionals.atLeast, 'argument')}`;
    throw new ProvisionError(
      'usage',
      positionals === 0 ? 'this command takes no arguments' : `expected ${wanted}, got ${got}`,
      {
        hint: `usage: ${usage}`,
      },
    );
  }
  return parsed;
}

/**
 * `args` ask for `--format json`: parsed loosely with `options` (the command's, so that values
 * split as the command splits them), or, without options, when `--format json` or
 * `--format=json` is among them. For an error that may come before the strict parse.
 */
export function formatJsonRequested(args: readonly string[], options?: ParseArgsOptionsConfig): boolean {
  if (options === undefined)
    return args.some((arg, i) => arg === '--format=json' || (arg === '--format' && args[i + 1] === 'json'));
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  return tokens.some((token) => token.kind === 'option' && token.name === 'format' && token.value === 'json');
}

/**
 * The first flag of `args` that `options` does not know, as typed up to any `=VALUE` (never
 * the value: it may be anything). A single-dash long flag (`-no-color`, Terraform's spelling)
 * is one flag here, where parseArgs reads it as the short flags -n -o …; undefined when none.
 */
function unknownFlag(args: readonly string[], options: ParseArgsOptionsConfig): string | undefined {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option' || Object.hasOwn(options, token.name)) continue;
    const raw = args[token.index] ?? token.rawName;
    return /^-[^-]./.test(raw) ? (raw.split('=')[0] ?? raw) : token.rawName;
  }
  return undefined;
}

/** Flags every command takes (main takes them out or answers them): not in a command's options. */
const EVERY_COMMAND_FLAGS = ['no-color', 'help'] as const;

/**
 * Terraform's flags that are another flag here, said with its value (`-json` is `--format
 * json`); offered only to a command that has that flag. (`-no-color`, `-out`, `-auto-approve`
 * and `-detailed-exitcode` are ours with two dashes: the single-dash rule finds them.)
 */
const TERRAFORM_FLAGS: Readonly<Record<string, { readonly flag: string; readonly say: string }>> = {
  json: { flag: 'format', say: '--format json' },
  parallelism: { flag: 'concurrency', say: '--concurrency N' },
};

/**
 * What to suggest for an unknown flag as typed (`-no-color`, `--json`, `--concurency`), or
 * undefined: the same flag with two dashes when it exists (a Terraform user's single dash),
 * ours for a Terraform flag, else the nearest of `known` (and the flags every command takes).
 */
export function flagHint(typed: string, known: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, '').split('=')[0] ?? '';
  const all = [...known, ...EVERY_COMMAND_FLAGS];
  if (all.includes(name)) return `--${name}`;
  const terraform = Object.hasOwn(TERRAFORM_FLAGS, name) ? TERRAFORM_FLAGS[name] : undefined;
  if (terraform !== undefined && known.includes(terraform.flag)) return terraform.say;
  const near = closest(name, all);
  return near === undefined ? undefined : `--${near}`;
}

/** Plain decimal digits: no sign, space, exponent, hex or fraction. */
const WHOLE = /^\d{1,15}$/;
/** Digits with an optional fraction: no sign, space, exponent or hex. */
const DECIMAL = /^\d{1,15}(?:\.\d{1,15})?$/;

/**
 * The values a numeric flag accepts. Each flag's range is one constant, given to its parser
 * and written into its help line with rangeText: the two cannot disagree.
 */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** `0 to 60000`: a range as parsers' messages and help texts write it. */
export function rangeText(range: Range): string {
  return `${range.min} to ${range.max}`;
}

/** A share (a fault rate). */
export const RATE: Range = { min: 0, max: 1 };
/** A duration in seconds, unless a flag says otherwise. */
export const SECONDS: Range = { min: 0, max: 3600 };

/** Parses a whole-number flag in [min, max] (undefined when absent), or explains. */
export function wholeNumber(
  value: string | undefined,
  flag: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!WHOLE.test(value) || n < min || n > max) {
    throw new ProvisionError(
      'usage',
      `${flag} takes a whole number from ${rangeText({ min, max })} in plain digits, not ${quote(value)}`,
      { meta: { flag } },
    );
  }
  return n;
}

/** Parses a whole-number flag in `range`, `fallback` when absent, or explains. */
export function count(value: string | undefined, flag: string, range: Range, fallback: number): number {
  return wholeNumber(value, flag, range.min, range.max) ?? fallback;
}

/** Picks one of `choices`, or explains. */
export function oneOf<T extends string>(
  value: string | undefined,
  flag: string,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  const suggestion = closest(value, choices);
  throw new ProvisionError(
    'usage',
    `${flag} must be one of ${choices.join(', ')}, not ${quote(value)}`,
    suggestion === undefined ? { meta: { flag } } : { hint: `did you mean ${suggestion}?`, meta: { flag } },
  );
}

/**
 * Parses a duration flag in seconds, decimals allowed, within `range` (SECONDS by default),
 * into milliseconds; or explains.
 */
export function seconds(value: string | undefined, flag: string, fallbackMs: number, range: Range = SECONDS): number {
  if (value === undefined) return fallbackMs;
  const n = Number(value);
  if (!DECIMAL.test(value) || n < range.min || n > range.max) {
    throw new ProvisionError(
      'usage',
      `${flag} takes a number of seconds from ${rangeText(range)} ` +
        `in plain digits (like 30 or 2.5), not ${quote(value)}`,
      { meta: { flag } },
    );
  }
  return Math.round(n * 1000);
}

/** Parses a share in RATE (0 to 1), or explains. */
export function rate(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!DECIMAL.test(value) || n < RATE.min || n > RATE.max)
    throw new ProvisionError(
      'usage',
      `${flag} takes a share between ${RATE.min} and ${RATE.max}, like 0.1, not ${quote(value)}`,
      { meta: { flag } },
    );
  return n;
}

/**
 * `--clients` patterns (plan, apply, export), checked: each must be able to match a username
 * (letters, digits, `-`, `_`, and the wildcards `*` and `?`; case does not matter). Throws
 * ProvisionError 'usage' naming the first that cannot (a domain given by mistake, an empty one).
 */
export function checkClientPatterns(patterns: readonly string[]): readonly string[] {
  for (const pattern of patterns) {
    if (/^[a-z0-9_*?-]+$/i.test(pattern)) continue;
    throw new ProvisionError(
      'usage',
      pattern.trim() === ''
        ? '--clients needs a pattern such as team-*'
        : `--clients ${quote(pattern)} cannot match a username: usernames are letters, digits, "-" and "_"`,
      {
        hint: pattern.includes('.')
          ? '--clients takes usernames (team-*), not domains: give the username of the client that owns the domain'
          : 'give a username, or a pattern with * (any run of characters) and ? (one character)',
      },
    );
  }
  return patterns;
}
