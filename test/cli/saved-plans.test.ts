/**
 * Saved plans end to end, in-process against the simulator on loopback: applied exactly and
 * without asking, then refused as stale (exit 3), also when the panel changed behind their back;
 * refused when made for another panel, too new, truncated or edited.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  API_KEY,
  createdRecords,
  expectNoSecrets,
  run,
  setupWorkflow as setup,
  WORKFLOW_MANIFEST as MANIFEST,
  workspace,
} from '../helpers/cli.js';
import { planDigest } from '../../src/plan/saved.js';

/** A change made on the panel behind the plan's back, through the API like any other client. */
async function postBehind(url: string, path: string, body: object): Promise<number> {
  const answer = await request(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await answer.body.json()) as { id: number };
  expect(answer.statusCode).toBe(201);
  return json.id;
}

describe('saved plans', () => {
  it('applies exactly the saved plan without asking, and refuses it the second time as already applied (exit 3)', async () => {
    const { file, planFile, envWithSecrets, posts, sim, secrets } = await setup();
    const planned = await run(['plan', file, '--out', planFile], envWithSecrets);
    expect(planned.code).toBe(0);
    const saved = JSON.parse(await readFile(planFile, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ format_version: '2.5', panel_url: sim.url, manifest: file });

    const applied = await run(['apply', planFile], envWithSecrets);
    expect(applied.stderr).toContain(
      `${planFile}: a saved plan (format 2.5, made from ${file}): applying exactly it, without asking`,
    );
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply: 5 succeeded, 0 failed, 0 skipped.');
    expect(posts()).toHaveLength(5);

    const again = await run(['apply', planFile], envWithSecrets);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(
      /^error: already applied: the panel holds what this plan makes \(.*plan\.json\): nothing was sent$/m,
    );
    expect(again.stderr).not.toContain('the panel changed');
    expect(again.stderr).toContain('hint: nothing is left to do for this plan');
    expect(posts()).toHaveLength(5);
    const passwords = (await createdRecords(secrets)).map((r) => String(r.password));
    await expectNoSecrets([planned, applied, again], passwords);
  });

  it('says "already applied" only when none of its changes is left to do, by the manifest it was made from', async () => {
    const { file, planFile, envWithSecrets, posts, sim } = await setup();
    expect((await run(['plan', file, '--out', planFile], envWithSecrets)).code).toBe(0);
    expect((await run(['apply', planFile], envWithSecrets)).code).toBe(0);
    // One thing it made is gone again: a change of the plan is to do again, so the panel changed.
    const bob = sim.state.domainNamed('bob.example');
    const gone = await request(`${sim.url}/domains/${bob?.id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': API_KEY },
    });
    await gone.body.dump();
    const partly = await run(['apply', planFile], envWithSecrets);
    expect(partly.code).toBe(3);
    expect(partly.stderr).toMatch(/^error: stale plan: the panel changed since .*plan\.json was made/m);
    expect(partly.stderr).not.toContain('already applied');
    // Its manifest edited since: the plan cannot be told applied, so it is stale as before.
    const fixed = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(fixed.code).toBe(0);
    await writeFile(file, `${MANIFEST}  - username: carol\n`);
    const before = posts().length;
    const edited = await run(['apply', planFile], envWithSecrets);
    expect(edited.code).toBe(3);
    expect(edited.stderr).toContain('error: stale plan: the panel changed');
    expect(posts()).toHaveLength(before);
  });

  it('reads no FIFO a saved plan names as its manifest when telling it applied: stale, at once', async () => {
    const { file, planFile, envWithSecrets, dir } = await setup();
    expect((await run(['plan', file, '--out', planFile], envWithSecrets)).code).toBe(0);
    expect((await run(['apply', planFile], envWithSecrets)).code).toBe(0);
    // The plan, consistent again, names a FIFO: opening it would wait for a writer for ever.
    const fifo = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    const data = JSON.parse(await readFile(planFile, 'utf8')) as Record<string, unknown>;
    data.manifest = fifo;
    data.plan_sha256 = planDigest(data);
    const named = join(dir, 'fifo-plan.json');
    await writeFile(named, JSON.stringify(data));
    const hung = new Promise<'hung'>((done) => {
      setTimeout(() => {
        done('hung');
      }, 5000);
    });
    try {
      const r = await Promise.race([run(['apply', named], envWithSecrets), hung]);
      expect(r).not.toBe('hung');
      if (r === 'hung') return;
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('error: stale plan: the panel changed');
    } finally {
      // A reader blocked in open(2) is let go by a writer (none there: ENXIO).
      const writer = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
      await writer?.close();
    }
  }, 15_000);

  it('refuses a plan made stale behind its back and sends nothing; unrelated accounts do not matter', async () => {
    const { file, planFile, envWithSecrets, posts, sim } = await setup({
      seed: { clients: [{ username: 'carol', domains: ['carol.example'] }] },
    });
    const manifest = `${MANIFEST}  - username: carol\n    domains: [carol.example, blog.carol.example]\n`;
    await writeFile(file, manifest);
    expect((await run(['plan', file, '--out', planFile], envWithSecrets)).code).toBe(0);

    // An unrelated client appears: the plan still holds.
    await postBehind(sim.url, '/clients', { username: 'zed' });
    // The client the plan adds a domain to is replaced (same name, new id), and bob appears.
    const carol = sim.state.clientNamed('carol');
    expect(carol).toMatchObject({ username: 'carol', id: expect.any(Number) as unknown });
    await postBehind(sim.url, '/clients', { username: 'bob' });
    const before = posts().length;

    const r = await run(['apply', planFile], envWithSecrets);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: stale plan');
    expect(r.stderr).toContain('  client "bob" now exists on the panel');
    expect(r.stderr).not.toContain('zed');
    expect(posts()).toHaveLength(before);

    // The same kind of plan with only the unrelated change applies.
    expect((await run(['plan', file, '--out', planFile], envWithSecrets)).code).toBe(0);
    await postBehind(sim.url, '/clients', { username: 'yves' });
    const ok = await run(['apply', planFile], envWithSecrets);
    expect(ok.code).toBe(0);
    expect(sim.state.domainNamed('blog.carol.example')?.id_user).toBe(carol?.id);
  });

  it('refuses a plan made for another panel, a newer major format, a truncated or edited file', async () => {
    const { file, planFile, envWithSecrets, posts, dir } = await setup();
    expect((await run(['plan', file, '--out', planFile], envWithSecrets)).code).toBe(0);
    const text = await readFile(planFile, 'utf8');

    const other = await workspace(MANIFEST);
    const wrongPanel = await run(['apply', planFile], {
      ...envWithSecrets,
      PROVISION_URL: other.sim.url,
    });
    expect(wrongPanel.code).toBe(1);
    expect(wrongPanel.stderr).toMatch(
      /^error: .*plan\.json was made for the panel http:\/\/127\.0\.0\.1:\d+\/api\/v2, not http:\/\/127\.0\.0\.1:\d+\/api\/v2: nothing was sent$/m,
    );
    expect(other.posts()).toEqual([]);

    const newer = join(dir, 'newer.json');
    await writeFile(newer, text.replace('"format_version": "2.5"', '"format_version": "3.0"'));
    const tooNew = await run(['apply', newer], envWithSecrets);
    expect(tooNew.code).toBe(1);
    expect(tooNew.stderr).toMatch(
      /^error: .*newer\.json has plan format 3\.0, newer than this version of provision reads \(2\.x\)$/m,
    );

    const truncated = join(dir, 'truncated.json');
    await writeFile(truncated, text.slice(0, Math.floor(text.length / 2)));
    const cut = await run(['apply', truncated], envWithSecrets);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(
      /^error: .*truncated\.json is not valid JSON \(.*\): a truncated or damaged plan file$/m,
    );
    expect(cut.stderr).not.toMatch(/\n\s+at /);

    const edited = join(dir, 'edited.json');
    const data = JSON.parse(text) as {
      changes: { name: string; client_id?: number | null; depends_on: string[] }[];
    };
    data.changes[1]!.name = 'evil.example';
    data.changes[2]!.depends_on = ['client:nobody'];
    await writeFile(edited, JSON.stringify(data));
    const hand = await run(['apply', edited], envWithSecrets);
    expect(hand.code).toBe(1);
    expect(hand.stderr).toContain('edited.json is not a valid plan file (');
    expect(hand.stderr).toContain('changes[1].id: must be "domain:evil.example"');
    expect(hand.stderr).toContain('changes[2].depends_on: "client:nobody" is not a change listed before this one');

    const consistent = join(dir, 'consistent.json');
    const swapped = text
      .replaceAll('"id": 1\n', '"id": 2\n')
      .replaceAll('"id_hosting_plan": 1', '"id_hosting_plan": 2');
    expect(swapped).not.toBe(text);
    await writeFile(consistent, swapped);
    const refused = await run(['apply', consistent], envWithSecrets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the digest (plan_sha256) does not match the plan: the file was edited');
    expect(posts()).toEqual([]);
  });

  it('says when a manifest is applied and takes a JSON-looking manifest as a manifest', async () => {
    const { file, envWithSecrets } = await setup();
    const r = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(r.stderr).toContain(`${file}: a manifest: planning against the panel now`);
    expect(r.code).toBe(0);
  });
});
