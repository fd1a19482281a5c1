/**
 * Properties of the planner over hosting plans (fast-check): random manifests defining plans
 * (keys managed or not, plans marked absent, prune on or off, a client on a plan the run
 * creates, a client deleted off a plan) against random panels (plans with any of the keys, in
 * the panel's spellings: flags as 0/1, numbers as strings; an object missing; clients on any
 * plan, or a record that does not say which). Applying a plan without conflicts as the
 * simulator would (a new plan's objects merged over its defaults; a PUT's objects taken whole)
 * plans no changes and no conflicts again; each PUT sends every key of the objects it touches
 * as read; a plan a client stays on is never deleted. Seeds are printed on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/util.js';
import type { LiveHostingPlan } from '../../src/kinds/common.js';
import type { PlanValue } from '../../src/kinds/hosting-plan.js';
import type { Desired, DesiredHostingPlan } from '../../src/manifest/types.js';
import type { Live, LiveClient } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { assertNever } from '../../src/util.js';
import { type ClientSpec, desired, live } from '../helpers/builders.js';

const NAMES = ['Basic', 'Pro', 'Gold', 'Old Gold'] as const;

/** Each object's keys with the values a manifest may give them (the panel's own read in any spelling). */
const KEYS: Readonly<Record<string, Readonly<Record<string, readonly PlanValue[]>>>> = {
  resources: { domains: [-1, 5, 10], disk_space: [1024, 2048] },
  permissions: { ssh: [true, false], backup: [true, false] },
  php: { memory_limit: ['128M', '512M'], max_execution_time: [30, 60] },
  php_fpm: { pm: ['ondemand', 'dynamic'], status: [null, true] },
};
const OBJECTS = Object.keys(KEYS);

/** What a new plan has for every key the POST leaves out, and a key no manifest here manages. */
const DEFAULTS: Readonly<Record<string, JsonObject>> = Object.fromEntries(
  OBJECTS.map((o) => [
    o,
    { ...Object.fromEntries(Object.entries(KEYS[o] ?? {}).map(([k, v]) => [k, v[0] ?? null])), extra: 'as read' },
  ]),
);

/** A value as a panel may spell it: a flag as 0/1 or "1", a number as a string. */
function spelled(value: PlanValue, how: number): PlanValue | string | number {
  if (typeof value === 'boolean') return how === 0 ? value : how === 1 ? (value ? 1 : 0) : value ? '1' : '0';
  if (typeof value === 'number' && how === 1) return String(value);
  return value;
}

/** A plan's wants: some keys of some objects. */
const wants = fc
  .subarray(OBJECTS.flatMap((o) => Object.keys(KEYS[o] ?? {}).map((k) => [o, k] as const)))
  .chain((keys) =>
    fc.tuple(...keys.map(([o, k]) => fc.constantFrom(...(KEYS[o]?.[k] ?? [])).map((v) => [o, k, v] as const))),
  )
  .map((entries) => {
    const out: Record<string, Record<string, PlanValue>> = {};
    for (const [o, k, v] of entries) (out[o] ??= {})[k] = v;
    return out;
  });

const manifest = fc
  .record({
    plans: fc.uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), absent: fc.boolean(), wants }), {
      selector: (p) => p.name,
      maxLength: 4,
    }),
    prune: fc.boolean(),
    keep: fc.constantFrom<string[]>([], ['Old *']),
    dave: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    aliceGone: fc.boolean(),
  })
  .map(({ plans, prune, keep, dave, aliceGone }): Desired => {
    const present = new Set(plans.filter((p) => !p.absent).map((p) => p.name));
    const clients: Record<string, ClientSpec> = {};
    // A client on a plan the manifest defines (one it marks absent cannot be named: the manifest
    // refuses it; one the panel may lack is a refusal of its own, not a plan).
    if (dave !== undefined && present.has(dave)) clients.dave = { plan: dave };
    if (aliceGone) clients.alice = { state: 'absent' };
    const hostingPlans: DesiredHostingPlan[] = plans.map((p) =>
      p.absent ? { name: p.name, state: 'absent', wants: {} } : { name: p.name, state: 'present', wants: p.wants },
    );
    const d = desired(clients);
    return { ...d, hostingPlans, prune: { ...d.prune, hostingPlans: prune, keepHostingPlans: keep } };
  });

/** A live plan's objects: every key in some spelling, or an object missing now and then. */
const liveObjects = fc
  .tuple(
    ...OBJECTS.map((o) =>
      fc.option(
        fc.tuple(
          ...Object.entries(KEYS[o] ?? {}).map(([k, values]) =>
            fc.tuple(fc.constantFrom(...values), fc.nat(2)).map(([v, how]) => [k, spelled(v, how)] as const),
          ),
        ),
        { nil: undefined, freq: 8 },
      ),
    ),
  )
  .map((objects) => {
    const out: Record<string, JsonObject> = {};
    objects.forEach((entries, i) => {
      if (entries !== undefined) out[OBJECTS[i] ?? ''] = { ...Object.fromEntries(entries), extra: 'as read' };
    });
    return out;
  });

