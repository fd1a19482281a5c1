/**
 * Help texts say only what the code does: every exit code comes from the table in
 * src/cli/exit.ts (each command's help ends with its exitCodesHelp line, and no source file of
 * the CLI writes one by hand), and each numeric flag's help line gives the range its parser
 * enforces (read from the parser's own refusal, so the two cannot drift apart).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, loadCommand } from '../../src/cli/main.js';
import { EXIT, exitCodesHelp } from '../../src/cli/exit.js';
import { run, workspace } from '../helpers/cli.js';

const CODES = new Map(Object.entries(EXIT).map(([name, code]) => [code as number, name as keyof typeof EXIT]));
const SOURCES = join(import.meta.dirname, '..', '..', 'src', 'cli');

describe('exit codes in help texts', () => {
  it.each(COMMAND_NAMES)('%s: every "exit N" is a code of EXIT, and the help ends with exitCodesHelp', async (name) => {
    const command = await loadCommand(name);
    const text = `${command.usage}\n${command.summary}\n${command.help}`;
    for (const match of text.matchAll(/\bexit(?:\s+codes?:)?\s+(\d+)|\$\? -eq (\d+)/gi)) expect(CODES.has(Number(match[1] ?? match[2])), match[0]).toBe(true);
    const last = command.help.trimEnd().split('\n').at(-1) ?? '';
    const listed = last.replace(/^Exit codes: /, '').split('; ').map((part) => CODES.get(Number(/^\d+/.exec(part)?.[0])));
    expect(listed.every((code) => code !== undefined)).toBe(true);
    expect(last).toBe(exitCodesHelp(listed.filter((code) => code !== undefined)));
  });

  it('no source file of the CLI writes an exit code as a literal', async () => {
    for (const file of await readdir(SOURCES)) {
      const source = await readFile(join(SOURCES, file), 'utf8');
      expect(source.match(/\bexit(?:\s+codes?:?)?\s+\d|\$\? -eq \d/gi), file).toBeNull();
    }
  });
});

/** The string flags of each command whose parser takes a number, as probing finds them. */
const NUMERIC = {
  plan: ['max-answer-mb', 'max-creates', 'max-deletes'],
  apply: ['concurrency', 'max-answer-mb', 'max-creates', 'max-deletes', 'settle-timeout'],
  simulator: ['ambiguous-post-rate', 'error-rate', 'fault-seed', 'latency', 'not-ready', 'port', 'reset-rate'],
  validate: [],
  export: ['max-answer-mb'],
  secrets: [],
  show: [],
} as const;

describe('numeric flags', () => {
  it.each(COMMAND_NAMES)("%s: each one's help line gives the range its parser enforces", async (name) => {
    const command = await loadCommand(name);
    const w = await workspace('version: 1\nclients:\n  - username: alice\n');
    const found: string[] = [];
    for (const [flag, option] of Object.entries(command.options ?? {})) {
      if (option.type !== 'string' || flag === 'api-key') continue;
      // Not a number, and harmless as a path (--out, --state, --secrets-file write in the workspace).
      const value = join(w.dir, 'not-a-number');
      const argv = name === 'simulator' ? ['simulator', '--api-key', 'sim-key-1', `--${flag}`, value] : name === 'secrets' ? ['secrets', 'decrypt', w.secrets, `--${flag}`, value] : name === 'export' ? ['export', '--into', w.file, `--${flag}`, value] : [name, w.file, `--${flag}`, value];
      const r = await run(argv, w.envWithSecrets, { stop: Promise.resolve() });
      const match = new RegExp(`--${flag} takes [^\\n]*? (?:from (\\d+) to|between (\\d+) and) (\\d+)`).exec(r.stderr);
      if (match === null) continue;
      const range = [match[1] ?? match[2], match[3]];
      found.push(flag);
      const lines = command.help.split('\n');
      const start = lines.findIndex((line) => line.startsWith(`  --${flag} `));
      const end = lines.findIndex((line, i) => i > start && !/^ {20,}\S/.test(line));
      expect(lines.slice(start, end).join(' '), flag).toContain(`${range[0]} to ${range[1]}`);
    }
    expect(found.sort()).toEqual(NUMERIC[name]);
  });
});
