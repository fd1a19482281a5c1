/**
 * The order of changes never leaves a change out: a create or update of a kind walked at the
 * manifest's entries (Kind.order `at`) whose name is at no entry (as a section's things are
 * named: an address under a domain) still comes, after the walk, each after what it depends on.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { orderChanges } from '../../src/plan/order.js';
import type { Change } from '../../src/plan/types.js';
import { desired, live, newClient } from '../helpers/builders.js';

describe('the order of changes', () => {
  it('keeps a change walked at an entry the manifest does not have', () => {
    const planned = diff(desired({ alice: { domains: ['a.example', 'b.example'] } }), live([[1, 'alice']])).changes;
    expect(planned.map((c) => c.id)).toEqual(['domain:a.example', 'domain:b.example']);
    const elsewhere = desired({ alice: { domains: ['b.example'] } });
    expect(orderChanges(elsewhere, [planned]).map((c) => c.id)).toEqual(['domain:b.example', 'domain:a.example']);
  });

  it("keeps a client's change beside an FTP user or a database named like the client", () => {
    // Both stand at the client's entry (a section's thing walked at clients is placed by its own
    // name): the walk kept one change an entry, and the client's left the plan.
    const named = (type: string, name: string): Change =>
      ({ id: `${type}:${name}`, action: 'create', type, name, reason: 'test', dependsOn: [] }) as unknown as Change;
    const wanted = desired({ shop: { domains: [] }, bob: { domains: [] } });
    const parts = [
      [newClient('shop'), newClient('bob')],
      [named('ftp_user', 'shop'), named('database', 'bob')],
    ];
    expect(orderChanges(wanted, parts).map((c) => c.id)).toEqual([
      'client:shop',
      'ftp_user:shop',
      'client:bob',
      'database:bob',
    ]);
  });
});
