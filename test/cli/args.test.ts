/**
 * Flags are read strictly: plain decimal notation only, each number in its documented range, a
 * flag once; mistyped commands and flags get the nearest name suggested.
 */
import { describe, expect, it } from 'vitest';
import { count, parseCommandLine, rate, seconds, wholeNumber } from '../../src/cli/args.js';

const CONCURRENCY = { min: 1, max: 64 };
import { ProvisionError } from '../../src/errors.js';
import { run } from '../helpers/cli.js';

function refusal(parse: () => unknown): ProvisionError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ProvisionError);
    return error as ProvisionError;
  }
  throw new Error('expected a refusal');
}

describe('numbers in flags', () => {
  it.each(['1e3', '0x10', '2.0', ' 4', '4 ', '+4', '-1', '', '1_000', 'Infinity', 'NaN', '９'])(
    'a count refuses %j',
    (value) => {
      expect(refusal(() => count(value, '--concurrency', CONCURRENCY, 4)).message).toBe(
        `--concurrency takes a whole number from 1 to 64 in plain digits, not ${JSON.stringify(value)}`,
      );
    },
  );

  it('a count takes plain digits within its range', () => {
    expect(count('12', '--concurrency', CONCURRENCY, 4)).toBe(12);
    expect(count(undefined, '--concurrency', CONCURRENCY, 4)).toBe(4);
    expect(refusal(() => count('65', '--concurrency', CONCURRENCY, 4)).message).toMatch(/from 1 to 64/);
    expect(refusal(() => count('0', '--concurrency', CONCURRENCY, 4)).message).toMatch(/from 1 to 64/);
    expect(wholeNumber('65535', '--port', 0, 65_535)).toBe(65_535);
    expect(refusal(() => wholeNumber('65536', '--port', 0, 65_535)).message).toMatch(/from 0 to 65535/);
  });

  it('seconds take a fraction, never an exponent, and stay in range (1e308 is not Infinity)', () => {
    expect(seconds('2.5', '--settle-timeout', 30_000)).toBe(2_500);
    expect(seconds('0', '--settle-timeout', 30_000)).toBe(0);
    for (const value of ['1e308', '1e3', '.5', '5.', '-1', '3601', ' 1', '0x1']) {
      expect(refusal(() => seconds(value, '--settle-timeout', 30_000)).message, value).toMatch(
        /^--settle-timeout takes a number of seconds from 0 to 3600 in plain digits/,
      );
    }
  });

  it('a rate is a share between 0 and 1 in plain digits', () => {
    expect(rate('0.25', '--error-rate')).toBe(0.25);
    expect(rate('1', '--error-rate')).toBe(1);
    for (const value of ['1.5', '2', '1e-1', '-0.1', ' 0.1'])
      expect(() => rate(value, '--error-rate'), value).toThrow(ProvisionError);
  });
});

describe('flags and commands', () => {
  const options = { concurrency: { type: 'string' }, 'auto-approve': { type: 'boolean' } } as const;

  it('a flag given twice is an error, not "the last one wins"', () => {
    expect(refusal(() => parseCommandLine(['--concurrency', '2', '--concurrency', '8'], options, 0, 'u')).message).toBe(
      '--concurrency is given twice',
    );
    expect(refusal(() => parseCommandLine(['--auto-approve', '--auto-approve'], options, 0, 'u')).message).toBe(
      '--auto-approve is given twice',
    );
  });

  it('a mistyped flag gets the nearest one suggested', () => {
    expect(refusal(() => parseCommandLine(['--concurency', '2'], options, 0, 'u')).hint).toBe(
      'did you mean --concurrency? usage: u',
    );
  });

  it('a mistyped command gets the nearest one suggested', async () => {
    const r = await run(['palm', 'm.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: unknown command "palm"\nhint: did you mean plan? run provision --help for the list of commands\n',
    );
  });
});

describe("a Terraform user's flags", () => {
  it.each([
    // A single-dash long flag: ours with two dashes, said once, whole (parseArgs read it as -n -o …).
    [['plan', 'M', '-no-color'], "unknown option '-no-color'", 'did you mean --no-color?'],
    [['plan', 'M', '-out=plan.json'], "unknown option '-out'", 'did you mean --out?'],
    [['plan', 'M', '-out', 'plan.json'], "unknown option '-out'", 'did you mean --out?'],
    [['apply', 'M', '-auto-approve'], "unknown option '-auto-approve'", 'did you mean --auto-approve?'],
    [['plan', 'M', '-detailed-exitcode'], "unknown option '-detailed-exitcode'", 'did you mean --detailed-exitcode?'],
    [['validate', 'M', '-help'], "unknown option '-help'", 'did you mean --help?'],
    // Terraform's names for what is another flag here.
    [['plan', 'M', '--json'], "unknown option '--json'", 'did you mean --format json?'],
    [['plan', 'M', '-json'], "unknown option '-json'", 'did you mean --format json?'],
    [['show', 'M', '--json'], "unknown option '--json'", 'did you mean --format json?'],
    [['apply', 'M', '--parallelism', '4'], "unknown option '--parallelism'", 'did you mean --concurrency N?'],
    [['apply', 'M', '-parallelism=4'], "unknown option '-parallelism'", 'did you mean --concurrency N?'],
    // Before the command, and Terraform's `version` command.
    [['-no-color', 'plan', 'M'], "unknown option '-no-color' before the command", 'did you mean --no-color?'],
    [['-version'], "unknown option '-version' before the command", 'did you mean --version?'],
    [['version'], 'unknown command "version"', 'did you mean --version?'],
  ])('%j: %s, %s', async (argv, message, hint) => {
    const r = await run(argv.map((a) => (a === 'M' ? 'm.yaml' : a)));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const [error, help] = r.stderr.split('\n');
    expect(error).toBe(`error: ${message}`);
    expect(help).toMatch(new RegExp(`^hint: ${hint.replace(/[?.]/g, '\\$&')} `));
  });

  it('a flag offered only where it exists: --parallelism to plan (no --concurrency) gets no suggestion', async () => {
    const r = await run(['plan', 'm.yaml', '--parallelism', '4']);
    expect(r.stderr).toMatch(/^error: unknown option '--parallelism'\nhint: usage: provision plan /);
  });

  it('never echoes the value of an unknown flag (it may be anything, the key included)', async () => {
    const r = await run(['plan', 'm.yaml', '-api-key-file=s3cr3t-value']);
    expect(r.stderr).toContain("error: unknown option '-api-key-file'\nhint: did you mean --api-key-file?");
    expect(r.stderr).not.toContain('s3cr3t-value');
  });
});
