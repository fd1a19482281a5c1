/**
 * The order of changes never leaves a change out: a create or update of a kind walked at the
 * manifest's entries (Kind.order `at`) whose name is at no entry (as a section's things are
 * named: an address under a domain) still comes, after the walk, each after what it depends on.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { orderChanges } from '../../src/plan/order.js';
import { desired, live } from '../helpers/builders.js';

describe('the order of changes', () => {
  it('keeps a change walked at an entry the manifest does not have', () => {
    const planned = diff(desired({ alice: { domains: ['a.example', 'b.example'] } }), live([[1, 'alice']])).changes;
    expect(planned.map((c) => c.id)).toEqual(['domain:a.example', 'domain:b.example']);
    const elsewhere = desired({ alice: { domains: ['b.example'] } });
    expect(orderChanges(elsewhere, [planned]).map((c) => c.id)).toEqual(['domain:b.example', 'domain:a.example']);
  });
});
