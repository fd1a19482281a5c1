/**
 * The action's comment body, built directly: within GitHub's size limit with the plan cut at a
 * line, the run's output kept as data, a status line for each exit code; and the Link header's
 * next page.
 */
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, commentBody, commentMarker, hasMarker } from '../../src/action/body.js';
import { nextLink } from '../../src/action/github.js';
import { PR_MANIFEST as MANIFEST } from '../helpers/cli.js';

describe('the comment body', () => {
  it('stays within 65,536 characters however long the plan, cut at a line with its fences and sections closed', () => {
    const section = `<details><summary><code>c</code></summary>\n\n\`\`\`diff\n${'+ POST /domains {"domain":"x.example"}\n'.repeat(50)}\`\`\`\n</details>\n`;
    const plan = `### panel-provision plan\n\n${section.repeat(60)}`;
    expect(plan.length).toBeGreaterThan(COMMENT_LIMIT);
    const body = commentBody({
      command: 'plan',
      manifest: MANIFEST,
      exitCode: 2,
      plan,
      stderr: 'warning: something\n',
    });
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toMatch(
      /\*\*The plan is cut here\*\*: \d+ more characters than a comment can hold \(creates are listed last, so they are what is left out\); run `provision plan` on the branch for the whole plan\.\n/,
    );
    // Where the whole plan is, when the run printed it (the action: provision show plan.json): the run's log, linked.
    const logged = commentBody({
      command: 'plan',
      manifest: MANIFEST,
      exitCode: 2,
      plan,
      stderr: '',
      planInLog: true,
      runUrl: 'https://github.example/acme/panel/actions/runs/99',
    });
    expect(logged.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(logged).toContain(
      '; the whole plan is in the log of [the run](https://github.example/acme/panel/actions/runs/99), step "provision plan" (printed by `provision show` from the saved plan.json).',
    );
    for (const text of [body, logged]) expect(text).not.toContain('job summary');
    expect((body.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect((body.match(/<details>/g) ?? []).length).toBe((body.match(/<\/details>/g) ?? []).length);
    // The error output is long too: quoted up to its limit, the rest named.
    const noisy = commentBody({
      command: 'plan',
      manifest: MANIFEST,
      exitCode: 1,
      plan: '',
      stderr: 'error: x\n'.repeat(5000),
    });
    expect(noisy.length).toBeLessThan(20_000);
    expect(noisy).toMatch(/… \d+ more lines in the job's log/);
  });

  it('keeps what the run printed as data: a fence it cannot close, no raw control characters, a marker no path can end early', () => {
    const body = commentBody({
      command: 'plan',
      manifest: 'a-->b/<m>.yaml',
      exitCode: 1,
      plan: '',
      stderr: 'error: name "````\n<script>" \u001b[31mred\u202e\n',
    });
    expect(body).toContain('`````text\nerror: name "````\n<script>" \\u001b[31mred\\u202e\n`````');
    expect(body.includes('\u001b') || body.includes('\u202e')).toBe(false);
    const marker = commentMarker('a-->b/<m>.yaml');
    expect(marker).toBe('<!-- panel-provision: a--%3Eb/%3Cm%3E.yaml -->');
    expect(hasMarker(body, marker)).toBe(true);
    expect(hasMarker(body, commentMarker('a-->b/<m>.yml'))).toBe(false);
    expect(body).toContain('**Plan of <code>a--&#62;b/&#60;m&#62;.yaml</code>**');
  });

  it('says what each exit code means, for plan and for apply', () => {
    const status = (command: 'plan' | 'apply', exitCode: number): string =>
      commentBody({ command, manifest: 'm.yaml', exitCode, plan: '', stderr: '' }).split('\n')[1] ?? '';
    expect([0, 1, 2, 7].map((code) => status('plan', code))).toEqual([
      '**Plan of <code>m.yaml</code>**: :white_check_mark: no changes (exit 0)',
      '**Plan of <code>m.yaml</code>**: :x: failed: nothing can be applied until the problems below are fixed (exit 1)',
      '**Plan of <code>m.yaml</code>**: :memo: changes to review (exit 2)',
      '**Plan of <code>m.yaml</code>**: :x: ended unexpectedly (exit 7)',
    ]);
    expect([0, 3, 4, 130].map((code) => status('apply', code))).toEqual([
      '**Apply of <code>m.yaml</code>**: :white_check_mark: applied (exit 0)',
      '**Apply of <code>m.yaml</code>**: :x: stale plan: the panel changed since the plan was made; nothing was sent (exit 3)',
      '**Apply of <code>m.yaml</code>**: :x: mass create or delete refused; nothing was sent (exit 4)',
      '**Apply of <code>m.yaml</code>**: :warning: interrupted: apply again to finish (exit 130)',
    ]);
  });

  it('reads the next page from a Link header', () => {
    expect(
      nextLink(
        '<https://api.github.com/repositories/1/issues/7/comments?page=2>; rel="next", <https://api.github.com/repositories/1/issues/7/comments?page=5>; rel="last"',
      ),
    ).toBe('https://api.github.com/repositories/1/issues/7/comments?page=2');
    expect(nextLink('<https://x/?page=1>; rel="prev", <https://x/?page=3>; rel="last"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});
