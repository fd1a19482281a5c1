/**
 * The mailbox's doctor check through the library's doctor against the simulator: GET /emails read
 * whole and counted on the `lists` line; a panel that answers 404 has no such list, and the line
 * still holds, saying what that costs; a record that cannot be read fails the line.
 */
import { describe, expect, it } from 'vitest';
import { doctor } from '../../../src/api/index.js';
import type { InterceptRequest, InterceptResult } from '../../../src/simulator/index.js';
import { client } from '../../helpers/panel.js';
import { sim } from '../../helpers/sim.js';

const SEED = {
  clients: [
    {
      username: 'alice',
      domains: [{ name: 'alice.example', mailboxes: ['info', 'desk'] }],
      databases: ['alice_db'],
      ftp_users: ['alice_ftp'],
    },
  ],
};

const lists = async (intercept?: (req: InterceptRequest) => InterceptResult | undefined) => {
  const panel = await sim({
    seed: SEED,
    ...(intercept === undefined ? {} : { intercept }),
  });
  const result = await doctor(client(panel));
  return result.checks.find((c) => c.id === 'lists');
};

describe("doctor and the mailboxes' list", () => {
  it("counts them, read whole, with the other sections' kinds", async () => {
    expect((await lists())?.message).toBe(
      'complete, each read whole (3 hosting plans, 1 client, 2 domains, 2 mailboxes, 1 database, 1 FTP user)',
    );
  });

  it('a panel without GET /emails passes, and the line says what that costs', async () => {
    const line = await lists((req) =>
      req.path === '/emails' ? { status: 404, json: { message: 'no such route' } } : undefined,
    );
    expect(line?.status).toBe('ok');
    expect(line?.message).toContain(
      "no mailbox list (GET /api/v2/emails answered 404): a manifest's mailboxes cannot be used on this panel",
    );
  });

  it('a record it cannot read fails the line, naming the list', async () => {
    const line = await lists((req) => (req.path === '/emails' ? { status: 200, json: [{ id: 'x' }] } : undefined));
    expect(line?.status).toBe('failed');
    expect(line?.message).toContain('/emails');
  });
});
