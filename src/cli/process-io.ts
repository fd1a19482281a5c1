import { createInterface } from 'node:readline/promises';
import type { Io } from './io.js';

/** The real process as an Io: its streams, its environment, its signals, its terminal. */
export function processIo(env: Io['env'] = process.env): Io {
  return {
    stdout: { write: (text) => process.stdout.write(text), isTTY: process.stdout.isTTY, columns: process.stdout.columns },
    stderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY, columns: process.stderr.columns },
    env,
    untilStopped,
    exit: (code) => process.exit(code),
    ...(process.stdin.isTTY ? { prompt } : { readStdin }),
  };
}

/** One line from the terminal; '' on Ctrl-C or end of input, so a refusal never hangs. */
async function prompt(question: string): Promise<string> {
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

/** Stop requests (SIGINT, SIGTERM) not yet taken by an untilStopped, and the callers waiting for one. */
let pendingStops = 0;
const waiting: (() => void)[] = [];
let listening = false;

/**
 * Resolves at the next SIGINT or SIGTERM (or at once for one that came while nobody waited).
 * The listeners stay installed from the first call on: removing and re-adding them between a
 * first and a second Ctrl-C would leave an instant in which the second one kills the process
 * before it can say so.
 */
function untilStopped(): Promise<void> {
  if (!listening) {
    listening = true;
    const stop = (): void => {
      const taken = waiting.splice(0);
      if (taken.length === 0) pendingStops++;
      for (const resolve of taken) resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
  if (pendingStops > 0) {
    pendingStops--;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}
