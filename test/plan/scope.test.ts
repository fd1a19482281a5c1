/**
 * Scoped plans (`--clients`, docs/commands.md "Scoped runs") in the planner, through diff(desired,
 * live, { scope }): only the manifest's clients whose username matches (`*`, `?`, case ignored)
 * are planned, with their domains and zones; prune deletes only matching unlisted clients and
 * unlisted domains of matching clients, never a name the manifest lists anywhere nor a
 * prune.keep match; hosting plans are left alone (a matching client on a plan only the manifest
 * defines is refused: "apply without --clients first"); the unmanaged counts are of the scope;
 * readsForManifest reads only the scope's details, domains and zones.
 */
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import type { Desired, DesiredHostingPlan } from '../../src/manifest/types.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { readsForManifest } from '../../src/plan/reads.js';
import type { Plan } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';
import { liveZone, wantZone } from '../helpers/zone-arbitraries.js';

const ids = (plan: Plan): string[] => plan.changes.map((c) => c.id);

function withPlans(d: Desired, plans: DesiredHostingPlan[], prune: Partial<Desired['prune']> = {}): Desired {
  return { ...d, hostingPlans: plans, prune: { ...d.prune, ...prune } };
}

/** The ProvisionError `f` throws (fails the test when it throws none). */
function thrown(f: () => unknown): ProvisionError {
  try {
    f();
  } catch (err) {
    if (err instanceof ProvisionError) return err;
    throw err;
  }
  expect.fail('expected a ProvisionError');
}

/** alice, alfred and bob on the panel, each with a domain and an unlisted one. */
const PANEL: Live = live(
  [
    [1, 'alice', 1, { email: 'old@example.com' }],
    [2, 'alfred', 1, { email: 'old@example.com' }],
    [3, 'bob', 1, { email: 'old@example.com' }],
  ],
  [
    [10, 'alice.example', 1],
    [11, 'extra-alice.example', 1],
    [20, 'alfred.example', 2],
    [21, 'extra-alfred.example', 2],
    [30, 'bob.example', 3],
    [31, 'extra-bob.example', 3],
  ],
);

/** Every client of PANEL listed with a new email and a new domain. */
const MANIFEST = desired({
  alice: { email: 'alice@example.com', domains: ['alice.example', 'new-alice.example'] },
  alfred: { email: 'alfred@example.com', domains: ['alfred.example', 'new-alfred.example'] },
  bob: { email: 'bob@example.com', domains: ['bob.example', 'new-bob.example'] },
});

