/**
 * The library API (src/api), through its one entry point, against the simulator over real
 * HTTP: the steps of plan and apply give what the CLI gives; errors are ProvisionErrors with
 * their data; and no function prints or exits on its own, failures included. The example
 * (examples/use-from-code.mjs) runs against the build, importing the package by its name.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../src/api/index.js';
import {
  connectPanel,
  diff,
  executePlan,
  loadManifest,
  planView,
  ProvisionError,
  readLive,
  renderApplyJson,
  renderApplyText,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../src/api/index.js';
import { API_KEY } from '../helpers/key.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const MANIFEST = `version: 1
clients:
  - username: alice
    plan: Standard
    domains: [alice.example, shop.alice.example]
  - username: bob
    state: absent
`;

/** Every way the process could be written to or ended, watched; none may be called. */
function watchProcess(): () => unknown[] {
  const spies = [
    vi.spyOn(process.stdout, 'write'),
    vi.spyOn(process.stderr, 'write'),
    vi.spyOn(console, 'log'),
    vi.spyOn(console, 'error'),
    vi.spyOn(console, 'warn'),
    vi.spyOn(console, 'info'),
    vi.spyOn(process, 'exit').mockImplementation(() => undefined as never),
  ];
  return () => spies.flatMap((spy) => spy.mock.calls);
}

describe('the library API', () => {
  let calls: () => unknown[];
  beforeEach(() => {
    calls = watchProcess();
  });
  afterEach(() => {
    const made = calls();
    vi.restoreAllMocks();
    expect(made, 'the API printed or exited on its own').toEqual([]);
  });

  it('plans and applies as the CLI does, and renders the plan and the outcomes', async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'bob', domains: ['bob.example'] }] },
    });
    const dir = await tempDir();
    const panel = connectPanel({ url: simulator.url, apiKey: API_KEY });
    try {
      const manifest = loadManifest(MANIFEST, 'm.yaml');
      const live = await readLive(panel, manifest.desired);
      const plan = diff(manifest.desired, live);
      expect(plan.changes.map((c) => `${c.action} ${c.id}`)).toEqual([
        'create client:alice',
        'create domain:alice.example',
        'create domain:shop.alice.example',
        'delete client:bob',
      ]);
      const view = planView(plan, { panelUrl: panel.baseUrl, manifest, live });
      expect(renderPlanText(view)).toContain(
        'Plan: 3 to create (1 client, 2 domains), 2 to delete (1 client, and 1 resource that goes with it);',
      );
      expect(renderPlanMarkdown(view)).toMatch(/<details>[^]*- DELETE \/clients\/\d+/);
      expect(view.warnings).toEqual([expect.stringContaining('if this is meant as a rename')]);
      expect(JSON.parse(renderPlanJson(view))).toMatchObject({
        manifest: 'm.yaml',
        manifest_sha256: createHash('sha256').update(MANIFEST).digest('hex'),
        summary: { create: 3, delete: 1 },
      });

      const secretsFile = join(dir, 'secrets.jsonl');
      const seen: string[] = [];
      const outcomes = await executePlan(plan, panel, {
        secretsFile,
        onOutcome: (o) => seen.push(o.change.id),
      });
      expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
      expect(seen).toHaveLength(4);
      expect(renderApplyText(outcomes)).toMatch(
        /✓ created client "alice" \(id \d+\)\n[^]*Apply: 4 succeeded, 0 failed, 0 skipped\.\n$/,
      );
      expect(JSON.parse(renderApplyJson(outcomes, view))).toMatchObject({
        panel_url: panel.baseUrl,
        summary: { succeeded: 4, failed: 0, skipped: 0 },
      });
      // The password is in the secrets file, and the panel holds it.
      const record = (await readFile(secretsFile, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => 'password' in r);
      expect(record).toMatchObject({
        username: 'alice',
        panel_url: panel.baseUrl,
        password: simulator.state.passwordOf('alice'),
      });
      expect([...simulator.state.clients.values()].map((c) => c.username)).toEqual(['alice']);

      // Planned again: nothing left to do.
      expect(diff(manifest.desired, await readLive(panel, manifest.desired)).changes).toEqual([]);
    } finally {
      await panel.close();
    }
  });

  it('an invalid manifest is a ProvisionError holding every problem, located', () => {
    const error = (() => {
      try {
        loadManifest('version: 1\nclients:\n  - username: Alice\n  - username: bob\n    colour: red\n', 'bad.yaml');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ProvisionError);
    const e = error as ProvisionError;
    expect(e.code).toBe('manifest_invalid');
    expect(e.message).toBe('bad.yaml: 2 errors: fix them and load it again');
    expect(e.located.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['bad.yaml:3:15', 'bad.yaml:5:5']);
    expect(e.details).toHaveLength(2);
    expect(e.details[0]).toMatch(/^bad\.yaml:3:15: error: /);
  });

  it('refuses before sending: a bad URL, a plan that creates clients without a secrets file; a failed change is an outcome, not a throw', async () => {
    expect(() => connectPanel({ url: 'http://panel.example', apiKey: API_KEY })).toThrow(
      expect.objectContaining({ code: 'usage' }),
    );
    expect(() => connectPanel({ url: 'https://panel.example', apiKey: 'two words' })).toThrow(
      expect.objectContaining({ code: 'usage' }),
    );
    const simulator = await sim({
      intercept: (req) =>
        req.method === 'POST' && req.path === '/domains'
          ? { status: 400, json: { code: '400 Bad Request', message: 'Quota reached.' } }
          : undefined,
    });
    const panel = connectPanel({ url: simulator.url, apiKey: API_KEY });
    try {
      const { desired } = loadManifest(MANIFEST);
      const plan = diff(desired, await readLive(panel, desired));
      await expect(executePlan(plan, panel)).rejects.toMatchObject({ code: 'secrets' });
      await expect(
        executePlan(plan, panel, {
          secretsFile: join(await tempDir(), 's.jsonl'),
          secretsRecipient: '',
        }),
      ).rejects.toMatchObject({ code: 'secrets' });
      await expect(executePlan(plan, panel, { secretsFile: 'x', concurrency: 0 })).rejects.toMatchObject({
        code: 'usage',
      });
      expect(simulator.requests.filter((r) => r.method === 'POST')).toEqual([]);
      const outcomes = await executePlan(plan, panel, {
        secretsFile: join(await tempDir(), 's.jsonl'),
        settleTimeoutMs: 0,
      });
      expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'failed', 'skipped']);
    } finally {
      await panel.close();
    }
  });
});

