/**
 * Apply's step summary: the page the action appends to $GITHUB_STEP_SUMMARY. As a function
 * (names and messages as data, the groups, the limits) and through action.yml against the
 * simulator: what was created and what failed, with no key, no password and no panel address.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { applySummary, LISTED_LIMIT, SUMMARY_LIMIT } from '../../src/action/summary.js';
import { runPrComment } from '../../src/action/run.js';
import { decryptPassword } from '../../src/secrets/encrypt.js';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';
import { type ActionFile, fakeNpm, runComposite } from './composite.js';
import { gitRemote } from './setup.js';

const ROOT = join(import.meta.dirname, '..', '..');
const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;

/** An apply result (schemas/apply-result.schema.json) of these outcomes. */
function result(outcomes: Record<string, unknown>[]): string {
  return JSON.stringify({
    format_version: '1.1',
    panel_url: 'https://panel.example:8443/api/v2',
    outcomes,
    summary: {},
  });
}

const EVIL = 'x<img src=x onerror=alert(1)>|`*_[a](b)\n## heading';

describe('applySummary', () => {
  it('groups what failed, was skipped, deleted, updated and created, each name as data; the plan applied in a collapsed section', () => {
    const page = applySummary({
      manifest: 'panel/m|<b>.yaml',
      exitCode: 1,
      commit: '0123456789abcdef0123456789abcdef01234567',
      result: result([
        { id: 'client:alice', action: 'create', type: 'client', name: 'alice', status: 'succeeded', panel_id: 3 },
        {
          id: 'domain:a',
          action: 'create',
          type: 'domain',
          name: EVIL,
          status: 'failed',
          error: `POST https://panel.example:8443/api/v2/domains answered 400: ${EVIL}`,
        },
        { id: 'domain:b', action: 'create', type: 'domain', name: 'b.example', status: 'skipped', because: 'domain:a' },
        { id: 'client:bob', action: 'update', type: 'client', name: 'bob', status: 'succeeded', panel_id: 4 },
        { id: 'client:carol', action: 'delete', type: 'client', name: 'carol', status: 'succeeded', panel_id: 5 },
        { id: 'dns_zone:z', action: 'update', type: 'dns_zone', name: 'z.example', status: 'succeeded', panel_id: 6 },
      ]),
      plan: '### panel-provision plan: 2 to create\n\n| a | b |',
      stderr: '',
      panelUrl: 'https://panel.example:8443',
      runUrl: 'https://github.com/acme/panel/actions/runs/9',
    });
    expect(page).toMatch(
      /^### \*\*Apply of <code>panel\/m&#124;&#60;b&#62;\.yaml<\/code>\*\* at `0123456`: :x: failed \(exit 1\)\n/,
    );
    expect(page).toContain(
      '| failed | skipped | deleted | updated | created |\n|---:|---:|---:|---:|---:|\n| 1 | 1 | 1 | 2 | 1 |',
    );
    const order = ['**Failed** (1)', '**Skipped** (1)', '**Deleted** (1)', '**Updated** (2)', '**Created** (1)'].map(
      (title) => page.indexOf(title),
    );
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(page).toContain('- client <code>alice</code>\n');
    expect(page).toContain('- dns&#95;zone <code>z.example</code>\n');
    expect(page).toContain('- domain <code>b.example</code> (create): <code>domain:a</code> failed\n');
    // The name and the panel's message are data: no tag, no table cell, no heading, no link; the address blanked.
    const failed = page.split('\n').find((line) => line.includes('(create): POST'))!;
    expect(failed).toBe(
      '- domain <code>x&#60;img src=x onerror=alert(1)&#62;&#124;&#96;&#42;&#95;&#91;a&#93;(b)&#92;n## heading</code> (create): ' +
        'POST &#60;panel&#62;/api/v2/domains answered 400: x&#60;img src=x onerror=alert(1)&#62;&#124;&#96;&#42;&#95;&#91;a&#93;(b)&#92;n## heading',
    );
    expect(page).not.toContain('<img');
    expect(page).not.toContain('panel.example');
    expect(page).toContain(
      '<details><summary>The plan that was applied</summary>\n\n### panel-provision plan: 2 to create\n\n| a | b |\n\n</details>',
    );
    expect(page).toContain('[the run](https://github.com/acme/panel/actions/runs/9)');
  });

  it('says nothing was applied when apply did not run (its problems quoted), and no changes when there were none', () => {
    const stopped = applySummary({
      manifest: 'm.yaml',
      exitCode: 3,
      result: JSON.stringify({ format_version: '1.0', code: 'stale_plan', message: 'stale plan' }),
      plan: '',
      stderr: 'error: stale plan: client "alice" exists now on https://panel.example\n::error::x\n',
      panelUrl: 'https://panel.example',
    });
    expect(stopped).toContain(':x: stale plan: the panel changed since the plan was made; nothing was sent (exit 3)');
    expect(stopped).toContain('Nothing was applied: the run stopped before apply sent a request.');
    expect(stopped).toContain('```text\nerror: stale plan: client "alice" exists now on <panel>\n```');
    expect(stopped).not.toContain('::error');
    expect(stopped).not.toContain('<details>');
    const none = applySummary({ manifest: 'm.yaml', exitCode: 0, result: result([]), plan: '', stderr: '' });
    expect(none).toContain('No changes: nothing was sent.');
    // A result of a newer major is not read as this one.
    const newer = applySummary({
      manifest: 'm.yaml',
      exitCode: 0,
      result: JSON.stringify({
        format_version: '2.0',
        outcomes: [{ action: 'create', type: 'client', name: 'a', status: 'succeeded' }],
      }),
      plan: '',
      stderr: '',
    });
    expect(newer).not.toContain('**Created**');
  });

  it(`lists at most ${LISTED_LIMIT} names per group and stays under ${SUMMARY_LIMIT} bytes, the plan left out when it does not fit`, () => {
    const many = Array.from({ length: LISTED_LIMIT + 5 }, (_, i) => ({
      action: 'create',
      type: 'client',
      name: `c${i}`,
      status: 'succeeded',
    }));
    const page = applySummary({
      manifest: 'm.yaml',
      exitCode: 0,
      result: result(many),
      plan: 'p'.repeat(SUMMARY_LIMIT),
      stderr: '',
    });
    expect(page).toContain(`**Created** (${LISTED_LIMIT + 5})`);
    expect(page).toContain(`- client <code>c${LISTED_LIMIT - 1}</code>\n- … and 5 more: the job's log lists every one`);
    expect(page).not.toContain(`<code>c${LISTED_LIMIT}</code>`);
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(page).toContain("The plan is too long for this page: the job's log holds it.");
  });
});

