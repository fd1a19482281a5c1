/**
 * A client whose username is also the name of a home's root folder (`www`, `files`), on a panel
 * that writes FTP users' homes from the server's root (`/home/users/www/www/site.example`): the
 * account's own folder is not the root, so the home reads as the manifest wrote it and a plan
 * after the apply shows no changes (never an update sent again on every run).
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest } from '../../src/simulator/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

/** The header on the test's own read of the simulator's answer (never reshaped). */
const RAW = 'x-home-raw';

type Item = Record<string, unknown>;

/** A workspace whose simulator writes each FTP user's home from the server's root, under `layout`. */
async function rootHomes(manifest: string, layout: (username: string) => string) {
  let url = '';
  const intercept = async (req: InterceptRequest) => {
    if (req.method !== 'GET' || !/^\/ftp-users(\/\d+)?\/?$/.test(req.path) || req.headers[RAW] !== undefined)
      return undefined;
    const answer = await request(`${url}${req.path}`, { headers: { 'x-api-key': API_KEY, [RAW]: '1' } });
    const json = (await answer.body.json()) as Item | Item[];
    const clients = (await (
      await request(`${url}/clients`, { headers: { 'x-api-key': API_KEY } })
    ).body.json()) as Item[];
    const reshape = (r: Item): Item => {
      const owner = clients.find((c) => c.id === r.id_user)?.username;
      return { ...r, home_directory: `${layout(String(owner))}${String(r.home_directory)}` };
    };
    return { status: answer.statusCode, json: Array.isArray(json) ? json.map(reshape) : reshape(json) };
  };
  const w = await workspace(manifest, { intercept });
  url = w.sim.url;
  return w;
}

describe('a client named like a home root, its FTP homes written from the server root', () => {
  for (const [username, layout] of [
    ['www', (u: string) => `/home/users/${u}`],
    ['files', (u: string) => `/home/users/${u}`],
    ['www', (u: string) => `/home/${u}`],
  ] as const) {
    it(`client "${username}", homes under ${layout(username)}: the plan after the apply shows no changes`, async () => {
      const manifest =
        `version: 1\nclients:\n  - username: ${username}\n    domains: [site.example]\n` +
        '    ftp_users:\n      - name: deploy\n        home: /www/site.example\n      - name: backup\n        home: /files\n';
      const w = await rootHomes(manifest, layout);
      const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
      expect(applied.code, applied.stderr).toBe(0);
      const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
      expect(planned.stdout).toBe('No changes: the panel matches the manifest.\n');
      expect(planned.code).toBe(0);
    });
  }
});
