/**
 * The mailboxes' list read through the panel read (panel/read.ts readLive) against the simulator
 * over HTTP: GET /emails only when the run's ask asks for mailboxes, once; the part says whether
 * it was read, and the secrets look-ups hold a part not read as not whole; the index by address
 * and domain; the part written to a snapshot's document and read back the same.
 */
import { describe, expect, it } from 'vitest';
import { MAILBOX_READ } from '../../../src/kinds/mailbox/read.js';
import type { SnapshotReading } from '../../../src/kinds/read.js';
import { readLive } from '../../../src/panel/read.js';
import { client } from '../../helpers/panel.js';
import { sim } from '../../helpers/sim.js';

const SEED = {
  clients: [
    {
      username: 'alice',
      domains: [
        { name: 'alice.example', mailboxes: [{ name: 'info', aliases: ['hello@alice.example'], catch_all: true }] },
        { name: 'bücher.example', mailboxes: ['desk'] },
      ],
    },
  ],
};

/** A snapshot's document as the snapshot code hands it to a part. */
function reading(doc: Record<string, unknown>): SnapshotReading {
  return {
    value: (key) => doc[key],
    at: (key) => `snapshot: "${key}"`,
    list: (key) => {
      const value = doc[key];
      if (!Array.isArray(value)) throw new Error(`needs "${key}" as a list`);
      return value as unknown[];
    },
    bad: (problem) => new Error(problem),
    digests: false,
    isDigest: () => false,
  };
}

describe("the mailboxes' list read", () => {
  it('sends no GET /emails unless the ask asks for mailboxes', async () => {
    const simulator = await sim({ seed: SEED });
    const live = await readLive(client(simulator), { domainNames: [] });
    expect(simulator.requests.map((r) => r.path)).not.toContain('/emails');
    expect(live.mailbox).toEqual({ read: false, records: [] });
    expect(MAILBOX_READ.lookUps?.inPart(live.mailbox)).toBeUndefined();
  });

  it('reads GET /emails once when asked, indexed by address and by domain', async () => {
    const simulator = await sim({ seed: SEED });
    const live = await readLive(client(simulator), { domainNames: [], mailboxes: true });
    expect(simulator.requests.filter((r) => r.path === '/emails')).toHaveLength(1);
    expect(live.mailbox.read).toBe(true);
    expect(live.mailbox.records.map((m) => [m.address, m.unicode, m.catchAll, m.aliases])).toEqual([
      ['info@alice.example', 'info@alice.example', true, ['hello@alice.example']],
      ['desk@xn--bcher-kva.example', 'desk@bücher.example', false, []],
    ]);
    const index = MAILBOX_READ.index?.(live.mailbox);
    expect(index?.byAddress.get('info@alice.example')?.id).toBe(live.mailbox.records[0]?.id);
    expect(index?.onDomain('xn--bcher-kva.example').map((m) => m.address)).toEqual(['desk@xn--bcher-kva.example']);
    expect(index?.onDomain('other.example')).toEqual([]);
    const alice = [...simulator.state.clients.values()].find((c) => c.username === 'alice')?.id ?? -1;
    expect(index?.ofClient(alice).map((m) => m.address)).toEqual(['info@alice.example', 'desk@xn--bcher-kva.example']);
    expect(index?.ofClient(alice + 100)).toEqual([]);
    expect(MAILBOX_READ.lookUps?.inPart(live.mailbox)).toEqual(
      live.mailbox.records.map((m) => ({ name: m.address, id: m.id })),
    );
  });

  it('refuses a list naming one address twice (in any spelling), and ids twice, in any order', async () => {
    const record = (id: number, email: string): Record<string, unknown> => ({ id, id_user: 2, email });
    const cases: [unknown[], string][] = [
      [
        [record(1, 'info@alice.example'), record(2, 'desk@alice.example'), record(3, 'INFO@Alice.Example')],
        'GET /api/v2/emails: records share one "email": [0] and [2] ("info@alice.example")',
      ],
      [
        [record(5, 'a@alice.example'), record(2, 'b@alice.example'), record(5, 'c@alice.example')],
        'GET /api/v2/emails: records share one "id": [0] and [2] (5)',
      ],
    ];
    for (const [records, message] of cases) {
      const simulator = await sim({
        seed: SEED,
        intercept: (request) => (request.path === '/emails' ? { status: 200, json: records } : undefined),
      });
      await expect(readLive(client(simulator), { domainNames: [], mailboxes: true })).rejects.toThrow(message);
    }
  });

  it('indexes the records it checked, by address, as they are', async () => {
    const simulator = await sim({ seed: SEED });
    const live = await readLive(client(simulator), { domainNames: [], mailboxes: true });
    const index = MAILBOX_READ.index?.(live.mailbox);
    expect([...(index?.byAddress.entries() ?? [])]).toEqual(live.mailbox.records.map((m) => [m.address, m]));
    // A part the check never saw (a snapshot's) is indexed alike.
    const copy = { read: true, records: [...live.mailbox.records] };
    expect([...(MAILBOX_READ.index?.(copy).byAddress.entries() ?? [])]).toEqual(
      live.mailbox.records.map((m) => [m.address, m]),
    );
  });

  it("writes its part to a snapshot's document and reads it back the same; absent when not read", async () => {
    const simulator = await sim({ seed: SEED });
    const live = await readLive(client(simulator), { domainNames: [], mailboxes: true });
    const doc = JSON.parse(JSON.stringify(MAILBOX_READ.snapshot.write(live.mailbox))) as Record<string, unknown>;
    expect(JSON.stringify(doc)).not.toContain('password');
    expect(MAILBOX_READ.snapshot.read(reading(doc))).toEqual(live.mailbox);
    expect(MAILBOX_READ.snapshot.write(MAILBOX_READ.empty)).toEqual({});
    expect(MAILBOX_READ.snapshot.read(reading({}))).toEqual({ read: false, records: [] });
  });
});
