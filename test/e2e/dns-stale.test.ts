/**
 * The stale-zone path through the CLI: a zone that changes between the plan's read and apply's
 * read just before its PUT fails alone, naming what changed, gets no PUT, and the other zones
 * are written (exit 1); a saved plan whose zone changed before `apply plan.json` is refused as a
 * whole (exit 3) and nothing at all is sent. Whole-object writes: a zone change waits for a
 * subdomain's create in the same apply and keeps the record it added; a PUT answered 503 after it
 * landed is not resent, so an ACME record written since stays.
 */
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

const DOMAINS = ['alice.example', 'bob.example', 'carol.example'];

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
${DOMAINS.map(
  (name) => `      - name: ${name}
        dns:
          records:
            - {host: www, type: A, value: 192.0.2.7}
`,
).join('')}`;

const SEED: SimulatorSeed = {
  clients: [
    {
      username: 'alice',
      domains: DOMAINS.map((name) => ({
        name,
        dns: { records: [{ host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 }] },
      })),
    },
  ],
};

/** A workspace whose simulator changes alice.example's zone right after its first read (the plan's). */
async function racing() {
  let aliceId = -1;
  const w = await workspace(MANIFEST, {
    seed: SEED,
    onZoneRead: (id, reads) => id === aliceId && reads === 1,
  });
  aliceId = w.sim.state.domainNamed('alice.example')?.id ?? -2;
  const puts = () => w.sim.requests.filter((r) => r.method === 'PUT' && r.path.startsWith('/dns/')).map((r) => r.path);
  return { ...w, aliceId, puts };
}

describe('a zone changed during apply', () => {
  it('fails that zone alone, naming what changed, with no PUT to it; the others are written (exit 1)', async () => {
    const w = await racing();
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr + done.stdout).toBe(1);
    const out = done.stdout + done.stderr;
    expect(out).toContain('the zone of "alice.example" changed on the panel since the plan read it (+ TXT _race-');
    expect(out).toContain('nothing was sent to it');
    const ids = DOMAINS.slice(1).map((name) => `/dns/${w.sim.state.domainNamed(name)?.id}`);
    expect(w.puts().sort()).toEqual(ids.sort());
    expect(w.puts()).not.toContain(`/dns/${w.aliceId}`);
    // Apply again: the new plan shows the zone as it is (the race record kept), and writes it.
    const again = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(again.code, again.stderr).toBe(0);
    expect(w.puts()).toContain(`/dns/${w.aliceId}`);
    const converged = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(converged.code, converged.stdout).toBe(0);
  });

  it('refuses a saved plan whose zone changed before apply, as a whole: exit 3, nothing sent', async () => {
    const w = await racing();
    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    const before = w.sim.requests.length;
    const done = await run(['apply', w.planFile, '--auto-approve'], w.env);
    expect(done.code, done.stderr).toBe(3);
    expect(done.stderr).toContain('the zone of "alice.example" changed on the panel since the plan was made');
    expect(w.sim.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('whole-object writes through the CLI (issue 30, item 6)', () => {
  const ZONE_SEED: SimulatorSeed = { clients: [{ username: 'alice', domains: ['alice.example'] }] };
  const ZONED = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: www2, type: A, value: 192.0.2.7}
`;
  const zoneOf = (w: {
    sim: { state: { zones: ReadonlyMap<number, unknown>; domainNamed(n: string): { id: number } | undefined } };
  }) =>
    (
      (
        w.sim.state.zones.get(w.sim.state.domainNamed('alice.example')?.id ?? -1) as
          { records: { other: { host: string; type: string; value: string }[] } } | undefined
      )?.records.other ?? []
    ).map((r) => `${r.host} ${r.type} ${r.value}`);

  it('a zone change and a subdomain create in one apply: the record the create added stays, and plan converges', async () => {
    const w = await workspace(`${ZONED}      - shop.alice.example\n`, { seed: ZONE_SEED });
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(zoneOf(w)).toEqual(expect.arrayContaining(['shop A 192.0.2.1', 'www2 A 192.0.2.7']));
    const converged = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(converged.code, converged.stdout).toBe(0);
  });

  it('the same from a saved plan: the zone change waits for the create, and keeps its record', async () => {
    const w = await workspace(`${ZONED}      - shop.alice.example\n`, { seed: ZONE_SEED });
    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    const done = await run(['apply', w.planFile, '--auto-approve'], w.env);
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(zoneOf(w)).toEqual(expect.arrayContaining(['shop A 192.0.2.1', 'www2 A 192.0.2.7']));
  });

  it('a PUT /dns answered 503 after it landed, an ACME client writing since: the ACME record stays', async () => {
    let id = -1;
    const w = await workspace(ZONED, {
      seed: ZONE_SEED,
      failAfterWrite: [{ match: { method: 'PUT', path: /^\/dns\// } }],
      // The zone's requests: the plan's read, apply's read, the PUT; lego writes before the next one.
      writesBehind: [
        {
          match: { path: /^\/dns\// },
          nth: 4,
          write: (call) => {
            const zone = call('GET', `/dns/${id}`).json as {
              dkim_record: string;
              records: { soa: object; other: object[] };
            };
            const acme = { host: '_acme-challenge', type: 'TXT', value: 'lego-token', ttl: 120 };
            const records = { soa: zone.records.soa, other: [...zone.records.other, acme] };
            expect(call('PUT', `/dns/${id}`, { dkim_record: zone.dkim_record, records }).status).toBe(200);
          },
        },
      ],
    });
    id = w.sim.state.domainNamed('alice.example')?.id ?? -2;
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(zoneOf(w)).toEqual(expect.arrayContaining(['_acme-challenge TXT lego-token', 'www2 A 192.0.2.7']));
    expect(w.sim.requests.filter((r) => r.method === 'PUT').length).toBe(1);
  });
});
