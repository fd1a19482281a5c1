import { once } from 'node:events';
import { createInterface } from 'node:readline/promises';
import type { Io } from './io.js';

/** The real process as an Io: its streams, its environment, its signals, its terminal. */
export function processIo(env: Io['env'] = process.env): Io {
  return {
    stdout: { write: (text) => process.stdout.write(text), isTTY: process.stdout.isTTY, columns: process.stdout.columns },
    stderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY, columns: process.stderr.columns },
    env,
    untilStopped: () => Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]).then(() => undefined),
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
