/**
 * Properties over random panels and manifests (fast-check). Pure properties run many cases;
 * the apply-then-plan property runs the real CLI against the simulator over loopback, so it
 * runs fewer. Seeds are printed by fast-check on failure, so a failure can be replayed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseManifest } from '../../src/manifest/index.js';
import { loadManifestFile as loadManifest } from '../helpers/manifest.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { ProvisionError } from '../../src/errors.js';
import { assertNever } from '../../src/util.js';
import { desired, live, PLANS } from '../helpers/builders.js';
import { panel, run } from '../helpers/cli.js';

// Small name pools, so that random manifests and panels overlap often.
const username = fc.constantFrom('alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina');
const domainName = fc
  .tuple(fc.constantFrom('', 'www.', 'shop.', 'a.b.'), fc.constantFrom('one', 'two', 'three', 'four'), fc.constantFrom('.example', '.test'))
  .map(([sub, name, tld]) => `${sub}${name}${tld}`);
const planName = fc.constantFrom(undefined, 'Basic', 'Standard', 'Premium Plus');

/** A valid manifest: unique usernames, each domain under one client at most. */
const manifestClients = fc
  .uniqueArray(fc.record({ username, plan: planName, domains: fc.uniqueArray(domainName, { maxLength: 5 }) }), { selector: (c) => c.username, maxLength: 6 })
  .map((clients) => {
    const seen = new Set<string>();
    return clients.map((c) => ({ ...c, domains: c.domains.filter((d) => !seen.has(d) && seen.add(d)) }));
  });

/** A live panel: clients with ids, domains owned by any of them (or by an unknown id). */
const livePanel = fc
  .tuple(
    fc.uniqueArray(fc.tuple(username, fc.constantFrom(undefined, 1, 2, 3)), { selector: ([u]) => u, maxLength: 6 }),
    fc.uniqueArray(fc.tuple(domainName, fc.nat(7), fc.boolean()), { selector: ([d]) => d, maxLength: 12 }),
  )
  .map(([clients, domains]) =>
    live(
      clients.map(([u, p], i) => [i + 1, u, p]),
      domains.map(([d, owner, system], i) => [100 + i, d, owner, system]),
    ),
  );

function toDesired(clients: { username: string; plan: string | undefined; domains: string[] }[]) {
  return desired(Object.fromEntries(clients.map((c) => [c.username, { ...(c.plan === undefined ? {} : { plan: c.plan }), domains: c.domains }])));
}

