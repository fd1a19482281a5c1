/**
 * A client whose password the secrets file cannot tell, deleted in the panel after apply read
 * it and before its new password's PUT: nothing is left to settle, and the run does not fail.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

/** Two creates of alice left open by killed runs, each with a password of its own. */
const twoOpen = (url: string): string =>
  ['P1-Written-Ahead-By-Run1', 'P2-Written-Ahead-By-Run2']
    .map((pending, i) =>
      JSON.stringify({
        intent: 'create_client',
        intent_id: `000000000000000${i}`,
        at: '2030-01-01T00:00:00.000Z',
        panel_url: url,
        username: 'alice',
        pending_password: pending,
      }),
    )
    .join('\n');

describe('a password the secrets file cannot tell, of a client deleted meanwhile', () => {
  it('the client deleted after the panel was read: nothing left to settle, no error for it', async () => {
    let deleted = false;
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      seed: { clients: [{ username: 'alice' }] },
      // Deleted in the panel between the read and the PUT: the PUT and the look-up by id find none.
      intercept: (req) => {
        if (req.method === 'PUT') deleted = true;
        return deleted && req.path === '/clients/2'
          ? { status: 404, json: { code: '404 Not Found', message: 'The client was not found.' } }
          : undefined;
      },
    });
    await writeFile(w.secrets, `${twoOpen(w.sim.url)}\n`, { mode: 0o600 });
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.stderr).toContain('client "alice" (id 2) is no longer on the panel: no password to set');
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
  });
});
