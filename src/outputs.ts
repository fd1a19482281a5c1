import { runExitCleanups } from './exit-cleanup.js';
import { EXIT } from './exit-codes.js';

/**
 * The process's standard output and error as Unix tools treat them: a write that fails ends
 * the command quietly (a reader gone) or with one line (a full disk), never with Node's
 * "Unhandled 'error' event" and a stack trace. For every entry point: the provision bin, and the
 * action's comment script (action/pr-comment.ts, run by path, no bin of the package).
 */

/** The standard streams that failed: written to no more. */
const closed = new Set<NodeJS.WriteStream>();
let watching = false;
/** Called on a broken pipe: true when the command stops by itself (see watchOutputs). */
let onBrokenPipe: () => boolean = () => false;
/** A broken pipe started a stop: the command is ending by itself. */
let stopping = false;

/** Whether `stream` failed: nothing more is written to it. */
export function isClosed(stream: NodeJS.WriteStream): boolean {
  return closed.has(stream);
}

/**
 * Makes a failed write to stdout or stderr end the command the way Unix tools end, never with
 * Node's "Unhandled 'error' event" and a stack trace (`provision plan big.yaml | head -1`). For
 * every write of the process, the bin's own (`--version`) included: bin.ts calls it first.
 *
 * - The reader went away (EPIPE: `| head -1`, a pager quit): quietly. When `stop` (the last
 *   one given) answers true, the command stops by itself as at a first Ctrl-C (apply, secrets
 *   reset and the simulator wait for one), finishing what is in flight, and its further output
 *   to that stream is dropped; otherwise the process ends at once by SIGPIPE, as a C program
 *   does (the shell shows status 141).
 * - Any other failure (ENOSPC on a redirected stdout, EIO): the output is incomplete, so it is
 *   said on the other stream when that one is still open, and the process ends (EXIT.failure).
 */
export function watchOutputs(stop?: () => boolean): void {
  if (stop !== undefined) onBrokenPipe = stop;
  if (watching) return;
  watching = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: Error) => {
      failed(stream, error);
    });
  }
}

/** What a failed write to `stream` does (see watchOutputs); once per stream. */
export function failed(stream: NodeJS.WriteStream, error: Error): void {
  if (closed.has(stream)) return;
  closed.add(stream);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EPIPE') {
    // Once a broken pipe has started a stop, another (stdout and stderr on one pipe, `2>&1 |
    // head`: the stop's own note finds it closed) only ends the writing: the stop goes on.
    if (stopping || onBrokenPipe()) {
      stopping = true;
      return;
    }
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
  // Ending by a signal runs no 'exit' handler: what must go (a lock file) goes first.
  runExitCleanups();
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
