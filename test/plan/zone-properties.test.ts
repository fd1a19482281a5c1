/**
 * Properties of the planner over DNS zones (fast-check): manifests with zones, panels with zones
 * of random records (duplicates, hosts and types in the panel's odd spellings, TTLs as strings),
 * new domains among them. Applying the plan as the simulator would (an existing zone takes the
 * PUT's records; a new domain gets the panel's default records, then its diff) plans no changes
 * again (a zone the manifest would break is a conflict, unchanged); the PUT's records are
 * exactly the ones read with the plan's record changes applied; and a record goes only when a
 * listed set owns it or prune takes it (never a keep match, an unlisted apex NS), never at an
 * ACME challenge's host the manifest lists nothing at.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/names.js';
import {
  type DesiredZone,
  isZoneConflict,
  type LiveZone,
  recordDrift,
  type RecordOp,
  sentRecords,
  zoneBodyOf,
  type UpdateZone,
} from '../../src/kinds/zone.js';
import type { Desired } from '../../src/manifest/types.js';
import type { Live, LiveDomain } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { totals } from '../../src/plan/guards.js';
import type { Plan } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';
import { afterPut, desiredZone, liveZone, newDomainZone, panelRecords } from '../helpers/zone-arbitraries.js';

const NAMES = ['one.example', 'two.example', 'three.test', 'four.test'] as const;

/** The manifest: alice's domains, each with a zone or without. */
const manifest: fc.Arbitrary<Desired> = fc
  .uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), dns: fc.option(desiredZone, { nil: undefined }) }), {
    selector: (d) => d.name,
    minLength: 1,
    maxLength: 4,
  })
  .map((domains) =>
    desired({
      alice: { domains: domains.map(({ name, dns }) => (dns === undefined ? { name } : { name, dns })) },
    }),
  );

/** The panel: alice (id 1) owning some of the names, each with a zone of random records, custom or not. */
const panel: fc.Arbitrary<Live> = fc
  .uniqueArray(
    fc.constantFrom(...NAMES).chain((name) =>
      fc.record({
        name: fc.constant(name),
        records: panelRecords(name),
        custom: fc.boolean(),
        extra: fc.constantFrom<Record<string, unknown>>({}, { id: 7 }),
      }),
    ),
    { selector: (d) => d.name, maxLength: 4 },
  )
  .map((domains) =>
    live(
      [[1, 'alice', 1]],
      domains.map((d, i) => [100 + i, d.name, 1] as [number, string, number]),
      {
        zones: new Map(domains.map((d) => [d.name, liveZone(d.name, d.records, { custom: d.custom, extra: d.extra })])),
      },
    ),
  );

/** The panel after every change of `plan` succeeded, as the simulator behaves. */
function simulateApply(plan: Plan, before: Live): Live {
  const domains: LiveDomain[] = [...before.domain.records];
  const zones = new Map<string, LiveZone>(before.dns_zone);
  for (const change of plan.changes) {
    if (change.type === 'domain' && change.action === 'create') {
      domains.push({ id: 1000 + domains.length, name: change.name, idUser: 1, isSystem: false });
    } else if (change.type === 'dns_zone') {
      const zone = zones.get(change.name);
      zones.set(
        change.name,
        zone === undefined ? newDomainZone(change.name, change) : afterPut(change.name, zone, change),
      );
    } else {
      throw new Error(`a change these manifests never make: ${change.id}`);
    }
  }
  return { ...before, domain: { ...before.domain, records: domains }, dns_zone: zones };
}

const zoneChanges = (plan: Plan): UpdateZone[] => plan.changes.filter((c): c is UpdateZone => c.type === 'dns_zone');
const text = (ops: readonly RecordOp[]): string[] =>
  ops.map((o) => `${o.op} ${o.host} ${o.type} ${JSON.stringify(o.value)} ${o.ttl} ${o.ttl_before ?? ''}`).sort();

describe('planner properties over zones', () => {
  it('converges: applied as the simulator would, the plan plans no changes again', () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        // A zone the manifest would break is a conflict, and has no change: it stays as it is.
        expect(plan.conflicts.every(isZoneConflict)).toBe(true);
        const again = diff(d, simulateApply(plan, l));
        expect(again.changes).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("sends the records read with exactly the plan's record changes applied, the SOA and DKIM record as read", () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        for (const change of zoneChanges(diff(d, l))) {
          const zone = l.dns_zone.get(change.name);
          if (zone === undefined) {
            expect(change.domainId).toBeNull();
            expect(change.dependsOn).toEqual([`domain:${change.name}`]);
            continue;
          }
          expect(change.records.length).toBeGreaterThan(0);
          expect(zoneBodyOf(change)?.records.soa).toEqual(zone.soa);
          expect(zoneBodyOf(change)?.dkim_record).toEqual(zone.dkim);
          expect(text(recordDrift(zone.records, sentRecords(change.name, zoneBodyOf(change)) ?? []))).toEqual(
            text(change.records),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('removes only what a listed set owns or prune takes, never a keep match under prune, an unlisted apex NS, an unlisted ACME host; each counts as a delete', () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        const wants = new Map<string, DesiredZone | undefined>(
          d.clients.flatMap((c) => c.domains.map((x) => [x.name, x.dns] as const)),
        );
        let removed = 0;
        for (const change of zoneChanges(plan)) {
          const want = wants.get(change.name);
          expect(want).toBeDefined();
          const keep = globMatcher(want?.keep ?? []);
          const listed = want?.records ?? [];
          const listsApexNs = listed.some((r) => r.host === '@' && r.type === 'NS');
          for (const op of change.records) {
            if (op.op !== 'remove') continue;
            removed++;
            const hostListed = listed.some((r) => r.host === op.host);
            const owned = listed.some((r) => r.host === op.host && (r.type === op.type || r.type === 'CNAME'));
            if (op.host.startsWith('_acme-challenge')) expect(hostListed).toBe(true);
            if (owned) continue;
            expect(want?.prune).toBe(true);
            expect(keep(op.host)).toBe(false);
            if (op.host === '@' && op.type === 'NS') expect(listsApexNs).toBe(true);
          }
        }
        expect(totals(plan).deletes).toBe(removed);
      }),
      { numRuns: 1000 },
    );
  });
});
