/**
 * Scoped runs (`plan` and `apply --clients GLOB`, docs/commands.md "Scoped runs") through the whole
 * CLI, in-process against the simulator on loopback: apply changes only the matching clients,
 * their domains and zones, and prunes only within the scope (the simulator's state after it);
 * only the scope's zones are read; text, JSON and Markdown say the plan is scoped; a saved
 * scoped plan records its scope and applies only it; `apply plan.json --clients` and a pattern
 * that cannot match a username are refused before anything is sent; a plan from a snapshot with
 * --clients is the live scoped plan; a scope matching nothing says so.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit.js';
import { run, workspace, type Workspace } from '../helpers/cli.js';
import { call } from '../helpers/sim-http.js';

/** alice and alfred (al*) and bob listed, each changed; alex (al*) and carol unlisted; prune on. */
const MANIFEST = `version: 1
prune:
  clients: true
  domains: true
clients:
  - username: alice
    email: alice@example.com
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.10}
      - new-alice.example
  - username: alfred
    email: alfred@example.com
    domains: [alfred.example]
  - username: bob
    email: bob@example.com
    domains:
      - name: bob.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.20}
      - new-bob.example
`;

const SEED = {
  seed: {
    clients: [
      { username: 'alice', email: 'old@example.com', domains: ['alice.example', 'extra-alice.example'] },
      { username: 'alfred', email: 'old@example.com', domains: ['alfred.example', 'extra-alfred.example'] },
      { username: 'alex', email: 'alex@example.com', domains: ['alex.example'] },
      { username: 'bob', email: 'old@example.com', domains: ['bob.example', 'extra-bob.example'] },
      { username: 'carol', email: 'carol@example.com', domains: ['carol.example'] },
    ],
  },
  systemDomains: false,
};

const setup = (manifest = MANIFEST): Promise<Workspace> => workspace(manifest, SEED);

const planValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object,
);

interface PlanJson {
  format_version: string;
  scope?: { clients: string[] };
  fingerprint: string;
  changes: { id: string }[];
  unmanaged: { clients: number; domains: number | null };
}

/** The simulator's clients, domains (owner/name) and zone addresses of the `@` A record. */
function panel(w: Workspace): { clients: Record<string, string>; domains: string[]; zones: Record<string, string[]> } {
  const { state } = w.sim;
  const owner = (id: number): string => state.clients.get(id)?.username ?? '?';
  const zones: Record<string, string[]> = {};
  for (const [id, zone] of state.zones) {
    const name = state.domains.get(id)?.domain ?? '?';
    zones[name] = zone.records.other.filter((r) => r.host === '@' && r.type === 'A').map((r) => r.value);
  }
  return {
    clients: Object.fromEntries([...state.clients.values()].map((c) => [c.username, c.email])),
    domains: [...state.domains.values()].map((d) => `${owner(d.id_user)}/${d.domain}`).sort(),
    zones,
  };
}

/** The writes the simulator answered, as `<METHOD> <path> <status>`. */
const writes = (w: Workspace): string[] =>
  w.sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);

/** The paths of the zone reads the simulator answered. */
const zoneReads = (w: Workspace): string[] =>
  w.sim.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/dns/')).map((r) => r.path);

const domainId = (w: Workspace, name: string): number => w.sim.state.domainNamed(name)?.id ?? -1;

/** Adds domain `name` to client `owner` on the panel, behind the CLI's back. */
async function addDomain(w: Workspace, name: string, owner: string): Promise<void> {
  const id_user = w.sim.state.clientNamed(owner)?.id;
  expect((await call(w.sim, 'POST', '/domains', { body: { domain: name, id_user } })).status).toBe(201);
}

