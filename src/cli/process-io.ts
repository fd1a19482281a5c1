import { EXIT } from './exit.js';
import type { Io, Output } from './io.js';

/** The real process as an Io: its streams, its environment, its signals, its terminal. */
export function processIo(env: Io['env'] = process.env): Io {
  watchOutputs();
  return {
    stdout: output(process.stdout),
    stderr: output(process.stderr),
    env,
    untilStopped,
    exit: (code) => process.exit(code),
    ...(process.stdin.isTTY ? { prompt } : { readStdin }),
  };
}

/**
 * A standard stream as an Output: nothing more is written to it once it has failed (see
 * watchOutputs). A write that fails at once (a pipe's reader gone: the stream is errored when
 * write returns) is handled before the next one, as a C program dies at its failed write, not
 * after the command has run on to its end.
 */
function output(stream: NodeJS.WriteStream): Output {
  return {
    write: (text) => {
      if (closed.has(stream)) return;
      stream.write(text);
      if (stream.errored !== null) failed(stream, stream.errored);
    },
    isTTY: stream.isTTY,
    columns: stream.columns,
  };
}

/** The standard streams that failed: written to no more. */
const closed = new Set<NodeJS.WriteStream>();
let watching = false;

/**
 * Makes a failed write to stdout or stderr end the command the way Unix tools end, never with
 * Node's "Unhandled 'error' event" and a stack trace (`provision plan big.yaml | head -1`). For
 * every write of the process, the bin's own (`--version`) included: bin.ts calls it first.
 *
 * - The reader went away (EPIPE: `| head -1`, a pager quit): quietly. A command that handles
 *   a stop (apply, secrets reset, the simulator: they wait on untilStopped) stops as at a first
 *   Ctrl-C, finishing what is in flight, and its further output to that stream is dropped;
 *   any other command ends at once by SIGPIPE, as a C program does (the shell shows status 141).
 * - Any other failure (ENOSPC on a redirected stdout, EIO): the output is incomplete, so it is
 *   said on the other stream when that one is still open, and the process ends (EXIT.failure).
 */
export function watchOutputs(): void {
  if (watching) return;
  watching = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: Error) => {
      failed(stream, error);
    });
  }
}

/** What a failed write to `stream` does (see watchOutputs); once per stream. */
function failed(stream: NodeJS.WriteStream, error: Error): void {
  if (closed.has(stream)) return;
  closed.add(stream);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EPIPE') {
    if (stopWaiters()) return;
    endBySigpipe();
  }
  if (stream === process.stdout && !closed.has(process.stderr))
    process.stderr.write(
      `error: cannot write to standard output: ${code ?? error.message}: the output is incomplete\n`,
    );
  process.exit(EXIT.failure);
}

/** Ends the process by SIGPIPE, which Node ignores by default: the default action is restored first. */
function endBySigpipe(): never {
  try {
    // Removing the last listener of a signal gives it back its default action (libuv).
    const ignore = (): void => undefined;
    process.on('SIGPIPE', ignore);
    process.off('SIGPIPE', ignore);
    process.kill(process.pid, 'SIGPIPE');
  } catch {
    // A platform without SIGPIPE: the status a shell shows for it, below.
  }
  // Not reached where the signal is delivered at once (Linux, macOS); the same status otherwise.
  process.exit(128 + process.getBuiltinModule('node:os').constants.signals.SIGPIPE);
}

/** One line from the terminal; '' on Ctrl-C or end of input, so a refusal never hangs. */
async function prompt(question: string): Promise<string> {
  // Loaded here: only an interactive apply asks, and readline costs every start-up otherwise.
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const controller = new AbortController();
  rl.on('SIGINT', () => {
    controller.abort();
  });
  rl.on('close', () => {
    controller.abort();
  });
  try {
    return await rl.question(question, { signal: controller.signal });
  } catch {
    process.stderr.write('\n');
    return '';
  } finally {
    rl.close();
  }
}

/** Standard input to its end, for a manifest or plan given as `-` (only when it is not a terminal). */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Callers waiting for the next stop request (SIGINT, SIGTERM). */
const waiting: (() => void)[] = [];
let listening = false;

/**
 * Resolves at the next SIGINT or SIGTERM. The listeners stay installed while anyone may wait:
 * removing and re-adding them between a first and a second Ctrl-C would leave an instant in
 * which the second one kills the process before it can say so. A signal nobody waits for
 * (the command is past the point where it handles one) gets the default behaviour back.
 */
function untilStopped(): Promise<void> {
  listenForStops();
  return new Promise((resolve) => waiting.push(resolve));
}

/** Resolves everyone waiting for a stop, as a signal does; false when nobody waits. */
function stopWaiters(): boolean {
  const taken = waiting.splice(0);
  for (const resolve of taken) resolve();
  return taken.length > 0;
}

function listenForStops(): void {
  if (!listening) {
    listening = true;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopWaiters()) return;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      listening = false;
      process.kill(process.pid, signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}
