/**
 * Properties of the planner over random manifests and panels (fast-check), the whole lifecycle
 * included: every change after what it depends on; the same bytes whatever the panel's list
 * order; apply then plan converges; and the safety rules of deletes: never a system domain, a
 * keep match, another client's domain, or anything at all when prune is off and nothing is
 * marked absent. Seeds are printed on failure, so a failure can be replayed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settingBefore, settingRow } from '../../src/kinds/domain.js';
import type { Desired } from '../../src/manifest/types.js';
import { globMatcher } from '../../src/names.js';
import type { Live, LiveClient, LiveDomain } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { phaseOf } from '../../src/plan/types.js';
import { assertNever } from '../../src/util.js';
import { type ClientSpec, desired, live, PLANS } from '../helpers/builders.js';
import { createdSettings, settings, settingsRecord } from '../helpers/settings-arbitraries.js';

// Small name pools, so that random manifests and panels overlap often.
const username = fc.constantFrom('alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina');
const domainName = fc
  .tuple(
    fc.constantFrom('', 'www.', 'shop.', 'a.b.'),
    fc.constantFrom('one', 'two', 'three', 'four'),
    fc.constantFrom('.example', '.test'),
  )
  .map(([sub, name, tld]) => `${sub}${name}${tld}`);
const planName = fc.constantFrom(undefined, 'Basic', 'Standard', 'Premium Plus');
const email = fc.constantFrom(undefined, 'a@x.example', 'b@x.example');
const suspended = fc.constantFrom(undefined, true, false);
const state = fc.constantFrom<'present' | 'absent'>('present', 'present', 'present', 'absent');

/** A valid manifest: unique usernames, each domain under one client at most; absent clients have no other keys. */
const manifest = fc
  .record({
    clients: fc.uniqueArray(
      fc.record({
        username,
        state,
        plan: planName,
        email,
        suspended,
        domains: fc.uniqueArray(fc.record({ name: domainName, state, settings }), {
          selector: (d) => d.name,
          maxLength: 5,
        }),
      }),
      { selector: (c) => c.username, maxLength: 6 },
    ),
    prune: fc.record({
      domains: fc.boolean(),
      clients: fc.boolean(),
      keep: fc.subarray(['a*', '*.test', 'shop.*', 'gina']),
    }),
    pruneOn: fc.boolean(),
  })
  .map(({ clients, prune, pruneOn }): Desired => {
    const seen = new Set<string>();
    const specs: Record<string, ClientSpec> = {};
    for (const c of clients) {
      specs[c.username] =
        c.state === 'absent'
          ? { state: 'absent' }
          : {
              ...(c.plan === undefined ? {} : { plan: c.plan }),
              ...(c.email === undefined ? {} : { email: c.email }),
              ...(c.suspended === undefined ? {} : { suspended: c.suspended }),
              domains: c.domains
                .filter((d) => !seen.has(d.name) && seen.add(d.name))
                // A domain marked absent takes no settings (the manifest refuses them).
                .map(({ name, state, settings }) =>
                  state === 'absent' || settings === undefined ? { name, state } : { name, state, settings },
                ),
            };
    }
    return desired(specs, pruneOn ? { prune } : {});
  });

/** A live panel: clients with ids and any field carried or not; domains owned by any of them or by an unknown id (an administrator). */
const panel = fc
  .tuple(
    fc.uniqueArray(
      fc.tuple(
        username,
        fc.constantFrom(undefined, null, 1, 2, 3),
        fc.constantFrom(undefined, null, 'a@x.example'),
        fc.constantFrom(undefined, true, false),
      ),
      {
        selector: ([u]) => u,
        maxLength: 6,
      },
    ),
    fc.uniqueArray(fc.tuple(domainName, fc.nat(7), fc.boolean(), settingsRecord), {
      selector: ([d]) => d,
      maxLength: 12,
    }),
  )
  .map(([clients, domains]) =>
    live(
      clients.map(([u, plan, mail, susp], i) => [
        i + 1,
        u,
        plan,
        {
          ...(mail === undefined ? {} : { email: mail }),
          ...(susp === undefined ? {} : { suspended: susp }),
        },
      ]),
      domains.map(([d, owner, system, record], i) => [100 + i, d, owner, system, record]),
    ),
  );

