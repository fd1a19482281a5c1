import { describe, expect, it } from 'vitest';
import { fingerprintNow, viewOf } from '../../src/api/prepare.js';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint } from '../../src/plan/fingerprint.js';
import type { CreateClient, CreateDomain } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';

const DESIRED = desired({
  alice: { plan: 'Basic', domains: ['alice.example', 'shop.alice.example'] },
  bob: { plan: 'Basic', domains: ['bob.example'] },
  carol: { domains: ['carol.example'] },
});
const SOURCE = {
  panelUrl: 'https://panel.example',
  manifest: 'm.yaml',
  manifestSha256: 'sha256:0',
  notes: [],
  showUnmanaged: false,
};

describe("a fresh plan's view: its fingerprint made when first read, once (memory: after the manifest is gone)", () => {
  it('is made from the panel as it is at the first read, then kept', () => {
    const before = live([[7, 'carol', 1]]);
    const after = live([
      [7, 'carol', 1],
      [9, 'alice'],
    ]);
    const plan = diff(DESIRED, before);
    const panel = { ...before };
    const view = viewOf(plan, panel, SOURCE);
    // The panel read moves between viewOf and the first read (nothing does so in a run):
    // the fingerprint is the one of the panel at the first read.
    Object.assign(panel, after);
    expect(view.fingerprint).toBe(planFingerprint(plan, after));
    expect(view.fingerprint).not.toBe(planFingerprint(plan, before));
    Object.assign(panel, before);
    expect(view.fingerprint).toBe(planFingerprint(plan, after));
  });

  it('fingerprintNow gives the view with its fingerprint as a plain value', () => {
    const panel = live([[7, 'carol', 1]]);
    const plan = diff(DESIRED, panel);
    const view = fingerprintNow(viewOf(plan, panel, SOURCE));
    expect(Object.getOwnPropertyDescriptor(view, 'fingerprint')).toMatchObject({
      value: planFingerprint(plan, panel),
    });
    expect(JSON.parse(JSON.stringify(view))).toMatchObject({ fingerprint: planFingerprint(plan, panel) });
  });
});

describe('lean creates: what many changes say alike, held once', () => {
  const plan = diff(DESIRED, live([[7, 'carol', 1]]));
  const clients = plan.changes.filter((c): c is CreateClient => c.type === 'client' && c.action === 'create');
  const domains = plan.changes.filter((c): c is CreateDomain => c.type === 'domain' && c.action === 'create');

  it('shares one frozen empty dependsOn among the changes that wait for nothing', () => {
    const [alice, bob] = clients;
    expect(alice?.dependsOn).toEqual([]);
    expect(Object.isFrozen(alice?.dependsOn)).toBe(true);
    expect(alice?.dependsOn).toBe(bob?.dependsOn);
  });

  it('shares one hosting plan reference among the clients on it', () => {
    const [alice, bob] = clients;
    expect(alice?.hostingPlan).toEqual({ name: 'Basic', id: 1 });
    expect(alice?.hostingPlan).toBe(bob?.hostingPlan);
  });

  it("makes a domain create's dependsOn exactly of the creates it waits for", () => {
    const byName = new Map(domains.map((d) => [d.name, d]));
    expect(byName.get('alice.example')?.dependsOn).toEqual(['client:alice']);
    expect(byName.get('shop.alice.example')?.dependsOn).toEqual(['client:alice', 'domain:alice.example']);
    expect(byName.get('shop.alice.example')?.parentDomain).toEqual({ name: 'alice.example', id: null });
    expect(byName.get('carol.example')?.dependsOn).toEqual([]);
  });
});
