/**
 * The one write-ahead create (apply/create-secret.ts) for a kind whose panel may name a new thing
 * itself (KindSecret.panelNaming): the FTP user on a panel whose "custom FTP usernames" setting is
 * off. Its password is recorded under the panel's name, the intent of the name sent is closed,
 * and the create fails naming both. Over real HTTP against the simulator. Runs once the FTP
 * user's room is in the table of kinds (src/kinds/index.ts KINDS); until then it is skipped.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { creator } from '../../src/apply/create.js';
import { createFtpUser } from '../../src/kinds/ftp-user/index.js';
import { FTP_USER_KIND } from '../../src/kinds/ftp-user/kind.js';
import { KINDS } from '../../src/kinds/index.js';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal } from '../../src/secrets/journal.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { client } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-panel-named-'));
  path = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WIRED = (Object.keys(KINDS) as readonly string[]).includes(FTP_USER_KIND.name);

/** Creates FTP user `alice_deploy` of client alice through createSecret; what it came to, and the journal. */
async function create(options: Partial<SimulatorOptions>) {
  const simulator = await sim({ seed: { clients: [{ username: 'alice' }] }, systemDomains: false, ...options });
  const alice = simulator.state.clientNamed('alice')?.id ?? 0;
  const panel = client(simulator);
  const file = await SecretsFile.open(path);
  const creates = creator(panel, {
    settleTimeoutMs: 0,
    secrets: file,
    panelUrl: panel.baseUrl,
    newPassword: () => 'Generated-Password-0001',
  });
  const change = createFtpUser('alice_deploy', {}, { client: 'alice', clientId: alice, dependsOn: [] });
  const outcome = await creates.createSecret(change as never, file).then(
    (applied) => ({ applied }),
    (error: unknown) => ({ error: error as Error }),
  );
  await file.close();
  const journal = parseJournal(await readFile(path, 'utf8')).map((l) => (l.kind === 'unreadable' ? l.why : l.entry));
  return { simulator, outcome, journal };
}

describe.skipIf(!WIRED)('a create whose panel names the thing itself', () => {
  test('records the password under the panel name, closes the intent of the name sent, and fails naming both', async () => {
    const { simulator, outcome, journal } = await create({ customFtpUsernames: false });
    expect(outcome).toHaveProperty('error');
    const { error } = outcome as { error: Error };
    expect(error.message).toBe(
      'FTP user "alice_deploy" was created by the panel as "alice_ftp1": the panel names FTP users itself; ' +
        'its password is recorded under "alice_ftp1"; what to do: turn on "custom FTP usernames" in the ' +
        'panel\'s settings, delete FTP user "alice_ftp1" in the panel (or list it in the manifest under that name), ' +
        'then run apply again',
    );
    const [intent, recorded, refused] = journal as Record<string, unknown>[];
    expect(intent).toMatchObject({ intent: 'create_ftp_user', kind: 'ftp_user', name: 'alice_deploy' });
    expect(recorded).toMatchObject({ kind: 'ftp_user', name: 'alice_ftp1', password: 'Generated-Password-0001' });
    expect(refused).toMatchObject({ kind: 'ftp_user', name: 'alice_deploy', intent_id: intent?.intent_id });
    expect(journal).toHaveLength(3);
    expect(simulator.state.ftpUserPasswordIs('alice_ftp1', 'Generated-Password-0001')).toBe(true);
  });

  test('a panel that takes the name sent costs one read back, and records the password under it', async () => {
    const { simulator, outcome, journal } = await create({});
    expect(outcome).toEqual({ applied: { id: expect.any(Number) as unknown } });
    expect(journal.at(-1)).toMatchObject({
      kind: 'ftp_user',
      name: 'alice_deploy',
      password: 'Generated-Password-0001',
    });
    expect(simulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /ftp-users',
      `GET /ftp-users/${(outcome as { applied: { id: number } }).applied.id}`,
    ]);
  });
});