/** What the panel looks like after every change of `plan` succeeded, as the simulator behaves (it refuses what the simulator refuses). */
function simulateApply(plan: Plan, before: Live): Live {
  let clients: LiveClient[] = [...before.client];
  let domains: LiveDomain[] = [...before.domain.records];
  let nextId = 1000;
  const idOf = new Map(clients.map((c) => [c.username, c.id]));
  for (const change of plan.changes) {
    switch (change.action) {
      case 'create':
        switch (change.type) {
          case 'client': {
            const id = nextId++;
            idOf.set(change.name, id);
            clients.push({
              id,
              username: change.name,
              idHostingPlan: change.hostingPlan?.id ?? PLANS[0]?.id,
              email: change.email ?? null,
              suspended: change.suspended ?? false,
            });
            break;
          }
          case 'domain': {
            // As the simulator does: the POST's settings, nested objects merged over the defaults.
            domains.push({
              id: nextId++,
              name: change.name,
              idUser: change.clientId ?? idOf.get(change.client) ?? -1,
              isSystem: false,
              settings: createdSettings(change),
            });
            break;
          }
          case 'hosting_plan':
          case 'mailbox':
          case 'database':
          case 'ftp_user':
            break; // no hosting plans nor mailboxes in these manifests
          default:
            assertNever(change);
        }
        break;
      case 'update':
        if (change.type === 'domain') {
          // As a panel does: top-level keys given replace, nested objects are taken whole.
          domains = domains.map((d) =>
            d.id === change.domainId ? { ...d, settings: { ...d.settings, ...change.body } } : d,
          );
          break;
        }
        if (
          change.type === 'dns_zone' ||
          change.type === 'hosting_plan' ||
          change.type === 'mailbox' ||
          change.type === 'database' ||
          change.type === 'ftp_user'
        )
          break; // none in these manifests
        clients = clients.map((c) => {
          if (c.id !== change.clientId) return c;
          let next = c;
          for (const f of change.fields) {
            switch (f.field) {
              case 'plan':
                next = { ...next, idHostingPlan: change.hostingPlan?.id };
                break;
              case 'email':
                next = { ...next, email: f.after };
                break;
              case 'suspended':
                next = { ...next, suspended: f.after };
                break;
              case 'language':
                next = { ...next, language: f.after };
                break;
              default:
                assertNever(f);
            }
          }
          return next;
        });
        break;
      case 'delete':
        switch (change.type) {
          case 'client':
            clients = clients.filter((c) => c.id !== change.clientId);
            domains = domains.filter((d) => d.idUser !== change.clientId);
            break;
          case 'domain': {
            // As the simulator does: a domain with a subdomain of its owner (system ones aside) is refused.
            const child = domains.find(
              (d) => d.idUser === change.clientId && !d.isSystem && d.name.endsWith(`.${change.name}`),
            );
            if (child !== undefined)
              throw new Error(`the panel refuses to delete ${change.name}: ${child.name} is under it`);
            domains = domains.filter((d) => d.id !== change.domainId);
            break;
          }
          case 'hosting_plan':
          case 'mailbox':
          case 'database':
          case 'ftp_user':
            break;
          default:
            assertNever(change);
        }
        break;
      default:
        assertNever(change);
    }
  }
  return { ...before, client: clients, domain: { ...before.domain, records: domains } };
}

