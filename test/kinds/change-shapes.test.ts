/**
 * The creates the planner makes hold less than plain literals did (docs/benchmarks.md, "Leaner
 * changes"): a domain's `dependsOn`, and a subdomain's `parentDomain` that names its parent, are
 * made when read; a client's create has its fields in the object itself. What
 * any reader sees stays what the plain objects said: the same values, the same keys in the same
 * order, the same JSON, the same spread.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/kinds/client/changes.js';
import { hostingPlans } from '../../src/kinds/client/fields.js';
import { createDomain } from '../../src/kinds/domain.js';

/** The domain create as a plain literal used to make it, keys in its order. */
function plainDomain(fields: {
  name: string;
  client: string;
  clientId: number | null;
  dependsOn: string[];
  parent?: string;
  parentDomain?: { name: string; id: number | null };
  settings?: object;
}): Record<string, unknown> {
  const { name, client, clientId, dependsOn, parent, parentDomain, settings } = fields;
  return {
    id: `domain:${name}`,
    action: 'create',
    type: 'domain',
    name,
    client,
    clientId,
    reason: 'not on the panel',
    dependsOn,
    ...(parent === undefined ? {} : { parent }),
    ...(parentDomain === undefined ? {} : { parentDomain }),
    ...(settings === undefined ? {} : { settings }),
  };
}

function seenAs(change: object, plain: Record<string, unknown>): void {
  expect(Object.keys(change)).toEqual(Object.keys(plain));
  expect(JSON.stringify(change)).toBe(JSON.stringify(plain));
  expect({ ...change }).toEqual(plain);
  for (const [key, value] of Object.entries(plain)) expect((change as Record<string, unknown>)[key]).toEqual(value);
}

describe("the planner's creates", () => {
  it('a domain create reads, spreads and writes as the plain object it was', () => {
    seenAs(
      createDomain('alice.example', 'alice', null),
      plainDomain({ name: 'alice.example', client: 'alice', clientId: null, dependsOn: ['client:alice'] }),
    );
    seenAs(
      createDomain('alice.example', 'alice', 7, undefined, { php_version: '8.3' }),
      plainDomain({
        name: 'alice.example',
        client: 'alice',
        clientId: 7,
        dependsOn: [],
        settings: { php_version: '8.3' },
      }),
    );
    // A subdomain under the parent it waits for: its parentDomain made when read.
    seenAs(
      createDomain('s1.alice.example', 'alice', null, 'alice.example', undefined, { name: 'alice.example', id: null }),
      plainDomain({
        name: 's1.alice.example',
        client: 'alice',
        clientId: null,
        dependsOn: ['client:alice', 'domain:alice.example'],
        parent: 'alice.example',
        parentDomain: { name: 'alice.example', id: null },
      }),
    );
    // Under a parent on the panel, and under one of the run that is not the parent it waits for.
    seenAs(
      createDomain('s1.alice.example', 'alice', 7, undefined, undefined, { name: 'alice.example', id: 70 }),
      plainDomain({
        name: 's1.alice.example',
        client: 'alice',
        clientId: 7,
        dependsOn: [],
        parentDomain: { name: 'alice.example', id: 70 },
      }),
    );
    seenAs(
      createDomain(
        'a.b.alice.example',
        'alice',
        7,
        'b.alice.example',
        { php_version: '8.2' },
        {
          name: 'alice.example',
          id: null,
        },
      ),
      plainDomain({
        name: 'a.b.alice.example',
        client: 'alice',
        clientId: 7,
        dependsOn: ['domain:b.alice.example', 'domain:alice.example'],
        parent: 'b.alice.example',
        parentDomain: { name: 'alice.example', id: null },
        settings: { php_version: '8.2' },
      }),
    );
  });

  it("each create's dependsOn is its own, read in any order", () => {
    const top = createDomain('alice.example', 'alice', null);
    const sub = createDomain('s1.alice.example', 'alice', null, 'alice.example', undefined, {
      name: 'alice.example',
      id: null,
    });
    const other = createDomain('bob.example', 'bob', 8);
    for (let i = 0; i < 2; i++) {
      expect(top.dependsOn).toEqual(['client:alice']);
      expect(sub.dependsOn).toEqual(['client:alice', 'domain:alice.example']);
      expect(sub.dependsOn).toEqual(['client:alice', 'domain:alice.example']);
      expect(other.dependsOn).toEqual([]);
    }
    expect({ ...sub, dependsOn: [...sub.dependsOn, 'domain:x.example'] }.dependsOn).toEqual([
      'client:alice',
      'domain:alice.example',
      'domain:x.example',
    ]);
  });

  it('a client create writes only the fields given, in the order of the table', () => {
    const plans = hostingPlans([{ id: 3, name: 'Basic' }]);
    const create = createClient('alice', { plan: 'Basic', email: 'a@example.com' }, plans);
    expect(JSON.stringify(create)).toBe(
      JSON.stringify({
        id: 'client:alice',
        action: 'create',
        type: 'client',
        name: 'alice',
        reason: 'not on the panel',
        dependsOn: [],
        hostingPlan: { name: 'Basic', id: 3 },
        email: 'a@example.com',
        sendLoginCredentials: false,
      }),
    );
    expect(Object.keys(create)).toEqual([
      'id',
      'action',
      'type',
      'name',
      'reason',
      'dependsOn',
      'hostingPlan',
      'email',
      'sendLoginCredentials',
    ]);
  });
});