describe('provision-pr-comment --step-summary', () => {
  it('appends the page to GITHUB_STEP_SUMMARY through the redaction filter; without it, writes nothing and says so', async () => {
    const dir = await tempDir();
    const summary = join(dir, 'summary.md');
    await writeFile(summary, 'before\n');
    await writeFile(
      join(dir, 'apply.json'),
      result([{ action: 'create', type: 'client', name: 'alice', status: 'succeeded' }]),
    );
    const out: string[] = [];
    const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => out.push(t) } };
    const argv = ['--step-summary', '--command', 'apply', '--manifest', 'm.yaml', '--exit-code', '0', '--result-file'];
    expect(await runPrComment([...argv, join(dir, 'apply.json')], { GITHUB_STEP_SUMMARY: summary }, io)).toBe(0);
    const page = await readFile(summary, 'utf8');
    expect(page).toMatch(/^before\n### \*\*Apply of <code>m\.yaml<\/code>\*\*: :white_check_mark: applied \(exit 0\)/);
    expect(page).toContain('- client <code>alice</code>');
    expect(await runPrComment([...argv, join(dir, 'apply.json')], {}, io)).toBe(0);
    expect(out.join('')).toContain('No step summary: GITHUB_STEP_SUMMARY is not set');
    expect(await runPrComment([...argv.slice(0, 2), 'plan', ...argv.slice(3), 'x'], {}, io)).toBe(1);
    expect(out.join('')).toContain('--step-summary is for --command apply');
  });
});

describe('the action, apply', () => {
  it('writes to the step summary what was created and what failed, with the panel address blanked, never the key or a password', async () => {
    // The panel's message names the panel's address, as messages may: the page blanks it.
    const at = { url: '' };
    const simulator = await sim({
      intercept: (req) =>
        req.method === 'POST' && req.path === '/domains'
          ? { status: 422, json: { message: `the domain <b>|shop|</b> is refused by ${at.url}` } }
          : undefined,
    });
    at.url = simulator.url;
    const temp = await tempDir();
    const workspace = join(temp, 'workspace');
    await mkdir(join(workspace, 'panel'), { recursive: true });
    await writeFile(
      join(workspace, 'panel', 'manifest.yaml'),
      'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n',
    );
    const { env } = await fakeNpm(temp);
    await gitRemote(temp, workspace);
    const summary = join(temp, 'summary.md');
    await writeFile(summary, '');
    const identity = await generateIdentity();
    const r = await runComposite(
      action,
      {
        command: 'apply',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'secrets-recipient': await identityToRecipient(identity),
        'apply-args': '--generate-passwords',
      },
      {
        temp,
        workspace,
        github: {
          token: 'ghs_FAKEtoken0123456789',
          'event.pull_request.number': '',
          'event.repository.private': 'true',
          action_path: ROOT,
        },
        env: { ...env, GITHUB_STEP_SUMMARY: summary },
      },
    );
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.steps.find((s) => s.name === 'Summarise the apply')?.outcome).toBe('success');
    const page = await readFile(summary, 'utf8');
    // Only the action's own page: provision itself wrote none in the apply step.
    expect(page.match(/\*\*Apply of /g)).toHaveLength(1);
    // Then the journal's line: where the passwords were kept.
    expect(page).toContain('The secrets journal: `panel-secrets.jsonl` committed to the branch `provision-secrets`');
    expect(page.match(/### panel-provision plan/g)).toHaveLength(1);
    expect(page).not.toContain('**Apply: ');
    expect(page).toMatch(/^### \*\*Apply of <code>panel\/manifest\.yaml<\/code>\*\*: :x: failed \(exit 1\)/);
    expect(page).toContain('| 1 | 0 | 0 | 0 | 1 |');
    expect(page).toContain('**Created** (1)\n\n- client <code>alice</code>');
    expect(page).toMatch(
      /\*\*Failed\*\* \(1\)\n\n- domain <code>alice\.example<\/code> \(create\): [^\n]*&#60;b&#62;&#124;shop&#124;/,
    );
    expect(page).toContain('<details><summary>The plan that was applied</summary>');
    expect(page).toContain('is refused by &#60;panel&#62;');
    expect(page).not.toContain(new URL(simulator.url).host);
    expect(page).not.toContain(API_KEY);
    // The new password (in the secrets file, encrypted) appears nowhere on the page or in the log.
    const line = (await readFile(r.outputs['secrets-file']!, 'utf8'))
      .split('\n')
      .find((l) => l.includes('"password_age"'))!;
    const password = await decryptPassword((JSON.parse(line) as { password_age: string }).password_age, [identity]);
    expect(password.length).toBeGreaterThan(8);
    expect(page).not.toContain(password);
    for (const step of r.steps) expect(step.stdout + step.stderr).not.toContain(password);
  });
});
