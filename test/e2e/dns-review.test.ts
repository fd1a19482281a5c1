/**
 * The fixes of the review of issue 23 (DNS zones), through the CLI against the simulator with an
 * `intercept` that plays a panel spelling or rewriting records its own way: a saved plan against
 * a panel answering `host: ""`, `"WWW"`, an absolute in-zone host and a lower-case type is applied
 * (not refused as edited) and converges; a panel that adds a trailing dot to a CNAME target it is
 * given is told after the PUT (the read-back) and in the next plan (the twin), not silently
 * re-added; export --with dns leaves an unreadable zone out with a warning and writes the rest.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type {
  InterceptRequest,
  InterceptResult,
  SimDnsRecord,
  Simulator,
  SimulatorSeed,
  SimZone,
} from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';
import { call } from '../helpers/sim-http.js';

const ZONE_PATH = /^\/dns\/([0-9]+)$/;

/**
 * An `intercept` for a panel that stores zones as the simulator does but shows them through
 * `show` (GET /dns/{id}) and takes them through `take` (PUT /dns/{id}: the body's records
 * rewritten, then handed on to the simulator itself over HTTP; a body `take` leaves as it is
 * goes straight through). `sim()` is the simulator: asked only once it answers requests.
 */
function spelling(
  sim: () => Simulator,
  show: (r: SimDnsRecord) => SimDnsRecord,
  take: (r: SimDnsRecord) => SimDnsRecord,
): (req: InterceptRequest) => Promise<InterceptResult | undefined> {
  return async (req) => {
    const id = ZONE_PATH.exec(req.path)?.[1];
    if (id === undefined) return undefined;
    if (req.method === 'GET') {
      const zone: SimZone | undefined = sim().state.zones.get(Number(id));
      if (zone === undefined) return undefined;
      return { status: 200, json: { ...zone, records: { ...zone.records, other: zone.records.other.map(show) } } };
    }
    if (req.method !== 'PUT') return undefined;
    const body = req.body as { records: { other: SimDnsRecord[] } };
    const taken = { ...body, records: { ...body.records, other: body.records.other.map(take) } };
    if (JSON.stringify(taken) === JSON.stringify(body)) return undefined;
    const answer = await call(sim(), 'PUT', req.path, { body: taken });
    return { status: answer.status, text: answer.text, headers: { 'content-type': 'application/json' } };
  };
}

const seedOf = (records: SimDnsRecord[], more: SimulatorSeed['clients'] = []): SimulatorSeed => ({
  clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { records } }] }, ...more],
});

