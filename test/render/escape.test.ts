/* eslint-disable no-control-regex -- these tests look for control characters */
/**
 * Names are data in every output format: whatever a panel or a manifest holds (any Unicode,
 * control characters, workflow commands, markup), no output lets it act. Renderers are driven
 * with arbitrary strings as names; then the whole CLI against a hostile panel.
 */
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  guardOutput,
  jsonText,
  markdownText,
  quote,
  safeText,
  workflowData,
  workflowProperty,
} from '../../src/escape.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { fieldsText } from '../../src/kinds/client/index.js';
import type { PlanView } from '../../src/render/common.js';
import { githubAnnotation, formatDiagnostic } from '../../src/render/diagnostics.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderApplyJson, renderOutcomeLine } from '../../src/render/outcome.js';
import { renderPlanText } from '../../src/render/text.js';
import { desired, live } from '../helpers/builders.js';
import { run, workspace } from '../helpers/cli.js';

/** Characters that must never reach an output raw (the program's own line breaks aside). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The program's own colour sequences, the only ESC allowed (and only with colour on). */
const OWN_SGR = /\u001b\[\d{1,2}m/g;

const ATTACKS = [
  '\n::error file=x::pwn',
  '\n::add-mask::x',
  '\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007',
  '\u001b[2J\u001b[31mred',
  '| a | b |',
  '`code` **bold** <script>x</script> [l](http://e) ![i](x)',
  'a\u0085b\u009bc\u007fd\u2028e\u202ef',
  '\r\u001b[2Kfake progress',
  '%0A::error::encoded',
];

function viewWith(name: string, message = name): { view: PlanView; plan: Plan } {
  const base = diff(
    desired({ alice: { plan: 'Basic', domains: ['alice.example'] } }),
    live([], [], { plans: [{ id: 1, name: 'Basic' }] }),
  );
  const plan: Plan = {
    ...base,
    conflicts: [{ domain: 'taken.example', client: 'alice', owner: name }],
    unknowns: [{ client: name, field: 'email' }],
    unmanaged: { clients: [name, 'zed'], domains: [name] },
  };
  return {
    plan,
    view: {
      plan,
      panelUrl: 'https://panel.example/api/v2',
      manifest: name,
      showUnmanaged: true,
      notes: [message],
      manifestSha256: 'a'.repeat(64),
      fingerprint: `sha256:${'b'.repeat(64)}`,
      warnings: [message],
    },
  };
}

function checkText(text: string, colour = false): void {
  const plain = colour ? text.replace(OWN_SGR, '') : text;
  expect(plain).not.toMatch(RAW);
  for (const line of plain.split('\n')) expect(line.startsWith('::'), line).toBe(false);
}

function checkAll(name: string): void {
  const { view, plan } = viewWith(name);
  checkText(renderPlanText(view, { color: false }));
  checkText(renderPlanText(view, { color: true }), true);
  const markdown = renderPlanMarkdown(view);
  checkText(markdown);
  // Only the renderer's own tags; a name never opens one.
  expect(new Set(markdown.match(/<\/?[a-z][^>]*>/gi) ?? [])).toEqual(
    new Set(['<details>', '<summary>', '<code>', '</code>', '</summary>', '</details>']),
  );
  for (const line of markdown.split('\n').filter((l) => l.startsWith('|'))) expect(line.split('|')).toHaveLength(4);
  const json = renderPlanJson(view);
  checkText(json);
  expect(JSON.parse(json)).toMatchObject({ manifest: name, notes: [name] });
  const change = plan.changes[0];
  if (change === undefined) throw new Error('no change');
  for (const outcome of [
    { change, status: 'failed', error: `POST /api/v2/clients: 400 Bad Request: ${name}` },
    { change, status: 'skipped', because: `client:${name}` },
  ] as const) {
    checkText(renderOutcomeLine(outcome, { color: false }));
    checkText(renderApplyJson([outcome], { changes: [change] }, 'https://panel.example/api/v2'));
  }
  const annotation = githubAnnotation({
    file: name,
    line: 3,
    column: 5,
    severity: 'error',
    message: `hosting plan ${name} is unknown`,
  });
  expect(annotation.split('\n')).toHaveLength(1);
  expect(annotation).not.toMatch(RAW);
  expect(annotation).toMatch(/^::error file=[^:,]*,line=3,col=5::/);
  checkText(formatDiagnostic({ file: name, line: 3, column: 5, severity: 'warning', message: name }));
}

describe('one escaping function per format', () => {
  it('text: a name is quoted as is when harmless, with visible escapes when not', () => {
    expect(quote('alice')).toBe('"alice"');
    expect(quote('Premium "Plus"\\x')).toBe('"Premium \\"Plus\\"\\\\x"');
    expect(quote('a\nb\u001b[2J\u0007\u009b')).toBe('"a\\nb\\u001b[2J\\u0007\\u009b"');
    expect(safeText('tab\there\u2028')).toBe('tab\\there\\u2028');
  });

  it('Markdown: markup and HTML characters as entities, controls as escapes', () => {
    expect(markdownText('a|b `c` <i>*d*_e_ [f]')).toBe(
      'a&#124;b &#96;c&#96; &#60;i&#62;&#42;d&#42;&#95;e&#95; &#91;f&#93;',
    );
    expect(markdownText('x\ny')).toBe('x&#92;ny');
  });

  it('workflow commands: %, CR, LF encoded in data; : and , too in properties', () => {
    expect(workflowData('50% done\r\n::error::x')).toBe('50%25 done%0D%0A::error::x');
    expect(workflowProperty('a:b,c')).toBe('a%3Ab%2Cc');
  });

  it('JSON: parses back to the same value, with nothing unsafe raw', () => {
    const value = { name: 'a\u0085\u007f\u2028\u202e\n' };
    expect(jsonText(value)).toBe('{"name":"a\\u0085\\u007f\\u2028\\u202e\\n"}');
    expect(JSON.parse(jsonText(value, 2))).toEqual(value);
  });

  it("the last guard lets only the program's own colours and redraw through", () => {
    expect(guardOutput('\u001b[32m✓\u001b[39m ok\n\tnext\r\u001b[2Kline')).toBe(
      '\u001b[32m✓\u001b[39m ok\n\tnext\r\u001b[2Kline',
    );
    expect(guardOutput('a\u001b]8;;x\u0007b\rc\u0085d\u001b[2Je')).toBe('a\\u001b]8;;x\\u0007b\\rc\\u0085d\\u001b[2Je');
  });

  it.each(ATTACKS)('the attacks of the issue stay data in every renderer: %j', (name) => {
    checkAll(name);
  });

  it('any Unicode string as a name, in every renderer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (name) => {
        checkAll(name);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the CLI against a panel holding hostile names', () => {
  it('plans them, printing them as data in text, Markdown and JSON', async () => {
    const evil = '\n::error file=x::pwn\u001b]8;;http://evil.example\u0007|`x`';
    const w = await workspace('version: 1\nclients:\n  - username: carol\n    plan: Basic\n', {
      intercept: ({ method, path }) => {
        if (method !== 'GET') return undefined;
        if (path === '/hosting-plans')
          return {
            status: 200,
            json: [
              { id: 1, name: 'Basic' },
              { id: 2, name: `Gold${evil}` },
            ],
          };
        if (path === '/clients')
          return {
            status: 200,
            json: [
              { id: 5, username: 'carol', id_hosting_plan: 2 },
              { id: 6, username: `mallory${evil}` },
            ],
          };
        if (path === '/domains') return { status: 200, json: [{ id: 9, domain: `shop${evil}.example`, id_user: 6 }] };
        return undefined;
      },
    });
    for (const format of ['text', 'markdown', 'json']) {
      const r = await run(['plan', w.file, '--format', format, '--show-unmanaged'], w.env);
      expect(r.code, r.stderr).toBe(0);
      for (const out of [r.stdout, r.stderr]) checkText(out);
      if (format === 'text')
        expect(r.stdout).toContain(
          '~ client "carol": plan: "Gold\\n::error file=x::pwn\\u001b]8;;http://evil.example\\u0007|`x`" -> "Basic"\n',
        );
    }
    // A name in an error: the hosting plan the manifest asks for is not there; the hint lists the panel's.
    await writeFile(w.file, 'version: 1\nclients:\n  - username: carol\n    plan: Gold\n');
    const missing = await run(['plan', w.file], w.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('the panel has: "Basic", "Gold\\n::error file=x::pwn');
    checkText(missing.stderr);
  });
});

describe('update lines', () => {
  it('quote each value, so a name cannot pass for another field, and say none plainly', () => {
    expect(fieldsText([{ field: 'plan', before: 'Basic -> Pro, suspended: true', after: 'Pro' }])).toBe(
      'plan: "Basic -> Pro, suspended: true" -> "Pro"',
    );
    expect(
      fieldsText([
        { field: 'plan', before: '(none)', after: 'Pro' },
        { field: 'email', before: null, after: 'a@b.example' },
      ]),
    ).toBe('plan: "(none)" -> "Pro", email: (none) -> "a@b.example"');
  });

  it('show invisible characters in a name as escapes', () => {
    expect(fieldsText([{ field: 'plan', before: 'B\u200bX', after: 'BX\ufeff' }])).toBe(
      'plan: "B\\u200bX" -> "BX\\ufeff"',
    );
  });
});
