/**
 * The kinds' diff rules, each asked on its own as the planner (plan/diff.ts) asks it while it walks
 * the tree (a client, its domains, their zones; hosting plans on their own): what each decides
 * from the part of the manifest and of the panel it is handed. The planner's own tests
 * (test/plan/) pin the plan these decisions make together, and its order.
 */
import { describe, expect, it } from 'vitest';
import { type ClientDiffView, diffClient, removeClient } from '../../src/kinds/client/diff-rule.js';
import { hostingPlans, type LiveClient } from '../../src/kinds/client/index.js';
import { diffDomain, unlistedDomains } from '../../src/kinds/domain/diff-rule.js';
import type { LiveDomain } from '../../src/kinds/domain.js';
import { hostingPlanLookalikes } from '../../src/kinds/hosting-plan/lookalikes.js';
import { conflictPlan, isPlanConflict } from '../../src/kinds/hosting-plan/changes.js';
import { plansCreated } from '../../src/kinds/hosting-plan/diff-rule.js';
import { diffNewZone, diffZone } from '../../src/kinds/zone/diff-rule.js';
import type { DesiredZone, LiveZone } from '../../src/kinds/zone.js';
import { clientScope } from '../../src/names.js';

const view = (complete: boolean): ClientDiffView => ({
  plans: hostingPlans([{ id: 1, name: 'Basic' }]),
  complete,
  domainNamesOf: () => ['alice.example'],
});
const alice: LiveClient = { id: 7, username: 'alice', idHostingPlan: 1, email: 'old@example.com' };
const domain = (over: Partial<LiveDomain> = {}): LiveDomain => ({
  id: 3,
  name: 'alice.example',
  idUser: 7,
  isSystem: false,
  ...over,
});
const zone = (over: Partial<LiveZone> = {}): LiveZone => ({
  records: [],
  isCustom: false,
  isDisabled: false,
  soa: {},
  dkim: undefined,
  digest: 'sha256:0',
  ...over,
});
const dns: DesiredZone = {
  records: [{ host: 'www', type: 'A', value: '192.0.2.1', ttl: 3600 }],
  prune: false,
  keep: [],
};

describe("the client's rule", () => {
  it('creates a client the panel lacks, updates what differs, and tells a field its record lacks', () => {
    const created = diffClient({ username: 'bob', state: 'present' }, undefined, view(true));
    expect([created.change?.action, created.descend]).toEqual(['create', true]);
    const updated = diffClient(
      { username: 'alice', state: 'present', email: 'new@example.com', suspended: true },
      alice,
      view(true),
    );
    expect([updated.change?.action, updated.unknowns, updated.descend]).toEqual(['update', ['suspended'], true]);
    expect(diffClient({ username: 'alice', state: 'present' }, alice, view(true)).change).toBeUndefined();
  });

  it('deletes a client marked absent with its domains (null when the panel cannot list them), and goes no deeper', () => {
    const gone = diffClient({ username: 'alice', state: 'absent' }, alice, view(true));
    expect([gone.change, gone.descend]).toMatchObject([{ action: 'delete', domainNames: ['alice.example'] }, false]);
    expect(removeClient(alice, view(false), 'not in the manifest (prune.clients)')).toMatchObject({
      domainNames: null,
      reason: 'not in the manifest (prune.clients)',
    });
    expect(diffClient({ username: 'bob', state: 'absent' }, undefined, view(true))).toEqual({
      change: undefined,
      unknowns: [],
      descend: false,
    });
  });
});