describe('a plan scoped by --clients', () => {
  it('plans only the matching clients, with their domains, and records its scope', () => {
    const whole = diff(MANIFEST, PANEL);
    expect(whole.scope).toBeUndefined();
    expect(ids(whole)).toHaveLength(6);

    const plan = diff(MANIFEST, PANEL, { scope: ['alice'] });
    expect(ids(plan)).toEqual(['client:alice', 'domain:new-alice.example']);
    expect(plan.scope).toEqual({ clients: ['alice'] });
    expect(plan.conflicts).toEqual([]);
  });

  it('matches * any run and ? one character, case ignored, any of several patterns', () => {
    const planned = (scope: string[]): string[] =>
      diff(MANIFEST, PANEL, { scope })
        .changes.filter((c) => c.type === 'client')
        .map((c) => c.name);
    expect(planned(['al*'])).toEqual(['alice', 'alfred']);
    expect(planned(['AL*'])).toEqual(['alice', 'alfred']);
    expect(planned(['ALICE'])).toEqual(['alice']);
    expect(planned(['al?ce'])).toEqual(['alice']);
    expect(planned(['al?'])).toEqual([]);
    expect(planned(['b?b', 'alfred'])).toEqual(['alfred', 'bob']);
    expect(planned(['*'])).toEqual(['alice', 'alfred', 'bob']);
    expect(planned(['nobody'])).toEqual([]);
    // A manifest username in capitals matches a lowercase pattern too.
    const upper = diff(desired({ Carol: { domains: ['carol.example'] } }), live(), { scope: ['carol'] });
    expect(ids(upper)).toEqual(['client:Carol', 'domain:carol.example']);
  });

  it('matching nothing plans nothing, even with every prune on', () => {
    const plan = diff(
      desired(
        { alice: {} },
        {
          prune: { clients: true, domains: true, hostingPlans: true },
        },
      ),
      PANEL,
      { scope: ['zed*'] },
    );
    expect(plan.changes).toEqual([]);
    expect(plan.conflicts).toEqual([]);
    expect(plan.unmanaged).toEqual({ clients: [], domains: [] });
    expect(plan.scope).toEqual({ clients: ['zed*'] });
  });

  it('plans the zones of matching clients only', () => {
    const zoned = desired({
      alice: { domains: [{ name: 'alice.example', dns: wantZone([['@', 'A', '192.0.2.10']]) }] },
      bob: { domains: [{ name: 'bob.example', dns: wantZone([['@', 'A', '192.0.2.20']]) }] },
    });
    const panel = live(
      [
        [1, 'alice', 1],
        [3, 'bob', 1],
      ],
      [
        [10, 'alice.example', 1],
        [30, 'bob.example', 3],
      ],
      {
        zones: new Map([
          ['alice.example', liveZone('alice.example')],
          ['bob.example', liveZone('bob.example')],
        ]),
      },
    );
    expect(ids(diff(zoned, panel))).toEqual(['dns_zone:alice.example', 'dns_zone:bob.example']);
    expect(ids(diff(zoned, panel, { scope: ['bob'] }))).toEqual(['dns_zone:bob.example']);
    // Only the scope's zones, domains and details are read.
    const reads = readsForManifest(
      desired({
        alice: { email: 'a@example.com', domains: [{ name: 'alice.example', dns: wantZone([]) }] },
        bob: { suspended: true, domains: [{ name: 'bob.example', dns: wantZone([]) }, 'www.bob.example'] },
      }),
      ['b*'],
    );
    expect(reads.zones).toEqual(['bob.example']);
    expect(reads.domainNames).toEqual(['bob.example', 'www.bob.example']);
    expect(reads.details).toEqual({ usernames: new Set(['bob']), fields: new Set(['suspended']) });
    // A scope that may delete a client looks up every listed domain (one its delete would take
    // is a conflict); its zones and details are still the scope's only.
    const pruning = desired(
      { alice: { domains: [{ name: 'alice.example', dns: wantZone([]) }] }, bob: { domains: ['bob.example'] } },
      { prune: { clients: true } },
    );
    expect(readsForManifest(pruning, ['bob']).domainNames).toEqual(['alice.example', 'bob.example']);
    expect(readsForManifest(pruning, ['bob']).zones).toEqual([]);
    const absent = desired({ alice: { domains: ['alice.example'] }, bob: { state: 'absent' } });
    expect(readsForManifest(absent, ['bob']).domainNames).toEqual(['alice.example']);
    expect(readsForManifest(absent, ['alice']).domainNames).toEqual(['alice.example']);
  });

  describe('prune', () => {
    it('prune.clients deletes only unlisted clients that match', () => {
      const manifest = desired({ alice: { domains: ['alice.example'] } }, { prune: { clients: true } });
      expect(ids(diff(manifest, PANEL))).toEqual(['client:alfred', 'client:bob']);
      expect(ids(diff(manifest, PANEL, { scope: ['al*'] }))).toEqual(['client:alfred']);
      expect(ids(diff(manifest, PANEL, { scope: ['alice'] }))).toEqual([]);
      expect(ids(diff(manifest, PANEL, { scope: ['bob'] }))).toEqual(['client:bob']);
    });

    it('prune.domains deletes only unlisted domains of matching clients', () => {
      const manifest = desired(
        { alice: { domains: ['alice.example'] }, bob: { domains: ['bob.example'] } },
        { prune: { domains: true } },
      );
      expect(ids(diff(manifest, PANEL))).toEqual(['domain:extra-alice.example', 'domain:extra-bob.example']);
      expect(ids(diff(manifest, PANEL, { scope: ['bob'] }))).toEqual(['domain:extra-bob.example']);
    });

    it('never deletes a domain the manifest lists under an out-of-scope client', () => {
      // new-bob.example is bob's in the manifest but alice's on the panel: bob is out of scope.
      const panel = live(
        [
          [1, 'alice', 1],
          [3, 'bob', 1],
        ],
        [
          [10, 'alice.example', 1],
          [12, 'moved.example', 1],
          [13, 'stray.example', 1],
        ],
      );
      const manifest = desired(
        { alice: { domains: ['alice.example'] }, bob: { domains: ['moved.example'] } },
        { prune: { domains: true, clients: true } },
      );
      const plan = diff(manifest, panel, { scope: ['alice'] });
      expect(ids(plan)).toEqual(['domain:stray.example']);
      expect(plan.conflicts).toEqual([]);
      // Listed, so not counted as unmanaged either.
      expect(plan.unmanaged).toEqual({ clients: [], domains: [] });
    });

    it('never deletes a client the manifest lists, in scope or out of it', () => {
      const manifest = desired({ alice: {}, bob: {} }, { prune: { clients: true } });
      expect(ids(diff(manifest, PANEL, { scope: ['*'] }))).toEqual(['client:alfred']);
      expect(ids(diff(manifest, PANEL, { scope: ['bob', 'alice'] }))).toEqual([]);
    });

    it('honours prune.keep for clients and domains', () => {
      const manifest = desired(
        { alice: { domains: ['alice.example'] } },
        { prune: { clients: true, domains: true, keep: ['alfred', 'extra-*.example'] } },
      );
      const plan = diff(manifest, PANEL, { scope: ['al*', 'b*'] });
      expect(ids(plan)).toEqual(['client:bob']);
      expect(plan.unmanaged).toEqual({
        clients: ['alfred'],
        domains: ['alfred.example', 'extra-alfred.example', 'extra-alice.example'],
      });
    });

    it('does not let a scoped delete take a domain the manifest lists under an out-of-scope client', () => {
      // shared.example is bob's in the manifest, carol's on the panel. Without a scope the plan
      // is refused (a conflict); scoped to carol, her delete must not take it silently.
      const panel = live(
        [
          [3, 'bob', 1],
          [4, 'carol', 1],
        ],
        [
          [30, 'bob.example', 3],
          [40, 'shared.example', 4],
        ],
      );
      const conflict = { domain: 'shared.example', client: 'bob', owner: 'carol' };
      for (const manifest of [
        desired({ bob: { domains: ['bob.example', 'shared.example'] } }, { prune: { clients: true } }),
        desired({ bob: { domains: ['bob.example', 'shared.example'] }, carol: { state: 'absent' } }),
      ]) {
        const whole = diff(manifest, panel);
        expect(ids(whole)).toEqual(['client:carol']);
        expect(whole.conflicts).toEqual([conflict]);
        const plan = diff(manifest, panel, { scope: ['carol'] });
        expect(plan.conflicts).toEqual([conflict]);
      }
    });
  });

  it('still finds a conflict for a domain of a matching client owned by an out-of-scope one', () => {
    const manifest = desired({ alice: { domains: ['alice.example', 'bob.example'] }, bob: {} });
    const plan = diff(manifest, PANEL, { scope: ['alice'] });
    expect(plan.conflicts).toEqual([{ domain: 'bob.example', client: 'alice', owner: 'bob' }]);
    expect(ids(plan)).toEqual([]);
  });

  it('deletes a client marked absent when it matches, not when it does not', () => {
    const manifest = desired({ alice: { state: 'absent' }, bob: { state: 'absent' } });
    expect(ids(diff(manifest, PANEL))).toEqual(['client:alice', 'client:bob']);
    expect(ids(diff(manifest, PANEL, { scope: ['alice'] }))).toEqual(['client:alice']);
    expect(ids(diff(manifest, PANEL, { scope: ['b*'] }))).toEqual(['client:bob']);
    expect(ids(diff(manifest, PANEL, { scope: ['alfred'] }))).toEqual([]);
  });

  it('counts as unmanaged only what is in the scope', () => {
    const manifest = desired({ alice: { domains: ['alice.example'] } });
    expect(diff(manifest, PANEL).unmanaged).toEqual({
      clients: ['alfred', 'bob'],
      domains: ['alfred.example', 'bob.example', 'extra-alfred.example', 'extra-alice.example', 'extra-bob.example'],
    });
    expect(diff(manifest, PANEL, { scope: ['alice'] }).unmanaged).toEqual({
      clients: [],
      domains: ['extra-alice.example'],
    });
    expect(diff(manifest, PANEL, { scope: ['alice', 'bob'] }).unmanaged).toEqual({
      clients: ['bob'],
      domains: ['bob.example', 'extra-alice.example', 'extra-bob.example'],
    });
    // A panel without a domain list: no domain count, scoped or not.
    const partial = live([[1, 'alice', 1]], [[10, 'alice.example', 1]], { domainsComplete: false });
    expect(diff(manifest, partial, { scope: ['alice'] }).unmanaged.domains).toBeUndefined();
  });

  describe('hosting plans', () => {
    const panelPlans: Live['hosting_plan'] = [
      { id: 1, name: 'Basic', objects: { resources: { domains: 5 } } },
      { id: 2, name: 'Unused', objects: { resources: { domains: 1 } } },
    ];
    const panel: Live = { ...live([[1, 'alice', 1, { email: 'old@example.com' }]]), hosting_plan: panelPlans };

    it('are left alone: no create, update or delete, even with prune.hosting_plans', () => {
      const manifest = withPlans(
        desired({ alice: { plan: 'Basic', email: 'a@example.com' } }),
        [
          { name: 'Basic', state: 'present', wants: { resources: { domains: 50 } } },
          { name: 'Pro', state: 'present', wants: { resources: { domains: 20 } } },
        ],
        { hostingPlans: true },
      );
      expect(ids(diff(manifest, panel))).toEqual([
        'hosting_plan:Basic',
        'hosting_plan:Pro',
        'client:alice',
        'hosting_plan:Unused',
      ]);
      const plan = diff(manifest, panel, { scope: ['alice'] });
      expect(ids(plan)).toEqual(['client:alice']);
      expect(plan.changes.some((c) => c.type === 'hosting_plan')).toBe(false);
      expect(plan.changes[0]?.dependsOn).toEqual([]);
      expect(plan.unmanaged.hostingPlans).toBeUndefined();
      expect(plan.conflicts).toEqual([]);
      // Scoped to nobody: still none.
      expect(ids(diff(manifest, panel, { scope: ['nobody'] }))).toEqual([]);
    });

    it('a state: absent plan is not deleted', () => {
      const manifest = withPlans(desired({ alice: {} }), [{ name: 'Unused', state: 'absent', wants: {} }]);
      expect(ids(diff(manifest, panel))).toEqual(['hosting_plan:Unused']);
      expect(ids(diff(manifest, panel, { scope: ['alice'] }))).toEqual([]);
    });

    it('a matching client on a plan only the manifest defines is refused: apply without --clients first', () => {
      const manifest = withPlans(desired({ alice: { plan: 'Pro' }, bob: { plan: 'Basic' } }), [
        { name: 'Pro', state: 'present', wants: { resources: { domains: 20 } } },
      ]);
      expect(ids(diff(manifest, panel))).toEqual(['hosting_plan:Pro', 'client:alice', 'client:bob']);
      const err = thrown(() => diff(manifest, panel, { scope: ['alice'] }));
      expect(err.code).toBe('unknown_hosting_plan');
      expect(err.hint).toContain('apply without --clients first');
      expect(err.details.join('\n') + err.message).not.toContain('bob');
      // bob is on a plan the panel has: his scoped plan goes ahead.
      expect(ids(diff(manifest, panel, { scope: ['bob'] }))).toEqual(['client:bob']);
    });

    it('a matching client created on, or moved to, a plan the manifest changes is refused: it would keep the old copy', () => {
      const plans: DesiredHostingPlan[] = [{ name: 'Unused', state: 'present', wants: { resources: { domains: 9 } } }];
      // alice moves from Basic to Unused, which the manifest updates; carol is created on it.
      for (const manifest of [
        withPlans(desired({ alice: { plan: 'Unused' } }), plans),
        withPlans(desired({ alice: {}, carol: { plan: 'Unused' } }), plans),
      ]) {
        const full = diff(manifest, panel);
        expect(full.changes.find((c) => c.type === 'client')?.dependsOn).toEqual(['hosting_plan:Unused']);
        const err = thrown(() => diff(manifest, panel, { scope: ['alice', 'carol'] }));
        expect(err.code).toBe('plan_conflict');
        expect(err.message).toContain('the manifest changes the plan 1 client would be put on');
        expect([...err.details, ...err.located.map((l) => l.message)]).toEqual([
          expect.stringMatching(/^client "(alice|carol)" on hosting plan "Unused"$/),
        ]);
        expect(err.hint).toContain('apply without --clients first');
      }
      // A plan the manifest leaves as the panel has it: the scoped move goes ahead.
      const same = withPlans(desired({ alice: { plan: 'Unused' } }), [
        { name: 'Unused', state: 'present', wants: { resources: { domains: 1 } } },
      ]);
      expect(ids(diff(same, panel, { scope: ['alice'] }))).toEqual(['client:alice']);
    });

    it('a matching client on a plan nobody defines is refused with the usual hint', () => {
      const manifest = desired({ alice: { plan: 'Gold' } });
      const err = thrown(() => diff(manifest, panel, { scope: ['alice'] }));
      expect(err.code).toBe('unknown_hosting_plan');
      expect(err.hint).not.toContain('--clients');
      expect(err.hint).toContain('"Basic"');
    });

    it('an out-of-scope client on an unknown plan does not fail the scoped plan', () => {
      const manifest = desired({ alice: { email: 'a@example.com' }, bob: { plan: 'Nonesuch' } });
      expect(thrown(() => diff(manifest, panel)).code).toBe('unknown_hosting_plan');
      expect(ids(diff(manifest, panel, { scope: ['alice'] }))).toEqual(['client:alice']);
    });
  });
});
