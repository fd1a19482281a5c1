/**
 * `provision secrets keygen`: an age key pair that works end to end (apply encrypts new
 * clients' passwords to the public key, secrets decrypt reads them back with the identity),
 * written as age-keygen writes it, to a new file of mode 0600 only, or to a stdout that is not
 * a terminal; the private key printed nowhere else.
 */
import { readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createdRecords, run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n';
const IDENTITY_FILE =
  /^# created: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n# public key: (age1[0-9a-z]+)\n(AGE-SECRET-KEY-1[0-9A-Z]+)\n$/;

describe('secrets keygen', () => {
  it('makes a pair that works: apply under CI encrypts to the public key, decrypt reads it back with the identity', async () => {
    const w = await workspace(MANIFEST);
    const key = join(w.dir, 'key.txt');
    const made = await run(['secrets', 'keygen', '--out', key]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toBe('');
    const text = await readFile(key, 'utf8');
    const [, recipient, identity] = IDENTITY_FILE.exec(text) ?? [];
    expect(recipient).toBeDefined();
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect(made.stderr).toContain(`Public key: ${recipient}\n`);
    expect(made.stderr).not.toContain(identity);

    const applied = await run(['apply', w.file, '--auto-approve'], {
      ...w.envWithSecrets,
      CI: 'true',
      PROVISION_SECRETS_RECIPIENT: recipient,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const [record] = await createdRecords(w.secrets);
    expect(record).toHaveProperty('password_age');
    expect(record).not.toHaveProperty('password');
    const decrypted = await run(['secrets', 'decrypt', w.secrets, '--identity', key]);
    expect(decrypted.code, decrypted.stderr).toBe(0);
    const password = (JSON.parse(decrypted.stdout) as { password: string }).password;
    expect(password).toBe(w.sim.state.passwordOf('alice'));
  });

  it('never replaces a file, nor writes through a link', async () => {
    const w = await workspace(MANIFEST);
    const key = join(w.dir, 'key.txt');
    await writeFile(key, 'an old key\n');
    const again = await run(['secrets', 'keygen', '--out', key]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error: ${key} exists already: nothing was written`);
    expect(await readFile(key, 'utf8')).toBe('an old key\n');

    const target = join(w.dir, 'target');
    const link = join(w.dir, 'link.txt');
    await symlink(target, link);
    const linked = await run(['secrets', 'keygen', '--out', link]);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('exists already');
    await expect(stat(target)).rejects.toThrow();
  });

  it("to stdout only when it is not a terminal; refuses the other subcommands' flags and arguments", async () => {
    const piped = await run(['secrets', 'keygen']);
    expect(piped.code, piped.stderr).toBe(0);
    const [, recipient] = IDENTITY_FILE.exec(piped.stdout) ?? [];
    expect(piped.stderr).toContain(`Public key: ${recipient}\n`);

    const tty = await run(['secrets', 'keygen'], {}, { tty: true });
    expect(tty.code).toBe(1);
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain('error: secrets keygen would print a private key on the terminal: nothing was made');

    expect((await run(['secrets', 'keygen', '--identity', 'x'])).stderr).toContain(
      '--identity is an option of secrets decrypt',
    );
    expect((await run(['secrets', 'keygen', '--secrets-file', 'x'])).stderr).toContain(
      '--secrets-file is an option of secrets reset',
    );
    expect((await run(['secrets', 'decrypt', 'x', '--out', 'y'])).stderr).toContain(
      '--out is an option of secrets keygen',
    );
    expect((await run(['secrets', 'keygen', 'extra'])).stderr).toContain('expected 1 argument, got 2');
  });

  it.each(['true', '1', 'yes', 'TRUE'])(
    'under CI (CI=%s) prints no key without --out FILE or --stdout: the job log keeps it',
    async (ci) => {
      const r = await run(['secrets', 'keygen'], { CI: ci });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toContain('AGE-SECRET-KEY');
      expect(r.stderr).toContain(
        "error: secrets keygen under CI would print a private key into the job's log: nothing was made",
      );
      expect(r.stderr).toContain('hint: give --out FILE (a new file, mode 0600); or --stdout');
    },
  );

  it('under CI: --out FILE, or an explicit --stdout; CI=false and CI=0 are not CI', async () => {
    const w = await workspace(MANIFEST);
    const key = join(w.dir, 'key.txt');
    const toFile = await run(['secrets', 'keygen', '--out', key], { CI: 'true' });
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stdout).toBe('');
    expect(await readFile(key, 'utf8')).toMatch(IDENTITY_FILE);
    for (const [argv, env] of [
      [['secrets', 'keygen', '--stdout'], { CI: 'true' }],
      [['secrets', 'keygen'], { CI: 'false' }],
      [['secrets', 'keygen'], { CI: '0' }],
      [['secrets', 'keygen'], { CI: '' }],
    ] as const) {
      const r = await run([...argv], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(IDENTITY_FILE);
    }
    const both = await run(['secrets', 'keygen', '--stdout', '--out', join(w.dir, 'other.txt')], { CI: 'true' });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('error: --out and --stdout both say where the identity goes: nothing was made');
    // --stdout never overrides the terminal's refusal.
    const tty = await run(['secrets', 'keygen', '--stdout'], {}, { tty: true });
    expect(tty.code).toBe(1);
    expect(tty.stdout).toBe('');
  });
});
