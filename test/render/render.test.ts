import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { githubAnnotation } from '../../src/render/diagnostics.js';
import type { PlanView } from '../../src/render/common.js';
import { paint } from '../../src/render/common.js';
import { MARKDOWN_LIMIT, renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderProgressLine } from '../../src/render/outcome.js';
import { renderPlanText } from '../../src/render/text.js';
import { type ClientSpec, desired, live } from '../helpers/builders.js';

function view(plan: Partial<Plan>, extra: Partial<PlanView> = {}): PlanView {
  return {
    plan: {
      changes: [],
      conflicts: [],
      unknowns: [],
      unmanaged: { clients: [], domains: [] },
      ...plan,
    },
    panelUrl: 'https://panel.example/api/v2',
    manifest: 'manifest.yaml',
    showUnmanaged: false,
    notes: [],
    manifestSha256: '0'.repeat(64),
    fingerprint: `sha256:${'0'.repeat(64)}`,
    ...extra,
  };
}

describe('GitHub annotations', () => {
  it('escapes the message and the properties as the runner expects', () => {
    expect(
      githubAnnotation({
        file: 'dir,a:b/m%.yaml',
        line: 3,
        column: 15,
        severity: 'error',
        message: 'bad: 100%\r\nnext, line',
      }),
    ).toBe('::error file=dir%2Ca%3Ab/m%25.yaml,line=3,col=15::bad: 100%25%0D%0Anext, line');
    expect(githubAnnotation({ file: 'm.yaml', line: 1, column: 1, severity: 'warning', message: 'w' })).toBe(
      '::warning file=m.yaml,line=1,col=1::w',
    );
  });
});

describe('Markdown bounds', () => {
  it('keeps thousands of conflicts, unknown fields and warnings under the limit, saying how many it left out', () => {
    const conflicts = Array.from({ length: 5000 }, (_, i) => ({
      domain: `d${i}.example`,
      client: `c${i}`,
      owner: `o${i}`,
    }));
    const unknowns = Array.from({ length: 5000 }, (_, i) => ({
      client: `c${i}`,
      field: 'email' as const,
    }));
    const text = renderPlanMarkdown(
      view(
        {
          conflicts,
          unknowns,
          unmanaged: { clients: ['secret-customer'], domains: ['secret.example'] },
        },
        { showUnmanaged: true },
      ),
    );
    expect(text.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(text).toContain('| conflicts | 5000 |');
    expect(text).toContain('- _… and 4950 more conflicts (run `provision plan` for all of them)_');
    expect(text).toContain('- _… and 4950 more warnings (run `provision plan` for all of them)_');
    // Counts only, even when names were asked for elsewhere.
    expect(text).toContain('Not in the manifest, left alone: 1 client, 1 domain.');
    expect(text).not.toContain('secret');
  });

  it('names the panel URL only when asked, and shows international names in Unicode beside their ASCII form, as data', () => {
    const change = {
      id: 'domain:xn--bcher-kva.example',
      action: 'create',
      type: 'domain',
      name: 'xn--bcher-kva.example',
      client: 'alice',
      clientId: 3,
      reason: 'not on the panel',
      dependsOn: [],
    } as const;
    // xn--ngbc5azd is an Arabic label; xn--0ug a lone zero-width joiner, which IDNA refuses: no Unicode form.
    const conflicts = [
      { domain: 'xn--ngbc5azd.example', client: 'alice', owner: 'zed' },
      { domain: 'xn--0ug.example', client: 'alice', owner: 'zed' },
    ];
    const hidden = renderPlanMarkdown(view({ changes: [change], conflicts }));
    expect(hidden).not.toContain('panel.example');
    expect(hidden).toContain('Manifest <code>manifest.yaml</code>.\n');
    expect(renderPlanMarkdown(view({ changes: [change] }), { showUrl: true })).toContain(
      'Manifest <code>manifest.yaml</code> against <code>https://panel.example/api/v2</code>.\n',
    );
    expect(hidden).toContain('# domain "xn--bcher-kva.example" (bücher.example) of client "alice"\n+ POST /domains');
    expect(hidden).toContain(
      '- :x: domain "xn--ngbc5azd.example" (شبكة.example) is listed under client "alice" but belongs to another client on the panel',
    );
    expect(hidden).toContain('- :x: domain "xn--0ug.example" is listed');
    expect(hidden).not.toContain('\u200d');
  });

  it('shows deletes, then updates, then creates, so a plan too long for one comment leaves out creates, never an update', () => {
    // 1,500 new clients first in the manifest, then one whose email changes (last in plan order).
    const clients: Record<string, ClientSpec> = {};
    for (let i = 0; i < 1500; i++) clients[`new${i}`] = { plan: 'Basic', domains: [`new${i}.example`] };
    clients.zed = { plan: 'Basic', email: 'zed@new.example' };
    const plan = diff(
      desired(clients, { prune: { clients: true } }),
      live([
        [7, 'zed', 1, { email: 'zed@old.example' }],
        [8, 'gone', 1],
      ]),
    );
    const text = renderPlanMarkdown(view(plan));
    expect(text.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(text).toMatch(/more client sections left out/);
    const sections = [...text.matchAll(/<summary><code>([^<]+)<\/code>/g)].map((m) => m[1]);
    expect(sections.slice(0, 3)).toEqual(['gone', 'zed', 'new0']);
    expect(text).toContain('~ client "zed": email: "zed@old.example" -> "zed@new.example"');
    expect(text).not.toContain('<code>new1499</code>');
    // The table says it in the same order.
    const rows = text.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| |'));
    expect(rows.slice(0, 4).map((row) => row.split('|')[1]?.trim())).toEqual([
      ':warning: **resources to delete**',
      'clients to update',
      'clients to create',
      'domains to create',
    ]);
  });

  it('keeps manifest names from becoming markup', () => {
    const text = renderPlanMarkdown(view({}, { warnings: ['client "a_b" is on <img src=x> `x`'] }));
    expect(text).not.toContain('<img');
    expect(text).toContain('&#60;img src=x&#62;');
  });
});

describe('terminal output', () => {
  it('paints only when told to', () => {
    expect(paint('red', 'x', false)).toBe('x');
    expect(paint('red', 'x', true)).toBe('\u001b[31mx\u001b[39m');
    const plain = renderPlanText(view({}, { warnings: ['careful'] }), { color: false });
    expect(plain).toBe('Warnings:\n  ! careful\n\nNo changes: the panel matches the manifest; 1 warning.\n');
  });

  it('the progress line fits the terminal', () => {
    expect(renderProgressLine({ succeeded: 3, failed: 1, skipped: 2 }, 10, 80)).toBe(
      'Applying: 6/10 done (3 succeeded, 1 failed, 2 skipped)',
    );
    const narrow = renderProgressLine({ succeeded: 3, failed: 1, skipped: 2 }, 10, 20);
    expect(narrow).toBe('Applying: 6/10 don…');
    expect(narrow.length).toBeLessThan(20);
  });
});
