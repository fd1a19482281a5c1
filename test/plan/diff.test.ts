import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { diff } from '../../src/plan/diff.js';
import { requestFor } from '../../src/plan/requests.js';
import { desired, live } from '../helpers/builders.js';

const summary = (changes: readonly { id: string; dependsOn: readonly string[] }[]) =>
  changes.map((c) => (c.dependsOn.length === 0 ? c.id : `${c.id} <- ${c.dependsOn.join(', ')}`));

describe('diff', () => {
  it('creates a missing client and its domains, subdomain after its parent', () => {
    const plan = diff(
      desired({
        alice: {
          plan: 'Basic',
          email: 'a@example.com',
          domains: ['shop.alice.example', 'alice.example'],
        },
      }),
      live(),
    );
    expect(summary(plan.changes)).toEqual([
      'client:alice',
      'domain:alice.example <- client:alice',
      'domain:shop.alice.example <- client:alice, domain:alice.example',
    ]);
    expect(plan.changes[0]).toEqual({
      id: 'client:alice',
      action: 'create',
      type: 'client',
      name: 'alice',
      reason: 'not on the panel',
      dependsOn: [],
      hostingPlan: { name: 'Basic', id: 1 },
      email: 'a@example.com',
      sendLoginCredentials: false,
    });
    expect(plan.changes[2]).toMatchObject({
      client: 'alice',
      clientId: null,
      parent: 'alice.example',
      parentDomain: { name: 'alice.example', id: null },
    });
    expect(plan.conflicts).toEqual([]);
    expect(plan.unknowns).toEqual([]);
  });

  it('adds only the missing domain of an existing client, with its id', () => {
    const plan = diff(
      desired({ bob: { domains: ['bob.example', 'new.example'] } }),
      live([[7, 'bob']], [[70, 'bob.example', 7]]),
    );
    expect(summary(plan.changes)).toEqual(['domain:new.example']);
    expect(requestFor(plan.changes[0]!)).toEqual({
      method: 'POST',
      path: '/domains',
      body: { domain: 'new.example', id_user: 7 },
    });
  });

  it('does not wait for a parent domain that already exists', () => {
    const plan = diff(
      desired({ bob: { domains: ['bob.example', 'www.bob.example'] } }),
      live([[7, 'bob']], [[70, 'bob.example', 7]]),
    );
    expect(summary(plan.changes)).toEqual(['domain:www.bob.example']);
  });

  it('pulls a parent domain of a later client ahead of the subdomain that needs it', () => {
    const plan = diff(
      desired({ alice: { domains: ['shop.corp.example'] }, corp: { domains: ['corp.example'] } }),
      live(),
    );
    expect(summary(plan.changes)).toEqual([
      'client:alice',
      'client:corp',
      'domain:corp.example <- client:corp',
      'domain:shop.corp.example <- client:alice, domain:corp.example',
    ]);
  });

  it('uses the nearest parent created in the same run', () => {
    const plan = diff(desired({ a: { domains: ['x.y.a.example', 'a.example', 'y.a.example'] } }), live([[1, 'a']]));
    expect(summary(plan.changes)).toEqual([
      'domain:a.example',
      'domain:y.a.example <- domain:a.example',
      'domain:x.y.a.example <- domain:y.a.example',
    ]);
  });

  it('changes nothing on a converged panel, whatever else the panel has', () => {
    const plan = diff(
      desired({ alice: { plan: 'Standard', domains: ['alice.example'] } }),
      live(
        [
          [1, 'alice', 2],
          [2, 'zed'],
        ],
        [
          [10, 'alice.example', 1],
          [11, 'zed.example', 2],
          [12, 'alice.sys.example', 1, true],
        ],
      ),
    );
    expect(plan).toEqual({
      changes: [],
      conflicts: [],
      unknowns: [],
      unmanaged: { clients: ['zed'], domains: ['zed.example'] },
    });
  });

  it('reports a domain owned by another client as a conflict, not a change', () => {
    const plan = diff(
      desired({
        alice: { domains: ['taken.example', 'free.example'] },
        carol: { domains: ['orphan.example'] },
      }),
      live(
        [
          [1, 'alice'],
          [2, 'bob'],
        ],
        [
          [10, 'taken.example', 2],
          [11, 'orphan.example', 99],
        ],
      ),
    );
    expect(plan.conflicts).toEqual([
      { domain: 'taken.example', client: 'alice', owner: 'bob' },
      { domain: 'orphan.example', client: 'carol', owner: '#99' },
    ]);
    expect(summary(plan.changes)).toEqual(['domain:free.example', 'client:carol']);
  });

  it('updates a client on another plan, and notes a plan the record does not show', () => {
    const plan = diff(
      desired({ a: { plan: 'Basic' }, b: { plan: 'Basic' }, c: { plan: 'Basic' }, d: {} }),
      live([
        [1, 'a', 2],
        [2, 'b'],
        [3, 'c', 1],
        [4, 'd', 3],
      ]),
    );
    expect(plan.changes).toEqual([
      {
        id: 'client:a',
        action: 'update',
        type: 'client',
        name: 'a',
        clientId: 1,
        fields: [{ field: 'plan', before: 'Standard', after: 'Basic' }],
        hostingPlan: { name: 'Basic', id: 1 },
        reason: 'differs from the manifest',
        dependsOn: [],
      },
    ]);
    expect(plan.unknowns).toEqual([{ client: 'b', field: 'plan' }]);
  });

  it('leaves unmanaged domains unknown when the panel cannot list them', () => {
    const plan = diff(desired({}), live([[1, 'x']], [], { domainsComplete: false }));
    expect(plan.unmanaged).toEqual({ clients: ['x'], domains: undefined });
  });

  it('refuses unknown hosting plans all at once, with the closest name', () => {
    const d = desired({
      a: { plan: 'basic' },
      b: { plan: 'Premium' },
      c: { plan: 'basic' },
      e: { plan: 'Zzzzzzzz' },
    });
    let error: unknown;
    try {
      diff(d, live());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProvisionError);
    const e = error as ProvisionError;
    expect(e.code).toBe('unknown_hosting_plan');
    // The builders give no locations: the problems come as plain details.
    expect(e.details).toEqual([
      'hosting plan "basic" is not on the panel: did you mean "Basic"?',
      'hosting plan "Premium" is not on the panel: did you mean "Premium Plus"?',
      'hosting plan "Zzzzzzzz" is not on the panel',
    ]);
    expect(e.located).toEqual([]);
    expect(e.hint).toBe('the panel has: "Basic", "Premium Plus", "Standard" (names are case-sensitive)');
  });

  it('is deterministic', () => {
    const d = desired({
      b: { domains: ['b.example', 'x.b.example'] },
      a: { plan: 'Basic', domains: ['a.example'] },
    });
    const l = live([[5, 'zz']], [[1, 'q.example', 5]]);
    expect(JSON.stringify(diff(d, l))).toBe(JSON.stringify(diff(d, l)));
  });
});

describe('requestFor', () => {
  it('builds the POST bodies; id_user comes from the run when the client is new', () => {
    const plan = diff(desired({ alice: { plan: 'Premium Plus', domains: ['alice.example'] } }), live());
    const [client, domain] = plan.changes;
    expect(requestFor(client!)).toEqual({
      method: 'POST',
      path: '/clients',
      body: { username: 'alice', id_hosting_plan: 3, send_login_credentials: false },
    });
    expect(requestFor(domain!).body).toEqual({ domain: 'alice.example', id_user: null });
    expect(requestFor(domain!, new Map([['client:alice', 42]])).body).toEqual({
      domain: 'alice.example',
      id_user: 42,
    });
  });
});
