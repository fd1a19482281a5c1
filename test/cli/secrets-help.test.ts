/**
 * `provision secrets decrypt|reset|keygen --help`: each subcommand's own page, with the flags it
 * takes and no other subcommand's; `secrets --help` keeps all three.
 */
import { describe, expect, it } from 'vitest';
import { loadCommand } from '../../src/cli/main.js';
import { KEYGEN_OPTIONS } from '../../src/cli/secrets-keygen.js';
import { RESET_OPTIONS } from '../../src/cli/secrets-reset.js';
import { run } from '../helpers/cli.js';

const OWN = {
  decrypt: ['identity', 'all'],
  reset: Object.keys(RESET_OPTIONS),
  keygen: Object.keys(KEYGEN_OPTIONS),
} as const;

/** Every `--flag` a page names, anywhere on it. */
const flagsOn = (page: string): Set<string> =>
  new Set([...page.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1] ?? ''));

describe('help per secrets subcommand', () => {
  it.each(Object.keys(OWN) as (keyof typeof OWN)[])(
    'secrets %s --help: its usage, a line for each of its flags, no flag it does not take',
    async (sub) => {
      const r = await run(['secrets', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: provision secrets ${sub} `));
      for (const flag of OWN[sub]) expect(r.stdout, `--${flag}`).toMatch(new RegExp(`^ +--${flag}(?=[ ,=]|$)`, 'm'));
      const allowed = new Set<string>([...OWN[sub], 'help']);
      for (const flag of flagsOn(r.stdout))
        expect(allowed.has(flag), `secrets ${sub} --help names --${flag}`).toBe(true);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Exit codes: /);
      // `provision help secrets <sub>` is the same page.
      expect((await run(['help', 'secrets', sub])).stdout).toBe(r.stdout);
    },
  );

  it('secrets --help still holds every subcommand', async () => {
    const r = await run(['secrets', '--help']);
    const secrets = await loadCommand('secrets');
    expect(r.stdout).toBe(`Usage: ${secrets.usage}\n\n${secrets.summary}\n\n${secrets.help}\n`);
    for (const flags of Object.values(OWN)) for (const flag of flags) expect(r.stdout).toContain(`--${flag}`);
  });
});