describe('planner properties', () => {
  it('orders every change after everything it depends on, within its phase, creates and updates before deletes', () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        const seen = new Map<string, number>();
        let phase = 0;
        for (const change of plan.changes) {
          expect(phaseOf(change)).toBeGreaterThanOrEqual(phase);
          phase = phaseOf(change);
          for (const dep of change.dependsOn) expect(seen.get(dep), `${change.id} before ${dep}`).toBe(phase);
          seen.set(change.id, phase);
        }
        expect(seen.size).toBe(plan.changes.length);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same bytes however the panel orders its lists', () => {
    fc.assert(
      fc.property(manifest, panel, fc.integer(), (d, l, seed) => {
        const shuffle = <T>(items: readonly T[]): T[] => {
          const out = [...items];
          let s = seed;
          for (let i = out.length - 1; i > 0; i--) {
            s = (Math.imul(s, 1_103_515_245) + 12_345) | 0;
            const j = Math.abs(s) % (i + 1);
            [out[i], out[j]] = [out[j]!, out[i]!];
          }
          return out;
        };
        const shuffled = {
          ...l,
          clients: shuffle(l.client),
          domains: shuffle(l.domain.records),
          hostingPlans: shuffle(l.hosting_plan),
        };
        expect(JSON.stringify(diff(d, shuffled))).toBe(JSON.stringify(diff(d, l)));
      }),
      { numRuns: 300 },
    );
  });

  it('converges: a plan without conflicts, applied, plans no changes; one with conflicts sends nothing', () => {
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

  it('updates only managed settings it can read, sending each object whole with the keys no manifest manages as read', () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        const wanted = new Map(d.clients.flatMap((c) => c.domains.map((x) => [x.name, x.settings] as const)));
        for (const change of plan.changes) {
          if (change.action !== 'update' || change.type !== 'domain') continue;
          const given = wanted.get(change.name);
          const before = l.domain.records.find((x) => x.id === change.domainId)?.settings;
          expect(given).toBeDefined();
          const objects = new Set<string>();
          for (const f of change.fields) {
            expect(given?.[f.field]).toEqual(f.after);
            const row = settingRow(f.field);
            expect(before === undefined ? undefined : settingBefore(row, before)).toEqual(f.before);
            objects.add(row.object ?? 'php_version');
          }
          expect(new Set(Object.keys(change.body))).toEqual(objects);
          for (const object of ['security', 'target'] as const) {
            const sent = change.body[object];
            if (sent === undefined) continue;
            // Every key as read is sent (changed or not), and nothing the panel did not show but the fixture's spellings.
            for (const key of Object.keys(before?.[object] ?? {})) expect(sent).toHaveProperty([key]);
          }
        }
        for (const u of plan.unknowns)
          if ('domain' in u && u.domain !== undefined)
            expect(
              plan.changes.some(
                (c) =>
                  c.name === u.domain &&
                  c.action === 'update' &&
                  c.type === 'domain' &&
                  c.fields.some((f) => f.field === u.field),
              ),
            ).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("never deletes a system domain, a keep match or another client's domain; nothing at all without prune or state: absent", () => {
    fc.assert(
      fc.property(manifest, panel, (d, l) => {
        const plan = diff(d, l);
        const keep = globMatcher(d.prune.keep);
        const domains = new Map(l.domain.records.map((x) => [x.id, x]));
        const clients = new Map(l.client.map((x) => [x.id, x]));
        const absentClients = new Set(d.clients.filter((c) => c.state === 'absent').map((c) => c.username));
        const absentDomains = new Set(
          d.clients.flatMap((c) => c.domains.filter((x) => x.state === 'absent').map((x) => x.name)),
        );
        const pruning = d.prune.domains || d.prune.clients;
        for (const change of plan.changes) {
          if (change.action !== 'delete') continue;
          switch (change.type) {
            case 'client':
              expect(clients.get(change.clientId)?.username).toBe(change.name);
              if (!absentClients.has(change.name)) {
                expect(d.prune.clients).toBe(true);
                expect(keep(change.name)).toBe(false);
              }
              break;
            case 'domain': {
              const target = domains.get(change.domainId);
              expect(target?.isSystem).toBe(false);
              expect(target?.idUser).toBe(change.clientId);
              expect(clients.get(change.clientId)?.username).toBe(change.client);
              expect(d.clients.find((c) => c.username === change.client)?.state).toBe('present');
              if (!absentDomains.has(change.name)) {
                expect(d.prune.domains).toBe(true);
                expect(keep(change.name)).toBe(false);
              }
              break;
            }
            case 'hosting_plan':
            case 'mailbox':
            case 'database':
            case 'ftp_user':
              throw new Error(`no ${change.type} in these manifests, yet a delete of ${change.name}`);
            default:
              assertNever(change);
          }
          if (!pruning) expect(absentClients.has(change.name) || absentDomains.has(change.name)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
