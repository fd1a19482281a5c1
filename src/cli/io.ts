import { guardOutput } from '../escape.js';
import type { Redactions } from '../redact.js';

/**
 * Everything a command may touch of the outside world, injected so that tests run commands
 * in-process with real files and real HTTP but captured output.
 */
export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Resolves when the user asks the process to stop (SIGINT/SIGTERM); used by long-running commands. */
  readonly untilStopped: () => Promise<void>;
  /**
   * Asks one question on the terminal (the question goes to stderr) and resolves with the line
   * typed, '' when the input ends or is interrupted. Absent when stdin is not a terminal: then
   * nobody can answer, and commands that need a confirmation refuse instead (CI).
   */
  readonly prompt?: (question: string) => Promise<string>;
  /** Ends the process at once with `code` (a second Ctrl-C); absent in tests that run commands in-process. */
  readonly exit?: (code: number) => void;
  /**
   * Reads standard input to its end (a manifest or plan given as `-`), or stops once more than
   * `maxBytes` are read (the caller refuses it); absent when there is none to read.
   */
  readonly readStdin?: (maxBytes?: number) => Promise<Uint8Array>;
}

export interface Output {
  write(text: string): void;
  /** A terminal: colours and interactive prompts are allowed (never with NO_COLOR for colours). */
  readonly isTTY: boolean;
  /** The terminal's width; 0 or absent when unknown (a pseudo-terminal without size, a pipe). */
  readonly columns?: number;
  /**
   * Resolves once everything written has left the process (a pipe whose reader is slow holds it
   * queued). Before a command says something on the other stream after a long output: were
   * the reader gone, the failed write ends the process first (src/outputs.ts), as a C program
   * ends at its blocked write, saying nothing more. Absent: nothing is ever queued.
   */
  readonly flushed?: () => Promise<void>;
}

/** `output`'s flushed, for a wrapper of it. */
function flushedOf(output: Output): Pick<Output, 'flushed'> {
  return output.flushed === undefined ? {} : { flushed: output.flushed };
}

/**
 * Wraps an output so that no value of the run's redaction set (src/redact.ts) can reach it,
 * nor a control character that is not the program's own (escape.ts guardOutput).
 */
function redacting(output: Output, redactions: Redactions): Output {
  return {
    isTTY: output.isTTY,
    ...(output.columns === undefined ? {} : { columns: output.columns }),
    ...flushedOf(output),
    write(text: string) {
      output.write(guardOutput(redactions.redact(text)));
    },
  };
}

/**
 * `io` with every channel that reaches a person filtered (see `redacting`): stdout, stderr and
 * the terminal prompt's question, and the step summary (github.ts stepSummary). Not a file the
 * user asked for (a manifest, a plan: files.ts writeAtomically): that is a document, written as
 * it is, which holds no credential in the first place.
 */
export function redactingIo(io: Io, redactions: Redactions): Io {
  const { prompt } = io;
  return {
    ...io,
    stdout: redacting(io.stdout, redactions),
    stderr: redacting(io.stderr, redactions),
    ...(prompt === undefined ? {} : { prompt: (question: string) => prompt(guardOutput(redactions.redact(question))) }),
  };
}

/** An output that knows whether anything was written to it (main: has the command printed its document?). */
export function watched(output: Output): Output & { readonly written: boolean } {
  let written = false;
  return {
    isTTY: output.isTTY,
    ...(output.columns === undefined ? {} : { columns: output.columns }),
    ...flushedOf(output),
    write(text: string) {
      written ||= text !== '';
      output.write(text);
    },
    get written() {
      return written;
    },
  };
}

export function useColor(output: Output, env: Io['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return output.isTTY;
}