describe('planner properties', () => {
  it('orders every change after everything it depends on', () => {
    fc.assert(
      fc.property(manifestClients, livePanel, (clients, l) => {
        const plan = diff(toDesired(clients), l);
        const seen = new Set<string>();
        for (const change of plan.changes) {
          for (const dep of change.dependsOn) {
            expect(seen.has(dep), `${change.id} before ${dep}`).toBe(true);
          }
          seen.add(change.id);
        }
        expect(seen.size).toBe(plan.changes.length);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same bytes however the panel orders its lists', () => {
    fc.assert(
      fc.property(manifestClients, livePanel, fc.integer(), (clients, l, seed) => {
        const d = toDesired(clients);
        const shuffle = <T>(items: readonly T[]): T[] => {
          const out = [...items];
          let state = seed;
          for (let i = out.length - 1; i > 0; i--) {
            state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
            const j = Math.abs(state) % (i + 1);
            [out[i], out[j]] = [out[j]!, out[i]!];
          }
          return out;
        };
        const shuffled = { ...l, clients: shuffle(l.clients), domains: shuffle(l.domains), hostingPlans: shuffle(l.hostingPlans) };
        expect(JSON.stringify(diff(d, shuffled))).toBe(JSON.stringify(diff(d, l)));
        expect(JSON.stringify(diff(d, l))).toBe(JSON.stringify(diff(d, l)));
      }),
      { numRuns: 300 },
    );
  });

  it('plans nothing once the panel holds what the plan creates', () => {
    fc.assert(
      fc.property(manifestClients, livePanel, (clients, l) => {
        const d = toDesired(clients);
        const plan = diff(d, l);
        const after = simulateApply(plan, l);
        const again = diff(d, after);
        expect(again.changes).toEqual([]);
        expect(again.conflicts).toEqual(plan.conflicts);
      }),
      { numRuns: 500 },
    );
  });
});

/** What the panel looks like after every change of `plan` succeeded (conflicts left as they are). */
function simulateApply(plan: Plan, l: ReturnType<typeof live>): ReturnType<typeof live> {
  let clients = [...l.clients];
  let domains = [...l.domains];
  let nextId = 1000;
  const idOf = new Map(clients.map((c) => [c.username, c.id]));
  for (const change of plan.changes) {
    switch (change.action) {
      case 'create':
        switch (change.type) {
          case 'client': {
            const id = nextId++;
            idOf.set(change.name, id);
            clients.push({ id, username: change.name, idHostingPlan: change.hostingPlan?.id ?? PLANS[0]?.id, email: change.email ?? null, suspended: change.suspended ?? false });
            break;
          }
          case 'domain':
            domains.push({ id: nextId++, name: change.name, idUser: change.clientId ?? idOf.get(change.client) ?? -1, isSystem: false });
            break;
          default:
            assertNever(change);
        }
        break;
      case 'update':
        clients = clients.map((c) => {
          if (c.id !== change.clientId) return c;
          let next = { ...c };
          for (const f of change.fields) {
            if (f.field === 'plan') next = { ...next, idHostingPlan: change.hostingPlan?.id };
            else if (f.field === 'email') next = { ...next, email: f.after };
            else next = { ...next, suspended: f.after };
          }
          return next;
        });
        break;
      case 'delete':
        if (change.type === 'client') {
          clients = clients.filter((c) => c.id !== change.clientId);
          domains = domains.filter((d) => d.idUser !== change.clientId);
        } else {
          domains = domains.filter((d) => d.id !== change.domainId);
        }
        break;
      default:
        assertNever(change);
    }
  }
  return { ...l, clients, domains };
}

describe('apply then plan, through the CLI and the simulator', () => {
  it('converges: after apply, plan shows no changes (or apply refused conflicts and sent nothing)', async () => {
    await fc.assert(
      fc.asyncProperty(
        manifestClients,
        fc.uniqueArray(fc.record({ username, domains: fc.uniqueArray(domainName, { maxLength: 4 }) }), { selector: (c) => c.username, maxLength: 5 }),
        async (clients, seedClients) => {
          const seen = new Set<string>();
          const seed = seedClients.map((c) => ({ username: c.username, domains: c.domains.filter((d) => !seen.has(d) && seen.add(d)) }));
          const p = await panel({ seed: { clients: seed } });
          try {
            const file = join(p.dir, 'manifest.yaml');
            await writeFile(file, stringify({ version: 1, clients: clients.map((c) => ({ username: c.username, ...(c.plan === undefined ? {} : { plan: c.plan }), domains: c.domains })) }));
            const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
            const applied = await run(['apply', file, '--auto-approve'], env);
            if (applied.code !== 0) {
              expect(applied.stderr).toMatch(/belong(s)? to another client/);
              expect(p.posts()).toEqual([]);
              return;
            }
            const planned = await run(['plan', file, '--detailed-exitcode'], env);
            expect(planned.code, planned.stdout + planned.stderr).toBe(0);
          } finally {
            await p.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('no manifest makes validate crash or hang', () => {
  const check = (text: string): void => {
    const result = parseManifest(text, 'm.yaml');
    if (result.desired === undefined) {
      expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    }
    for (const d of result.diagnostics) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
      expect(d.message).not.toBe('');
      expect(d.message).not.toContain('\n');
    }
  };

  it('random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400, unit: 'binary' }), check), { numRuns: 400 });
  });

  it('random YAML of any shape, near and far from a manifest', () => {
    const value = fc.jsonValue({ maxDepth: 5 });
    const nearManifest = fc.record({ version: fc.oneof(fc.constant(1), value), clients: fc.array(fc.oneof(value, fc.dictionary(fc.constantFrom('username', 'plan', 'email', 'domains', 'x'), value)), { maxLength: 5 }) });
    fc.assert(fc.property(fc.oneof(value, nearManifest), (v) => {
      check(stringify(v));
    }), { numRuns: 400 });
  });

  it('deep nesting, huge documents, alias bombs', () => {
    for (const text of [
      '['.repeat(5000),
      `${'- '.repeat(2000)}x`,
      `version: 1\nclients:\n${'  - username: u\n'.repeat(3)}`,
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      `version: 1\nclients:\n  - username: ${'a'.repeat(200_000)}\n`,
    ]) {
      check(text);
    }
  });

  it('invalid UTF-8 bytes anywhere', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provision-utf8-'));
    try {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
          const file = join(dir, 'm.yaml');
          await writeFile(file, bytes);
          try {
            const result = await loadManifest(file);
            for (const d of result.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
          } catch (error) {
            expect(error).toBeInstanceOf(ProvisionError);
          }
        }),
        { numRuns: 200 },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