describe('--clients through the CLI', () => {
  it('apply changes and prunes only the matching clients, their domains and zones', async () => {
    const w = await setup();
    const before = panel(w);
    const r = await run(['apply', w.file, '--clients', 'al*', '--auto-approve', '--no-color'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Plan scoped by --clients to "al\*"/);
    const after = panel(w);
    expect(after.clients).toEqual({
      alice: 'alice@example.com',
      alfred: 'alfred@example.com',
      bob: 'old@example.com',
      carol: 'carol@example.com',
    });
    expect(after.domains).toEqual([
      'alfred/alfred.example',
      'alice/alice.example',
      'alice/new-alice.example',
      'bob/bob.example',
      'bob/extra-bob.example',
      'carol/carol.example',
    ]);
    expect(after.zones['alice.example']).toContain('192.0.2.10');
    expect(after.zones['bob.example']).toEqual(before.zones['bob.example']);
    expect(after.zones['bob.example']).not.toContain('192.0.2.20');
    // Nothing was sent about bob or carol.
    const outside = [domainId(w, 'bob.example'), domainId(w, 'extra-bob.example'), domainId(w, 'carol.example')];
    const bobId = w.sim.state.clientNamed('bob')?.id;
    const carolId = w.sim.state.clientNamed('carol')?.id;
    for (const line of writes(w)) {
      for (const id of [...outside, bobId, carolId]) expect(line).not.toMatch(new RegExp(`/${id} `));
    }

    // The scope converged; the whole manifest still has bob's changes and carol's prune pending.
    const again = await run(['plan', w.file, '--clients', 'al*', '--detailed-exitcode', '--no-color'], w.env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes within the scope: '); // not "the panel matches the manifest"
    const whole = await run(['plan', w.file, '--format', 'json'], w.env);
    expect((JSON.parse(whole.stdout) as PlanJson).changes.map((c) => c.id)).toEqual([
      'client:bob',
      'dns_zone:bob.example',
      'domain:new-bob.example',
      'domain:extra-bob.example',
      'client:carol',
    ]);
  });

  it('reads only the zones of the matching clients', async () => {
    const w = await setup();
    const r = await run(['plan', w.file, '--clients', 'bob'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(zoneReads(w)).toEqual([`/dns/${domainId(w, 'bob.example')}`]);
    const whole = await run(['plan', w.file], w.env);
    expect(whole.code, whole.stderr).toBe(0);
    expect(zoneReads(w).slice(1).sort()).toEqual(
      [`/dns/${domainId(w, 'alice.example')}`, `/dns/${domainId(w, 'bob.example')}`].sort(),
    );
  });

  it('text, JSON and Markdown say the plan is scoped, and count unmanaged within the scope', async () => {
    const w = await setup();
    const text = await run(['plan', w.file, '--clients', 'bob', '--clients', 'CAR?L', '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe(
      'Plan scoped by --clients to "bob", "CAR?L": only matching clients, their domains and zones are planned, ' +
        'and prune acts only within them; other clients and the hosting plans are left alone.',
    );
    expect(text.stdout).toContain('client "carol" will be deleted');
    expect(text.stdout).not.toMatch(/alice|alfred|alex/);

    const json = await run(['plan', w.file, '--clients', 'bob', '--clients', 'CAR?L', '--format', 'json'], w.env);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as PlanJson;
    expect(planValid(doc), JSON.stringify(planValid.errors)).toBe(true);
    expect(doc.scope).toEqual({ clients: ['bob', 'CAR?L'] });
    expect(doc.changes.map((c) => c.id)).toEqual([
      'client:bob',
      'dns_zone:bob.example',
      'domain:new-bob.example',
      'domain:extra-bob.example',
      'client:carol',
    ]);
    expect(doc.unmanaged).toEqual({ clients: 0, domains: 0 });
    const whole = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as PlanJson;
    expect(whole.scope).toBeUndefined();

    const md = await run(['plan', w.file, '--clients', 'bob', '--format', 'markdown'], w.env);
    expect(md.code, md.stderr).toBe(0);
    const head = md.stdout.split('\n');
    expect(head[0]).toMatch(/^### panel-provision plan \(scoped\): /);
    expect(md.stdout).toContain('> :dart: **Plan scoped by --clients to "bob":');
    const unscoped = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(unscoped.stdout).not.toContain('(scoped)');
    expect(unscoped.stdout).not.toContain(':dart:');
  });

  it('a saved scoped plan records its scope and applies only it', async () => {
    const w = await setup();
    const saved = await run(['plan', w.file, '--clients', 'b*', '--out', w.planFile], w.env);
    expect(saved.code, saved.stderr).toBe(0);
    const doc = JSON.parse(await readFile(w.planFile, 'utf8')) as PlanJson;
    expect(planValid(doc), JSON.stringify(planValid.errors)).toBe(true);
    expect(doc.format_version).toBe('2.5');
    expect(doc.scope).toEqual({ clients: ['b*'] });

    const shown = await run(['show', w.planFile, '--no-color'], {});
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^Plan scoped by --clients to "b\*"/);

    const r = await run(['apply', w.planFile, '--auto-approve', '--no-color'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Plan scoped by --clients to "b\*"/);
    const after = panel(w);
    expect(after.clients).toEqual({
      alice: 'old@example.com',
      alfred: 'old@example.com',
      alex: 'alex@example.com',
      bob: 'bob@example.com',
      carol: 'carol@example.com',
    });
    expect(after.domains).toEqual([
      'alex/alex.example',
      'alfred/alfred.example',
      'alfred/extra-alfred.example',
      'alice/alice.example',
      'alice/extra-alice.example',
      'bob/bob.example',
      'bob/new-bob.example',
      'carol/carol.example',
    ]);
    expect(after.zones['bob.example']).toContain('192.0.2.20');
    expect(after.zones['alice.example']).not.toContain('192.0.2.10');
    const again = await run(['plan', w.file, '--clients', 'b*', '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('a saved scoped plan is not stale when a client out of its scope moves, and is when one in it does', async () => {
    const w = await setup();
    expect((await run(['plan', w.file, '--clients', 'b*', '--out', w.planFile], w.env)).code).toBe(0);
    const carol = w.sim.state.clientNamed('carol')?.id;
    expect((await call(w.sim, 'PUT', `/clients/${carol}`, { body: { email: 'c2@example.com' } })).status).toBe(200);
    await addDomain(w, 'late.example', 'alice');
    const r = await run(['apply', w.planFile, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(w.sim.state.clientNamed('bob')?.email).toBe('bob@example.com');

    const again = await setup();
    expect((await run(['plan', again.file, '--clients', 'b*', '--out', again.planFile], again.env)).code).toBe(0);
    const bob = again.sim.state.clientNamed('bob')?.id;
    expect((await call(again.sim, 'PUT', `/clients/${bob}`, { body: { email: 'b2@example.com' } })).status).toBe(200);
    const before = writes(again).length;
    const stale = await run(['apply', again.planFile, '--auto-approve'], again.envWithSecrets);
    expect(stale.code).toBe(EXIT.stalePlan);
    expect(stale.stderr).toContain('stale plan');
    expect(writes(again).length).toBe(before);
  });

  it('a scoped delete that would take a domain the manifest lists under another client is refused', async () => {
    // shared.example is bob's in the manifest and carol's on the panel: deleting carol (in the
    // scope) would delete it, as the plan without --clients would refuse to.
    const manifest = `version: 1
prune:
  clients: true
clients:
  - username: alice
  - username: alfred
  - username: bob
    domains: [bob.example, shared.example]
`;
    const w = await setup(manifest);
    await addDomain(w, 'shared.example', 'carol');
    for (const args of [[], ['--clients', 'carol'], ['--clients', 'c*', '--clients', 'alex']]) {
      const r = await run(['apply', w.file, ...args, '--auto-approve', '--no-color'], w.envWithSecrets);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/shared\.example/);
    }
    expect(writes(w)).toEqual(['POST /domains 201']);
    expect(w.sim.state.domainNamed('shared.example')).toBeDefined();
    expect(w.sim.state.clientNamed('carol')).toBeDefined();

    // A panel without a domain list: the scoped plan looks the listed domain up to see it.
    const unlisted = await workspace(manifest, { ...SEED, listDomains: false });
    await addDomain(unlisted, 'shared.example', 'carol');
    const r = await run(
      ['apply', unlisted.file, '--clients', 'carol', '--allow-mass-delete', '--auto-approve', '--no-color'],
      unlisted.envWithSecrets,
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('domain "shared.example" is listed under client "bob" but belongs to client "carol"');
    expect(writes(unlisted)).toEqual(['POST /domains 201']);
    expect(unlisted.sim.state.domainNamed('shared.example')).toBeDefined();
  });

  it('apply of a saved plan with --clients is refused, nothing sent', async () => {
    const w = await setup();
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    const sent = w.sim.requests.length;
    const r = await run(['apply', w.planFile, '--clients', 'bob', '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--clients scopes a manifest');
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).toContain('leave --clients out');
    // Refused before apply says it is applying the saved plan.
    expect(r.stderr).not.toContain('applying exactly it');
    expect(w.sim.requests.length).toBe(sent);
    const json = await run(['apply', w.planFile, '--clients', 'bob', '--auto-approve', '--format', 'json'], w.env);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('usage');
    expect(w.sim.requests.length).toBe(sent);
  });

  it('a pattern that cannot match a username is refused before anything is sent, a domain with the hint', async () => {
    const w = await setup();
    for (const command of ['plan', 'apply']) {
      const r = await run([command, w.file, '--clients', 'bob', '--clients', 'bob.example'], w.envWithSecrets);
      expect(r.code, command).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--clients "bob.example" cannot match a username');
      expect(r.stderr).toContain('usernames (team-*), not domains');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const empty = await run(['plan', w.file, '--clients', ''], w.env);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('--clients needs a pattern');
    const slash = await run(['plan', w.file, '--clients', 'team/a'], w.env);
    expect(slash.code).toBe(1);
    expect(slash.stderr).toContain('cannot match a username');
    expect(slash.stderr).not.toContain('not domains');
    expect(w.sim.requests).toEqual([]);
  });

  it('plan --from-snapshot --clients is the live scoped plan', async () => {
    const w = await setup();
    const snapshot = join(w.dir, 'snapshot.json');
    const taken = await run(['snapshot', w.file, '--out', snapshot, '--with-emails'], w.env);
    expect(taken.code, taken.stderr).toBe(0);
    const liveText = await run(['plan', w.file, '--clients', 'al*', '--no-color'], w.env);
    const liveJson = await run(['plan', w.file, '--clients', 'al*', '--format', 'json'], w.env);
    const snapText = await run(['plan', w.file, '--clients', 'al*', '--from-snapshot', snapshot, '--no-color'], {});
    const snapJson = await run(
      ['plan', w.file, '--clients', 'al*', '--from-snapshot', snapshot, '--format', 'json'],
      {},
    );
    expect(snapText.code, snapText.stderr).toBe(0);
    expect(snapJson.code, snapJson.stderr).toBe(0);
    // The notes say how each was read: the snapshot read the zones of the whole manifest.
    const withoutNotes = (text: string): string =>
      text
        .split('\n')
        .filter((line) => !line.startsWith('note: '))
        .join('\n');
    expect(withoutNotes(snapText.stdout)).toBe(withoutNotes(liveText.stdout));
    expect(snapText.stdout).toMatch(/^Plan scoped by --clients to "al\*"/);
    const [a, b] = [JSON.parse(liveJson.stdout), JSON.parse(snapJson.stdout)] as PlanJson[];
    expect(b!.scope).toEqual({ clients: ['al*'] });
    expect(b!.changes).toEqual(a!.changes);
    expect(b!.fingerprint).toBe(a!.fingerprint);
    expect(b!.unmanaged).toEqual(a!.unmanaged);
  });

  it('a scope matching no client says so, and plans nothing', async () => {
    const w = await setup();
    const r = await run(['plan', w.file, '--clients', 'zed*', '--detailed-exitcode', '--no-color'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('note: --clients matches no client of the manifest or the panel: nothing is planned.');
    // carol is on the panel only: no note, her prune planned.
    const carol = await run(['plan', w.file, '--clients', 'carol', '--no-color'], w.env);
    expect(carol.stdout).not.toContain('matches no client');
    expect(carol.stdout).toContain('client "carol" will be deleted');
  });

  it('a matching client on a plan only the manifest defines is refused: apply without --clients first', async () => {
    const w = await setup(`version: 1
hosting_plans:
  - name: Pro
    resources: {domains: 20}
clients:
  - username: alice
    plan: Pro
  - username: bob
    email: bob@example.com
`);
    const r = await run(['apply', w.file, '--clients', 'alice', '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hosting plan "Pro" is not on the panel');
    expect(r.stderr).toContain('apply without --clients first');
    expect(writes(w)).toEqual([]);
    // bob's scope leaves the plan alone and goes ahead.
    const bob = await run(['apply', w.file, '--clients', 'bob', '--auto-approve'], w.envWithSecrets);
    expect(bob.code, bob.stdout + bob.stderr).toBe(0);
    expect(writes(w)).toEqual([`PUT /clients/${w.sim.state.clientNamed('bob')?.id} 200`]);
    expect(w.sim.state.planNamed('Pro')).toBeUndefined();
  });
});