describe('a panel spelling records its own way: a saved plan of TTL changes', () => {
  // Stored in the simulator's form; shown as "" for the apex, "WWW", "mail.alice.example." and "txt".
  const show = (r: SimDnsRecord): SimDnsRecord => ({
    ...r,
    host: r.host === '@' ? '' : r.host === 'www' ? 'WWW' : r.host === 'mail' ? 'mail.alice.example.' : r.host,
    type: r.type === 'TXT' ? 'txt' : r.type,
  });
  const take = (r: SimDnsRecord): SimDnsRecord => ({
    ...r,
    host: r.host === '' ? '@' : r.host.toLowerCase().replace(/\.alice\.example\.$/, ''),
    type: r.type.toUpperCase(),
  });
  const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.1, ttl: 300}
            - {host: www, type: A, value: 192.0.2.1, ttl: 300}
            - {host: mail, type: A, value: 192.0.2.1, ttl: 300}
            - {host: "@", type: TXT, value: "v=spf1 mx a ~all", ttl: 300}
`;
  const SEED = seedOf([
    { host: '@', type: 'NS', value: 'ns1.sim.keyhelp.test.', ttl: 3600 },
    { host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 },
    { host: 'www', type: 'A', value: '192.0.2.1', ttl: 3600 },
    { host: 'mail', type: 'A', value: '192.0.2.1', ttl: 3600 },
    { host: '@', type: 'TXT', value: 'v=spf1 mx a ~all', ttl: 3600 },
  ]);

  it('is applied from plan.json (not refused as edited), and the next plan shows no changes', async () => {
    const w = await workspace(MANIFEST, {
      seed: SEED,
      intercept: spelling(() => w.sim, show, take),
    });
    const id = w.sim.state.domainNamed('alice.example')?.id ?? -1;
    // The panel answers the spellings the test is about.
    const read = await call(w.sim, 'GET', `/dns/${id}`);
    expect((read.json as SimZone).records.other.map((r) => `${r.host}|${r.type}`)).toEqual([
      '|NS',
      '|A',
      'WWW|A',
      'mail.alice.example.|A',
      '|txt',
    ]);

    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/~ +A @ 192\.0\.2\.1: ttl 3600 -> 300\n/);
    expect(planned.stdout).toMatch(/~ +A www 192\.0\.2\.1: ttl 3600 -> 300\n/);
    expect(planned.stdout).toMatch(/~ +A mail 192\.0\.2\.1: ttl 3600 -> 300\n/);
    const done = await run(['apply', w.planFile, '--auto-approve'], w.env);
    const out = done.stdout + done.stderr;
    expect(out).not.toContain('edited');
    expect(done.code, out).toBe(0);
    expect(out).not.toContain('warning:');
    const puts = w.sim.requests.filter((r) => r.method === 'PUT' && r.path === `/dns/${id}`);
    // The CLI's one PUT (spelled as read) and the intercept's hand-on of it to the simulator.
    expect(puts.map((r) => r.status)).toEqual([200, 200]);
    expect(w.sim.state.zones.get(id)?.records.other.map((r) => `${r.host} ${r.type} ${r.ttl}`)).toEqual([
      '@ NS 3600',
      '@ A 300',
      'www A 300',
      'mail A 300',
      '@ TXT 300',
    ]);
    const converged = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(converged.code, converged.stdout + converged.stderr).toBe(0);
  });
});

describe('a panel that rewrites a value it is given (a trailing dot on a CNAME target)', () => {
  const addDot = (r: SimDnsRecord): SimDnsRecord =>
    r.type.toUpperCase() === 'CNAME' && !r.value.endsWith('.') ? { ...r, value: `${r.value}.` } : r;
  const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: blog, type: CNAME, value: pages.example.net}
`;

  it('is told after the PUT (read back) and in the next plan (the twin), in text output', async () => {
    const w = await workspace(MANIFEST, {
      seed: seedOf([{ host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 }]),
      intercept: spelling(
        () => w.sim,
        (r) => r,
        addDot,
      ),
    });
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr).toBe(0);
    const out = done.stdout + done.stderr;
    expect(out).toContain('warning: the zone read back holds records otherwise than sent (');
    expect(out).toContain('pages.example.net');
    expect(out).toContain(
      'the panel rewrote them (or something wrote the zone since); write the values as the panel does, ' +
        'or the next apply sends them again',
    );
    const id = w.sim.state.domainNamed('alice.example')?.id ?? -1;
    expect(w.sim.state.zones.get(id)?.records.other.map((r) => `${r.host} ${r.type} ${r.value}`)).toEqual([
      '@ A 192.0.2.1',
      'blog CNAME pages.example.net.',
    ]);

    const next = await run(['plan', w.file], w.env);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain(
      'warning: CNAME blog pages.example.net (ttl 3600): the panel holds pages.example.net.; ' +
        'write the value as the panel does (else the record is added again on every apply)',
    );
  });
});

describe('export --with dns with an unreadable zone', () => {
  it('leaves that zone out with a warning naming it, writes the good one, and the file validates', async () => {
    let broken = -1;
    const w = await workspace('', {
      seed: seedOf(
        [{ host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 }],
        [
          {
            username: 'bob',
            domains: [{ name: 'bob.example', dns: { records: [{ host: '@', type: 'A', value: '192.0.2.20' }] } }],
          },
        ],
      ),
      intercept: (req) => {
        if (req.method !== 'GET' || req.path !== `/dns/${broken}`) return undefined;
        const zone = w.sim.state.zones.get(broken) as SimZone;
        const other = zone.records.other.map((r, i) => (i === 0 ? { ...r, ttl: null } : r));
        return { status: 200, json: { ...zone, records: { ...zone.records, other } } };
      },
    });
    broken = w.sim.state.domainNamed('bob.example')?.id ?? -2;
    const exported = await run(['export', '--with', 'dns', '--out', w.file], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(
      /warning: the zone of "bob\.example" cannot be read whole: its dns block is left out \([^\n]*records\.other\[0\]\.ttl[^\n]*\)\n/,
    );
    const text = await readFile(w.file, 'utf8');
    expect(text.slice(text.indexOf('clients:'))).toBe(`clients:
  - username: alice
    plan: Basic
    domains:
      - name: alice.example
        dns:
          ttl: 3600
          records:
            - {host: "@", type: A, value: 192.0.2.10}
  - username: bob
    plan: Basic
    domains:
      - bob.example
`);
    const validated = await run(['validate', w.file], w.env);
    expect(validated.code, validated.stderr).toBe(0);
  });
});
