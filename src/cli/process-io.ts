import { runExitCleanups } from '../exit-cleanup.js';
import { failed, isClosed, watchOutputs } from '../outputs.js';
import type { Io, Output } from './io.js';

/** The real process as an Io: its streams, its environment, its signals, its terminal. */
export function processIo(env: Io['env'] = process.env): Io {
  // A closed pipe stops a command that handles a stop as a first Ctrl-C does.
  watchOutputs(stopWaiters);
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
 * watchOutputs in src/outputs.ts). A write that fails at once (a pipe's reader gone: the stream is errored when
 * write returns) is handled before the next one, as a C program dies at its failed write, not
 * after the command has run on to its end.
 */
function output(stream: NodeJS.WriteStream): Output {
  return {
    write: (text) => {
      if (isClosed(stream)) return;
      stream.write(text);
      if (stream.errored !== null) failed(stream, stream.errored);
    },
    isTTY: stream.isTTY,
    columns: stream.columns,
    // An empty write's callback runs once the writes before it have left, or failed (then the
    // stream's 'error' ends the process first: src/outputs.ts).
    flushed: () =>
      new Promise<void>((resolve) => {
        if (isClosed(stream) || stream.writableLength === 0) resolve();
        else
          stream.write('', () => {
            resolve();
          });
      }),
  };
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

/**
 * Standard input to its end, for a manifest or plan given as `-` (only when it is not a
 * terminal); past `maxBytes` it stops, holding at most that and one byte (the caller refuses it).
 */
async function readStdin(maxBytes = Infinity): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = chunk as Buffer;
    chunks.push(size + bytes.length > maxBytes ? bytes.subarray(0, maxBytes + 1 - size) : bytes);
    size += bytes.length;
    if (size > maxBytes) break;
  }
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
      // Ending by the signal runs no 'exit' handler: what must go (a lock file) goes first.
      runExitCleanups();
      process.kill(process.pid, signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}

export { watchOutputs } from '../outputs.js';