const panel = fc
  .record({
    plans: fc.uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), objects: liveObjects }), {
      selector: (p) => p.name,
      maxLength: 4,
    }),
    // Which plan (by position) alice and bob are on; -1: on none; undefined: the record does not say.
    on: fc.tuple(fc.constantFrom(undefined, -1, 0, 1, 2, 3), fc.constantFrom(-1, 0, 1, 2, 3)),
  })
  .map(({ plans, on }): Live => {
    const hostingPlans: LiveHostingPlan[] = plans.map((p, i) => ({ id: i + 1, name: p.name, objects: p.objects }));
    const planAt = (i: number | undefined): number | null | undefined =>
      i === undefined ? undefined : (hostingPlans[i]?.id ?? null);
    return live(
      [
        [7, 'alice', planAt(on[0])],
        [8, 'bob', planAt(on[1])],
      ],
      [],
      { plans: hostingPlans },
    );
  });

/** The panel after every change of `plan` succeeded, as the simulator behaves. */
function simulateApply(plan: Plan, before: Live): Live {
  let plans: LiveHostingPlan[] = [...before.hosting_plan];
  let clients: LiveClient[] = [...before.client];
  let nextId = 100;
  for (const change of plan.changes) {
    switch (change.type) {
      case 'hosting_plan':
        switch (change.action) {
          case 'create': {
            const objects: Record<string, JsonObject> = {};
            for (const o of OBJECTS)
              objects[o] = { ...DEFAULTS[o], ...change.objects[o as keyof typeof change.objects] };
            plans.push({ id: nextId++, name: change.name, objects });
            break;
          }
          case 'update':
            plans = plans.map((p) =>
              p.id === change.planId
                ? { ...p, objects: { ...p.objects, ...(change.body as Record<string, JsonObject>) } }
                : p,
            );
            break;
          case 'delete':
            // As the simulator does: a plan a client is on is refused.
            if (clients.some((c) => c.idHostingPlan === change.planId))
              throw new Error(`the panel refuses to delete ${change.name}: a client is on it`);
            plans = plans.filter((p) => p.id !== change.planId);
            break;
          default:
            assertNever(change);
        }
        break;
      case 'client':
        switch (change.action) {
          case 'create': {
            const ref = change.hostingPlan;
            const id = ref === undefined ? null : (ref.id ?? plans.find((p) => p.name === ref.name)?.id);
            if (id === undefined) throw new Error(`client ${change.name} created before its plan ${ref?.name}`);
            clients.push({ id: nextId++, username: change.name, idHostingPlan: id });
            break;
          }
          case 'update': {
            const ref = change.hostingPlan;
            const id = ref === undefined ? undefined : (ref.id ?? plans.find((p) => p.name === ref.name)?.id);
            clients = clients.map((c) =>
              c.id === change.clientId && id !== undefined ? { ...c, idHostingPlan: id } : c,
            );
            break;
          }
          case 'delete':
            clients = clients.filter((c) => c.id !== change.clientId);
            break;
          default:
            assertNever(change);
        }
        break;
      case 'domain':
      case 'dns_zone':
      case 'mailbox':
      case 'database':
      case 'ftp_user':
        throw new Error(`a change these manifests never make: ${change.id}`);
      default:
        assertNever(change);
    }
  }
  return { ...before, hosting_plan: plans, client: clients };
}

describe('hosting plan properties', () => {
  it('converges: a plan without conflicts, applied, plans no changes and no conflicts', () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        if (plan.conflicts.length > 0) return; // apply refuses the whole plan: the panel stays as it is
        const again = diff(d, simulateApply(plan, l));
        expect(again.changes).toEqual([]);
        expect(again.conflicts).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('sends each object it changes whole, every key as read, and deletes no plan a client stays on', () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        const leaving = new Set(
          plan.changes.flatMap((c) => (c.type === 'client' && c.action === 'delete' ? [c.name] : [])),
        );
        for (const change of plan.changes) {
          if (change.type !== 'hosting_plan') continue;
          const before = l.hosting_plan.find((p) => p.name === change.name);
          if (change.action === 'update') {
            for (const [object, sent] of Object.entries(change.body)) {
              const read = before?.objects?.[object] ?? {};
              expect(Object.keys(sent).sort()).toEqual(Object.keys(read).sort());
              expect(sent.extra).toBe('as read');
            }
          }
          if (change.action === 'delete')
            for (const c of l.client) {
              // A client the plan deletes may be on it, or not say: the delete then waits for it.
              if (leaving.has(c.username)) {
                if (c.idHostingPlan === undefined || c.idHostingPlan === before?.id)
                  expect(change.dependsOn).toContain(`client:${c.username}`);
                continue;
              }
              expect(c.idHostingPlan).not.toBeUndefined();
              expect(c.idHostingPlan).not.toBe(before?.id);
            }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
