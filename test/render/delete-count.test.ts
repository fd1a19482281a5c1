/**
 * One count of deletes everywhere: the text summary's "N to delete" is the number the
 * `--max-deletes` guard counts (a delete with what goes with it; with records to remove, the
 * total in all), while the JSON `summary` stays a count of changes.
 */
import { describe, expect, it } from 'vitest';
import { totals } from '../../src/plan/guards.js';
import type { Change, DeleteClient } from '../../src/plan/types.js';
import { changeSummary } from '../../src/render/summary.js';
import { aliceZone } from './zone-fixtures.js';

/** A client deleted with `domainNames` going with it (null: the panel cannot list them). */
function deleted(name: string, domainNames: string[] | null): DeleteClient {
  return {
    id: `client:${name}`,
    type: 'client',
    action: 'delete',
    name,
    reason: 'state: absent in the manifest',
    dependsOn: [],
    clientId: 7,
    domainNames,
  };
}

const guarded = (changes: readonly Change[]): number =>
  totals({ changes, conflicts: [], unknowns: [], unmanaged: { clients: [], domains: [] } }).deletes;

describe('the text summary counts deletes as the guard does', () => {
  it('a client deleted with its domains: the domains count, as for --max-deletes', () => {
    const changes = [deleted('bob', ['b.example', 'bob.example'])];
    expect(changeSummary(changes)).toBe('3 to delete (1 client, and 2 resources that go with it)');
    expect(guarded(changes)).toBe(3);
    expect(changeSummary([deleted('bob', []), deleted('eve', ['eve.example'])])).toBe(
      '3 to delete (2 clients, and 1 resource that goes with them)',
    );
  });

  it('a delete whose share nobody could count says so', () => {
    expect(changeSummary([deleted('bob', null)])).toBe('1 to delete (1 client, and what goes with it, uncounted)');
  });

  it('records removed beside deletes: the line ends with the total the guard counts', () => {
    const changes = [...aliceZone().plan.changes, deleted('bob', ['bob.example'])];
    expect(changeSummary(changes)).toBe(
      '1 to update (1 zone), 2 to delete (1 client, and 1 resource that goes with it), 1 DNS record to remove: ' +
        '3 deletes in all',
    );
    expect(guarded(changes)).toBe(3);
  });
});
