/**
 * Each kind's own order among its changes (Kind.sequence), run by the order stage
 * (plan/order.ts sequenceChanges) over the live index: a mailbox's delete, which frees its
 * address and its catch-all as the panel read holds them, goes before the create that takes
 * them; a catch-all turned off before it is turned on elsewhere; two updates swapping an alias
 * are caught in a circle; the other kinds' changes are left as they are.
 */
import { describe, expect, it } from 'vitest';
import { createMailbox, deleteMailbox, type LiveMailbox, updateMailbox } from '../../src/kinds/mailbox/index.js';
import type { Live } from '../../src/kinds/index.js';
import { LiveIndex } from '../../src/plan/live-index.js';
import { sequenceChanges } from '../../src/plan/order.js';
import { live, newClient } from '../helpers/builders.js';

const mailbox = (id: number, address: string, more: Partial<LiveMailbox> = {}): LiveMailbox => ({
  id,
  idUser: 3,
  address,
  unicode: address,
  description: '',
  maxSize: 0,
  catchAll: false,
  storeForwardedEmails: false,
  aliases: [],
  forwardings: [],
  ...more,
});

const LIVE: Live = {
  ...live([[3, 'alice']], [[30, 'alice.example', 3]]),
  mailbox: {
    read: true,
    records: [
      mailbox(41, 'old@alice.example', { catchAll: true, aliases: ['hello@alice.example'] }),
      mailbox(42, 'a@alice.example', { aliases: ['x@alice.example'] }),
      mailbox(43, 'b@alice.example', { aliases: ['y@alice.example'] }),
    ],
  },
};
const OWNER = { client: 'alice', clientId: 3, dependsOn: [] };

describe('sequenceChanges', () => {
  it('puts a delete that frees an address and a catch-all (as read) before the create that takes them', () => {
    const create = createMailbox('hello@alice.example', 'alice.example', { catch_all: true }, OWNER);
    const remove = deleteMailbox('old@alice.example', 'alice', 41, 'state: absent in the manifest');
    const client = newClient('bob');
    const { changes, circular } = sequenceChanges([client, create, remove], new LiveIndex(LIVE));
    expect(circular).toEqual([]);
    expect(changes[0]).toBe(client);
    expect(changes[1]?.dependsOn).toEqual(['mailbox:old@alice.example']);
    expect(changes[2]).toBe(remove);
  });

  it('refuses two updates that swap an alias: each waits for the other', () => {
    const a = updateMailbox('a@alice.example', 'alice', 42, [
      { field: 'aliases', before: ['x@alice.example'], after: ['y@alice.example'] },
    ]);
    const b = updateMailbox('b@alice.example', 'alice', 43, [
      { field: 'aliases', before: ['y@alice.example'], after: ['x@alice.example'] },
    ]);
    const { circular } = sequenceChanges([a, b], new LiveIndex(LIVE));
    expect([...circular].sort()).toEqual(['mailbox:a@alice.example', 'mailbox:b@alice.example']);
  });
});
