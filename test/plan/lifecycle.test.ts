/**
 * The planner over the whole life of an account, with in-memory builders: updates of the
 * managed fields, fields the panel does not show, deletes (state: absent), prune with keep,
 * and the order of it all. Each case states the exact changes expected, in order.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { massChanges, renameWarning, totals } from '../../src/plan/guards.js';
import { requestFor } from '../../src/plan/requests.js';
import { phaseOf, type Change } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';

const ids = (changes: readonly Change[]): string[] => changes.map((c) => `${c.action} ${c.id}`);

describe('updates', () => {
  it('sends only the managed fields that differ, by their manifest names', () => {
    const plan = diff(
      desired({
        alice: { plan: 'Standard', email: 'new@example.com', suspended: true },
        bob: { email: 'bob@example.com', suspended: false },
      }),
      live([
        [7, 'alice', 1, { email: 'old@example.com', suspended: false }],
        [8, 'bob', 3, { email: 'bob@example.com', suspended: false }],
      ]),
    );
    expect(plan.changes).toEqual([
      {
        id: 'client:alice',
        action: 'update',
        type: 'client',
        name: 'alice',
        clientId: 7,
        reason: 'differs from the manifest',
        dependsOn: [],
        fields: [
          { field: 'plan', before: 'Basic', after: 'Standard' },
          { field: 'email', before: 'old@example.com', after: 'new@example.com' },
          { field: 'suspended', before: false, after: true },
        ],
        hostingPlan: { name: 'Standard', id: 2 },
      },
    ]);
    expect(requestFor(plan.changes[0]!)).toEqual({
      method: 'PUT',
      path: '/clients/7',
      body: { id_hosting_plan: 2, email: 'new@example.com', is_suspended: true },
    });
    expect(plan.unknowns).toEqual([]);
  });

  it('never compares a field the manifest leaves out, and reads "none" as none', () => {
    const none = live([
      [1, 'a', null, { email: null, suspended: false }],
      [2, 'b', 2, { email: 'x@example.com', suspended: true }],
    ]);
    expect(diff(desired({ a: {}, b: {} }), none).changes).toEqual([]);
    const plan = diff(desired({ a: { plan: 'Basic', email: 'a@example.com' } }), none);
    expect(plan.changes.map((c) => (c.action === 'update' && c.type === 'client' ? c.fields : []))).toEqual([
      [
        { field: 'plan', before: null, after: 'Basic' },
        { field: 'email', before: null, after: 'a@example.com' },
      ],
    ]);
  });

  it('names a plan id the panel does not list as #id', () => {
    const plan = diff(desired({ a: { plan: 'Basic' } }), live([[1, 'a', 42]]));
    expect(plan.changes[0]).toMatchObject({
      fields: [{ field: 'plan', before: '#42', after: 'Basic' }],
    });
  });

  it('turns a field the panel shows nowhere into an unknown, never a change', () => {
    const plan = diff(
      desired({ a: { plan: 'Basic', email: 'a@example.com', suspended: true } }),
      live([[1, 'a', undefined]]),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.unknowns).toEqual([
      { client: 'a', field: 'plan' },
      { client: 'a', field: 'email' },
      { client: 'a', field: 'suspended' },
    ]);
  });

  it('creates a new client with its managed fields in the POST', () => {
    const plan = diff(desired({ a: { plan: 'Basic', email: 'a@example.com', suspended: true } }), live());
    expect(requestFor(plan.changes[0]!)).toEqual({
      method: 'POST',
      path: '/clients',
      body: {
        username: 'a',
        id_hosting_plan: 1,
        email: 'a@example.com',
        is_suspended: true,
        send_login_credentials: false,
      },
    });
  });
});

describe('deletes', () => {
  it('deletes a client marked absent, counting the domains that go with it (system domains aside)', () => {
    const plan = diff(
      desired({ bob: { state: 'absent' }, gone: { state: 'absent' } }),
      live(
        [[9, 'bob']],
        [
          [90, 'bob.example', 9],
          [91, 'www.bob.example', 9],
          [92, 'bob.sys.example', 9, true],
        ],
      ),
    );
    expect(plan.changes).toEqual([
      {
        id: 'client:bob',
        action: 'delete',
        type: 'client',
        name: 'bob',
        clientId: 9,
        domainNames: ['bob.example', 'www.bob.example'],
        reason: 'state: absent in the manifest',
        dependsOn: [],
      },
    ]);
    expect(requestFor(plan.changes[0]!)).toEqual({
      method: 'DELETE',
      path: '/clients/9',
      body: null,
    });
    // What goes with the client is not unmanaged: it is part of the change.
    expect(plan.unmanaged).toEqual({ clients: [], domains: [] });
  });

  it("deletes a domain marked absent from its client; another owner's is a conflict; a gone one is no change", () => {
    const plan = diff(
      desired({
        alice: {
          domains: [
            'alice.example',
            { name: 'old.alice.example', state: 'absent' },
            { name: 'bob.example', state: 'absent' },
            { name: 'never.example', state: 'absent' },
          ],
        },
      }),
      live(
        [
          [1, 'alice'],
          [2, 'bob'],
        ],
        [
          [10, 'alice.example', 1],
          [11, 'old.alice.example', 1],
          [20, 'bob.example', 2],
        ],
      ),
    );
    expect(plan.changes).toEqual([
      {
        id: 'domain:old.alice.example',
        action: 'delete',
        type: 'domain',
        name: 'old.alice.example',
        domainId: 11,
        client: 'alice',
        clientId: 1,
        reason: 'state: absent in the manifest',
        dependsOn: [],
        subdomains: [],
      },
    ]);
    expect(plan.conflicts).toEqual([{ domain: 'bob.example', client: 'alice', owner: 'bob' }]);
  });

  it('refuses to delete a domain whose subdomains stay: a conflict naming them, and no change', () => {
    const plan = diff(
      desired({
        a: {
          domains: [
            { name: 'x.example', state: 'absent' },
            { name: 'a.x.example', state: 'absent' },
            'b.a.x.example',
            { name: 'y.example', state: 'absent' },
          ],
        },
      }),
      live(
        [
          [1, 'a'],
          [2, 'b'],
        ],
        [
          [10, 'x.example', 1],
          [11, 'a.x.example', 1],
          [12, 'b.a.x.example', 1],
          [13, 'y.example', 1],
          [14, 'other.y.example', 2],
          [15, 'sys.y.example', 1, true],
        ],
      ),
    );
    expect(ids(plan.changes)).toEqual(['delete domain:y.example']);
    expect(plan.conflicts).toEqual([
      { domain: 'x.example', client: 'a', owner: 'a', subdomains: ['b.a.x.example'] },
      { domain: 'a.x.example', client: 'a', owner: 'a', subdomains: ['b.a.x.example'] },
    ]);
  });

  it('refuses to delete a domain under which the plan creates a subdomain for the same client', () => {
    const plan = diff(
      desired({ gina: { domains: ['shop.two.example'] } }, { prune: { domains: true } }),
      live([[1, 'gina']], [[10, 'two.example', 1]]),
    );
    expect(ids(plan.changes)).toEqual(['create domain:shop.two.example']);
    expect(plan.conflicts).toEqual([
      { domain: 'two.example', client: 'gina', owner: 'gina', subdomains: ['shop.two.example'] },
    ]);
  });

  it('never deletes a system domain, even marked absent', () => {
    const plan = diff(
      desired({ a: { domains: [{ name: 'a.sys.example', state: 'absent' }] } }, { prune: { domains: true } }),
      live([[1, 'a']], [[10, 'a.sys.example', 1, true]]),
    );
    expect(plan.changes).toEqual([]);
  });
});

describe('prune', () => {
  const panel = live(
    [
      [1, 'alice'],
      [2, 'legacy-1'],
      [3, 'zed'],
    ],
    [
      [10, 'alice.example', 1],
      [11, 'x.alice.example', 1],
      [12, 'keep.alice.example', 1],
      [13, 'alice.sys.example', 1, true],
      [20, 'legacy.example', 2],
      [30, 'zed.example', 3],
      [31, 'shop.zed.example', 3],
    ],
  );

  it('deletes nothing for being unlisted without prune', () => {
    const plan = diff(desired({ alice: { domains: ['alice.example'] } }), panel);
    expect(plan.changes).toEqual([]);
    expect(plan.unmanaged).toEqual({
      clients: ['legacy-1', 'zed'],
      domains: ['keep.alice.example', 'legacy.example', 'shop.zed.example', 'x.alice.example', 'zed.example'],
    });
  });

  it("prune.domains deletes a listed client's unlisted domains, not a keep match, not a system domain, not other clients' domains", () => {
    const plan = diff(
      desired({ alice: { domains: ['alice.example'] } }, { prune: { domains: true, keep: ['keep.*'] } }),
      panel,
    );
    expect(ids(plan.changes)).toEqual(['delete domain:x.alice.example']);
    expect(plan.changes[0]).toMatchObject({ reason: 'not in the manifest (prune.domains)' });
  });

  it('prune.clients deletes unlisted clients (sorted), not a keep match; their domains go with them', () => {
    const plan = diff(
      desired({ alice: { domains: ['alice.example'] } }, { prune: { clients: true, keep: ['legacy-*'] } }),
      panel,
    );
    expect(plan.changes).toEqual([
      {
        id: 'client:zed',
        action: 'delete',
        type: 'client',
        name: 'zed',
        clientId: 3,
        domainNames: ['shop.zed.example', 'zed.example'],
        reason: 'not in the manifest (prune.clients)',
        dependsOn: [],
      },
    ]);
    expect(plan.unmanaged).toEqual({
      clients: ['legacy-1'],
      domains: ['keep.alice.example', 'legacy.example', 'x.alice.example'],
    });
  });
});

describe('order', () => {
  it("puts creates and updates first in manifest order, deletes last, a subdomain's delete before its parent's", () => {
    const plan = diff(
      desired(
        {
          old: { state: 'absent' },
          alice: { suspended: true, domains: ['alice.example', 'new.alice.example'] },
          bob: { domains: ['bob.example'] },
        },
        { prune: { domains: true } },
      ),
      live(
        [
          [1, 'alice', 1, { suspended: false }],
          [2, 'old'],
        ],
        [
          [10, 'alice.example', 1],
          [11, 'x.alice.example', 1],
          [12, 'a.x.alice.example', 1],
          [13, 'b.a.x.alice.example', 1],
          [20, 'old.example', 2],
        ],
      ),
    );
    expect(ids(plan.changes)).toEqual([
      'update client:alice',
      'create domain:new.alice.example',
      'create client:bob',
      'create domain:bob.example',
      'delete domain:b.a.x.alice.example',
      'delete domain:a.x.alice.example',
      'delete domain:x.alice.example',
      'delete client:old',
    ]);
    expect(plan.changes.map(phaseOf)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(plan.changes.find((c) => c.id === 'domain:x.alice.example')?.dependsOn).toEqual([
      'domain:a.x.alice.example',
    ]);
    expect(plan.changes.find((c) => c.id === 'domain:b.a.x.alice.example')?.dependsOn).toEqual([]);
  });
});

describe('guards', () => {
  const plan = diff(
    desired({
      bob: { state: 'absent' },
      robert: {},
      alice: { domains: [{ name: 'a.example', state: 'absent' }] },
    }),
    live(
      [
        [1, 'bob'],
        [2, 'alice'],
      ],
      [
        [10, 'bob.example', 1],
        [11, 'www.bob.example', 1],
        [12, 'bob.sys.example', 1, true],
        [20, 'a.example', 2],
      ],
    ),
  );

  it('counts a deleted client once plus once per domain that goes with it', () => {
    expect(totals(plan)).toEqual({ creates: 1, deletes: 4, uncounted: 0 });
    expect(
      massChanges(plan, {
        maxCreates: 100,
        allowMassCreate: false,
        maxDeletes: 3,
        allowMassDelete: false,
      }),
    ).toEqual([
      'this plan deletes 4 resources (a client counts with each of its domains, a zone each record it removes), more than the limit of 3 (--max-deletes): apply refuses it without --allow-mass-delete',
    ]);
    expect(
      massChanges(plan, {
        maxCreates: 100,
        allowMassCreate: false,
        maxDeletes: 4,
        allowMassDelete: false,
      }),
    ).toEqual([]);
    expect(
      massChanges(plan, {
        maxCreates: 0,
        allowMassCreate: true,
        maxDeletes: 0,
        allowMassDelete: true,
      }),
    ).toEqual([]);
  });

  it('warns that deleting a client and creating another looks like a rename', () => {
    expect(renameWarning(plan)).toBe(
      'this plan deletes 1 client ("bob") and creates 1 client ("robert"): if this is meant as a rename, the panel cannot rename (usernames are identities): the new account starts empty and the deleted one loses its mail, databases and files',
    );
    expect(renameWarning(diff(desired({ robert: {} }), live()))).toBeUndefined();
  });
});
