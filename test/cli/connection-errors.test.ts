/**
 * The commands in-process against the simulator on loopback, where the run cannot start or was
 * found wrong in review: connection errors (a wrong key, no panel, no API, no URL or key) in one
 * clear line without the key, the command line (help, version, unknown command or flag), and
 * review findings (a JSON manifest, an empty JSON summary, a conflict owner kept out of Markdown).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_KEY, expectNoSecrets, run, setupCommands as setup } from '../helpers/cli.js';

describe('connection errors: one clear line each, never the key', () => {
  it('a wrong key', async () => {
    const { file, env } = await setup();
    const r = await run(['plan', file], { ...env, PROVISION_API_KEY: 'wrong-key-123456' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: GET \/api\/v2\/ping: 401 Unauthorized: API key is missing or invalid\.\nhint: .*PROVISION_API_KEY/,
    );
    expect(r.stderr).not.toContain('wrong-key-123456');
  });

  it('an unreachable panel', async () => {
    const { file, env, sim } = await setup();
    await sim.close();
    const r = await run(['plan', file], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/ping: cannot connect/);
    await expectNoSecrets([r]);
  });

  it('a panel whose API is switched off (HTML)', async () => {
    const { file, env } = await setup({ apiEnabled: false });
    const r = await run(['plan', file], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/api\/v2\/ping: 200 answered HTML, not JSON/);
  });

  it('a URL that is not the panel API (404)', async () => {
    const { file, env, sim } = await setup();
    const r = await run(['plan', file], {
      ...env,
      PROVISION_URL: sim.url.replace('/api/v2', '/panel'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/panel\/api\/v2\/ping: 404/);
  });

  it('plain http to a remote host, a missing URL, a missing key', async () => {
    const { file, env } = await setup();
    const http = await run(['plan', file, '--url', 'http://panel.example'], env);
    expect(http.code).toBe(1);
    expect(http.stderr).toMatch(/--allow-http/);
    const noUrl = await run(['plan', file], { PROVISION_API_KEY: API_KEY });
    expect(noUrl.stderr).toBe('error: no panel URL\nhint: give --url https://panel.example or set PROVISION_URL\n');
    const noKey = await run(['plan', file], { PROVISION_URL: env.PROVISION_URL });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/PROVISION_API_KEY/);
  });

  it('reads the key from --api-key-file', async () => {
    const { file, env, dir } = await setup();
    const keyFile = join(dir, 'key');
    await writeFile(keyFile, `${API_KEY}\n`);
    const r = await run(['plan', file, '--api-key-file', keyFile], {
      PROVISION_URL: env.PROVISION_URL,
    });
    expect(r.code).toBe(0);
  });
});

describe('command line', () => {
  it('prints help with examples and the version', async () => {
    const help = await run(['plan', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: provision plan <manifest>/);
    expect(help.stdout).toContain('Examples:');
    const version = await run(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('explains an unknown command or flag', async () => {
    expect((await run(['destroy'])).stderr).toMatch(/^error: unknown command "destroy"/);
    const flag = await run(['plan', 'm.yaml', '--colour']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/^error: unknown option '--colour'\nhint: usage: provision plan/);
  });
});

describe('review findings', () => {
  it('applies a manifest written as JSON', async () => {
    const { dir, envWithSecrets, sim } = await setup();
    const file = join(dir, 'manifest.json');
    await writeFile(file, JSON.stringify({ version: 1, clients: [{ username: 'jo', domains: ['jo.example'] }] }));
    const r = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(sim.state.domainNamed('jo.example')?.id_user).toBe(sim.state.clientNamed('jo')?.id);
  });

  it('counts creates in the JSON summary even when there are none', async () => {
    const { dir, env } = await setup();
    const file = join(dir, 'empty.yaml');
    await writeFile(file, 'version: 1\nclients: []\n');
    const r = await run(['plan', file, '--format', 'json'], env);
    expect((JSON.parse(r.stdout) as { summary: unknown }).summary).toEqual({
      create: 0,
      update: 0,
      delete: 0,
      conflicts: 0,
      unknowns: 0,
    });
  });

  it("keeps a conflict owner's name out of the pull-request comment unless asked", async () => {
    const { file, env } = await setup({
      seed: { clients: [{ username: 'carol', domains: ['shop.alice.example'] }] },
    });
    const r = await run(['plan', file, '--format', 'markdown'], env);
    expect(r.stdout).toContain('belongs to another client on the panel');
    expect(r.stdout).not.toContain('carol');
    const named = await run(['plan', file, '--format', 'markdown', '--show-unmanaged'], env);
    expect(named.stdout).toContain('belongs to client "carol" on the panel');
  });
});
