import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ProvisionError } from '../errors.js';
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
   * Runs the command and returns its exit code (an EXIT value); errors are thrown, and `main`
   * turns them into codes. `redactions` is the run's redaction set (src/redact.ts): a command
   * adds every credential it learns (the API key, a password) before anything could print it.
   */
  run(args: readonly string[], io: Io, redactions: Redactions): Promise<ExitCode>;
}

/** parseArgs, strict, with errors that say how to call the command. */
export function parseCommandLine<O extends ParseArgsOptionsConfig>(args: readonly string[], options: O, positionals: number, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    const message = (error as Error).message.split('. ')[0] ?? 'invalid arguments';
    throw new ProvisionError('usage', message.charAt(0).toLowerCase() + message.slice(1), { hint: `usage: ${usage}` });
  }
  if (parsed.positionals.length !== positionals) {
    throw new ProvisionError('usage', positionals === 0 ? 'this command takes no arguments' : `expected ${positionals} argument${positionals === 1 ? '' : 's'}, got ${parsed.positionals.length}`, {
      hint: `usage: ${usage}`,
    });
  }
  return parsed;
}

/** Parses a positive integer flag, or explains. */
export function positiveInteger(value: string | undefined, flag: string, fallback: number): number {
  return wholeNumber(value, flag, 1) ?? fallback;
}

/** Parses a whole-number flag of at least `min` (undefined when absent), or explains. */
export function wholeNumber(value: string | undefined, flag: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new ProvisionError('usage', `${flag} must be a whole number of ${min} or more, not "${value}"`);
  return n;
}

/** Picks one of `choices`, or explains. */
export function oneOf<T extends string>(value: string | undefined, flag: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new ProvisionError('usage', `${flag} must be one of ${choices.join(', ')}, not "${value}"`);
}

/** Parses a duration flag given in seconds (0 or more, decimals allowed) into milliseconds, or explains. */
export function seconds(value: string | undefined, flag: string, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new ProvisionError('usage', `${flag} takes a number of seconds (0 or more), not "${value}"`);
  return Math.round(n * 1000);
}

/** Parses a share between 0 and 1 (a fault rate), or explains. */
export function rate(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0 && n <= 1)) throw new ProvisionError('usage', `${flag} takes a share between 0 and 1, like 0.1, not "${value}"`);
  return n;
}