describe("the domain's rule", () => {
  const owner = { username: 'alice', live: alice };
  const names = (id: number): string => (id === 8 ? 'bob' : `#${id}`);

  it('creates one the panel lacks, and plans nothing of one marked absent that it lacks', () => {
    expect(diffDomain({ name: 'a.example', state: 'present' }, owner, undefined, names)).toEqual({ action: 'create' });
    expect(diffDomain({ name: 'a.example', state: 'absent' }, owner, undefined, names)).toEqual({ action: 'none' });
  });

  it('is a conflict when another client owns it, listed or absent alike, or when its client is not on the panel', () => {
    for (const state of ['present', 'absent'] as const)
      expect(diffDomain({ name: 'alice.example', state }, owner, domain({ idUser: 8 }), names)).toEqual({
        action: 'conflict',
        conflict: { domain: 'alice.example', client: 'alice', owner: 'bob' },
      });
    expect(
      diffDomain({ name: 'alice.example', state: 'present' }, { username: 'alice', live: undefined }, domain(), names),
    ).toMatchObject({ action: 'conflict', conflict: { owner: '#7' } });
  });

  it('deletes one marked absent, never a system domain; prune passes over system domains and unsaid ones', () => {
    expect(diffDomain({ name: 'alice.example', state: 'absent' }, owner, domain(), names)).toMatchObject({
      action: 'delete',
      change: { reason: 'state: absent in the manifest' },
    });
    expect(diffDomain({ name: 'alice.example', state: 'absent' }, owner, domain({ isSystem: true }), names)).toEqual({
      action: 'none',
    });
    const live = [
      domain({ name: 'a.example' }),
      domain({ name: 'b.example', isSystem: undefined }),
      domain({ name: 'c.example' }),
    ];
    expect(unlistedDomains(alice, live, (name) => name === 'c.example').map((d) => d.name)).toEqual(['a.example']);
  });

  it('keeps one of its client, with the update of the settings that differ', () => {
    const kept = diffDomain({ name: 'alice.example', state: 'present' }, owner, domain(), names);
    expect(kept).toMatchObject({ action: 'keep', change: undefined, unknowns: [] });
  });
});

describe("the zone's rule", () => {
  const at = { name: 'alice.example', id: 3, client: 'alice' };

  it("writes a new domain's zone after its create; an existing one's when its records differ, after the domain's update", () => {
    expect(diffNewZone({ name: 'a.example', client: 'alice' }, dns).change).toMatchObject({
      domainId: null,
      dependsOn: ['domain:a.example'],
    });
    expect(diffZone(at, dns, zone(), ['domain:alice.example']).change).toMatchObject({
      domainId: 3,
      dependsOn: ['domain:alice.example'],
    });
    expect(diffZone(at, { records: [], prune: false, keep: [] }, zone(), []).change).toBeUndefined();
  });

  it('is a conflict on a subdomain of the panel or a zone it serves no DNS for; nothing without a zone read', () => {
    expect(diffZone({ ...at, isSubdomain: true }, dns, zone(), []).conflicts).toEqual([
      { domain: 'alice.example', client: 'alice', owner: 'alice', dns: 'subdomain' },
    ]);
    expect(diffZone(at, dns, zone({ isDisabled: true }), []).conflicts).toMatchObject([{ dns: 'disabled' }]);
    expect(diffZone(at, dns, undefined, [])).toEqual({ change: undefined, conflicts: [] });
  });
});

describe("the hosting plan's rule and the scope", () => {
  it('creates the plans the manifest defines that the panel lacks, and tells its conflicts from the others', () => {
    const wanted = {
      hostingPlans: [
        { name: 'Basic', state: 'present' as const, wants: {} },
        { name: 'Gold', state: 'present' as const, wants: {} },
        { name: 'Old', state: 'absent' as const, wants: {} },
      ],
      prune: {},
      clients: [],
    };
    expect([...plansCreated(wanted, (name) => (name === 'Basic' ? {} : undefined))]).toEqual(['Gold']);
    const conflict = { hosting_plan: 'Basic', clients: ['alice'] };
    expect([isPlanConflict(conflict), conflictPlan(conflict)]).toEqual([true, 'Basic']);
    expect(isPlanConflict({ domain: 'a.example', client: 'alice', owner: 'bob' })).toBe(false);
  });

  it('warns of a created plan that looks like a panel plan, comparing names as the stage hands in', () => {
    const changes = [{ type: 'hosting_plan', action: 'create', name: 'BASIC' }];
    const look = { skeleton: (name: string) => name.toLowerCase(), oddCharacter: () => '' };
    expect(hostingPlanLookalikes(changes, [{ name: 'Basic' }], look)).toHaveLength(1);
    expect(hostingPlanLookalikes(changes, [{ name: 'Basic' }], { ...look, skeleton: (n) => n })).toEqual([]);
  });

  it('compiles --clients once: a compiled scope is handed on as it is', () => {
    const scope = clientScope(['a*']);
    expect([scope.covers('alice'), scope.covers('bob'), clientScope(scope) === scope]).toEqual([true, false, true]);
    expect([clientScope(undefined).patterns, clientScope(undefined).covers('anyone')]).toEqual([undefined, true]);
  });
});