describe('loadManifestParts', () => {
  it('loads parts as provision validate DIR does, their digests for the plan; errors name the part', async () => {
    const parts = [
      { file: 'panels/a/b.yaml', source: 'version: 1\nclients:\n  - username: bob\n' },
      { file: 'panels/a/a.yaml', source: new TextEncoder().encode('version: 1\nclients:\n  - username: alice\n') },
    ];
    const order = api.partOrder(parts.map((p) => p.file.split('/').at(-1) ?? ''));
    expect(order).toEqual(['a.yaml', 'b.yaml']);
    const sorted = order.map((name) => parts.find((p) => p.file.endsWith(`/${name}`))!);
    // Given in any order, read in the CLI's.
    const loaded = api.loadManifestParts(parts, 'panels/a');
    expect(loaded.desired.clients.map((c) => c.username)).toEqual(['alice', 'bob']);
    const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
    expect(loaded.parts).toEqual([
      { file: 'panels/a/a.yaml', sha256: sha('version: 1\nclients:\n  - username: alice\n') },
      { file: 'panels/a/b.yaml', sha256: sha('version: 1\nclients:\n  - username: bob\n') },
    ]);
    expect(loaded.sha256).toBe(sha(loaded.parts!.map((p) => `${p.sha256}  ${p.file.split('/').at(-1)}\n`).join('')));
    const simulator = await sim();
    const panel = connectPanel({ url: simulator.url, apiKey: API_KEY });
    const live = await readLive(panel, loaded.desired);
    const document = JSON.parse(
      renderPlanJson(planView(diff(loaded.desired, live), { panelUrl: panel.baseUrl, manifest: loaded, live })),
    ) as { manifest: string; manifest_sha256: string; manifest_parts: unknown };
    await panel.close();
    expect(document).toMatchObject({
      manifest: 'panels/a',
      manifest_sha256: loaded.sha256,
      manifest_parts: loaded.parts,
    });
    try {
      api.loadManifestParts(
        [...sorted, { file: 'panels/a/c.yaml', source: 'version: 1\nclients:\n  - username: bob\n' }],
        'panels/a',
      );
      expect.fail('a username in two parts must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ProvisionError);
      expect((error as ProvisionError).located[0]).toMatchObject({ file: 'panels/a/c.yaml', line: 3 });
    }
  });
});

describe('readLive with a scope', () => {
  it("reads the zones and details of the scope's clients only, as plan --clients does", async () => {
    const text = ['alice', 'bob']
      .map((u) => `  - username: ${u}\n    domains:\n      - name: ${u}.example\n        dns: {records: []}\n`)
      .join('');
    const { desired } = loadManifest(`version: 1\nclients:\n${text}`, 'm.yaml');
    const simulator = await sim({
      seed: {
        clients: [
          { username: 'alice', domains: ['alice.example'] },
          { username: 'bob', domains: ['bob.example'] },
        ],
      },
    });
    const panel = connectPanel({ url: simulator.url, apiKey: API_KEY });
    const zoneReads = (): string[] => simulator.requests.filter((r) => r.path.startsWith('/dns/')).map((r) => r.path);
    await readLive(panel, desired, { scope: ['al*'] });
    expect(zoneReads()).toHaveLength(1);
    await readLive(panel, desired);
    expect(zoneReads()).toHaveLength(3);
    await panel.close();
  });
});

describe('the surface', () => {
  it('is the documented names, nothing internal', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ProvisionError',
      'VERSION',
      'connectPanel',
      'diff',
      'doctor',
      'emailDigest',
      'executePlan',
      'loadManifest',
      'loadManifestParts',
      'parseSnapshot',
      'partOrder',
      'planView',
      'readLive',
      'renderApplyJson',
      'renderApplyText',
      'renderPlanJson',
      'renderPlanMarkdown',
      'renderPlanText',
      'snapshotDocument',
      'startSimulator',
      'takeSnapshot',
    ]);
  });
});

describe('examples/use-from-code.mjs', () => {
  it('runs against the build, importing the package by its name', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'examples', 'use-from-code.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(stdout).toContain('Plan: 5 to create (2 clients, 3 domains).');
    expect(stdout).toContain('Apply: 5 succeeded, 0 failed, 0 skipped.');
  });
});
