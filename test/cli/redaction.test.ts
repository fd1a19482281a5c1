/**
 * Every byte the CLI writes is filtered from the first, for every form a credential can come
 * back in. These runs have a panel (or a user) put the key where output picks it up on purpose;
 * the leak test covers the runs where nothing should ever need filtering.
 */
import { describe, expect, it } from 'vitest';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n';

/** A key with every character that escaping changes (keys are printable ASCII). */
const KEY = `Ab1/"<&>'+%x-SECRET`;

/** The key as it stands, and in each form a panel may echo it: none may reach the output. */
const FORMS = [
  KEY,
  encodeURIComponent(KEY),
  JSON.stringify(KEY).slice(1, -1),
  JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/'),
  KEY.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;'),
];

describe('a panel that echoes the key back', () => {
  it.each(FORMS.map((form, i) => [i, form]))('form %i of the key, in the JSON message of an error: never in the output', async (_, form) => {
    const w = await workspace(MANIFEST, { apiKey: KEY, intercept: ({ path }) => (path === '/ping' ? { status: 500, json: { message: `bad key <${form}>` } } : undefined) });
    const r = await run(['plan', w.file], { ...w.env, PROVISION_API_KEY: KEY });
    expect(r.code).toBe(1);
    for (const f of FORMS) expect(r.stdout + r.stderr).not.toContain(f);
    expect(r.stderr).toContain('GET /api/v2/ping: 500');
  });
});

describe('the key given by mistake where a path belongs', () => {
  it('is blanked in the error that names the "file", before it is known as the key', async () => {
    const w = await workspace(MANIFEST);
    const r = await run(['plan', w.file, '--api-key-file', API_KEY], { PROVISION_URL: w.env.PROVISION_URL });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
    expect(r.stderr).toContain('cannot read the API key file [redacted]: ENOENT');
  });

  it('also as --api-key-file=VALUE', async () => {
    const w = await workspace(MANIFEST);
    const r = await run(['plan', w.file, `--api-key-file=${API_KEY}`], { PROVISION_URL: w.env.PROVISION_URL });
    expect(r.stderr).toContain('cannot read the API key file [redacted]: ENOENT');
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
  });

  it('the key from the environment is blanked from the first byte, by commands that never use it too', async () => {
    const r = await run(['validate', API_KEY], { PROVISION_API_KEY: API_KEY });
    expect(r.stderr).toContain('cannot read the manifest [redacted]');
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
  });
});
