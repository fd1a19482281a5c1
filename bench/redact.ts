/**
 * `node --import tsx bench/redact.ts [N...]`: the output filter at N new clients, as apply
 * meets it: after each client's password joins the redaction set, a progress line is written.
 * Three ways side by side, in one run: no filter at all (the yardstick), the redaction trie
 * (src/redact.ts), and one `replaceAll` per credential (how it was done before). Medians of 3. The old way is left out past 10,000 clients (it grows with N²).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redactions } from '../src/redact.js';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const KEY = 'bench-key-0123456789abcdef';

function median(values: number[]): number {
  return values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

/** Writes N progress lines through `filter`, adding one password before each; returns ms and bytes out. */
function run(
  n: number,
  passwords: readonly string[],
  make: () => { add(value: string): void; filter(text: string): string },
): { ms: number; bytes: number } {
  const sink = make();
  sink.add(KEY);
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    sink.add(passwords[i] ?? '');
    bytes += sink.filter(`  + client "customer-${i}" created (id ${1000 + i}); 2 domains follow\n`).length;
  }
  return { ms: performance.now() - started, bytes };
}

const ways = {
  'no filter (yardstick)': () => ({ add: () => undefined, filter: (t: string) => t }),
  'redaction trie': () => {
    const r = new Redactions();
    return { add: (v: string) => void r.add(v), filter: (t: string) => r.redact(t) };
  },
  'replaceAll per credential (before)': () => {
    const set = new Set<string>();
    return {
      add: (v: string) => void set.add(v),
      filter: (t: string) => {
        let s = t;
        for (const v of set) s = s.replaceAll(v, '[redacted]');
        return s;
      },
    };
  },
};

for (const n of sizes.length > 0 ? sizes : [1_000, 10_000]) {
  const passwords = Array.from({ length: n }, () => randomBytes(12).toString('base64url'));
  // The old way grows with the square of N: past 10,000 it would run for minutes.
  const chosen = Object.entries(ways).filter(([name]) => n <= 10_000 || !name.includes('before'));
  const times = Object.fromEntries(
    chosen.map(([name, make]) => [name, median([0, 1, 2].map(() => run(n, passwords, make).ms))]),
  );
  const base = times['no filter (yardstick)'] ?? NaN;
  process.stdout.write(`${n} clients:\n`);
  for (const [name, ms] of Object.entries(times))
    process.stdout.write(
      `  ${name.padEnd(36)} ${ms.toFixed(1).padStart(9)} ms  ${(ms / base).toFixed(1).padStart(8)}x\n`,
    );
}
