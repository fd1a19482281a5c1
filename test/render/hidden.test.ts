/**
 * The characters that hide in a name or reorder a line without showing (issue 20 item 18b):
 * each, in every string a renderer is given, comes out as a visible escape, never raw, through
 * quote, safeText, the Markdown text and workflow annotations, and through every renderer of
 * the library API (which has no last guard on its output: the CLI's guardOutput covers only
 * part of the set). A plan
 * loaded from a file (provision show, the library's loadSavedPlan) carries its reasons and
 * names as data, so every string counts, not only the names.
 */
import { describe, expect, it } from 'vitest';
import {
  planView,
  renderApplyJson,
  renderApplyText,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
  type PlanView,
} from '../../src/api/index.js';
import type { Outcome } from '../../src/apply/execute.js';
import { markdownText, quote, safeText, workflowData } from '../../src/escape.js';
import { githubAnnotation } from '../../src/render/diagnostics.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';

/** Each character, with what it is: every one the escaper covers beyond C0, DEL and C1. */
const HIDDEN: readonly (readonly [number, string])[] = [
  [0x061c, 'ARABIC LETTER MARK'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x2028, 'LINE SEPARATOR'],
  [0x2029, 'PARAGRAPH SEPARATOR'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2061, 'FUNCTION APPLICATION'],
  [0x2062, 'INVISIBLE TIMES'],
  [0x2063, 'INVISIBLE SEPARATOR'],
  [0x2064, 'INVISIBLE PLUS'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE (byte order mark)'],
];

const escapeOf = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

/** Not part of any data: the discriminants the renderers switch on. */
const KINDS = new Set(['action', 'type', 'field', 'status']);

/** `value` with `char` put into every string it holds, second and last, keys in KINDS aside (ids alike everywhere). */
function tainted<T>(value: T, char: string): T {
  if (typeof value === 'string') return `${value.slice(0, 1)}${char}${value.slice(1)}${char}` as T;
  if (Array.isArray(value)) return value.map((v: unknown) => tainted(v, char)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, KINDS.has(k) ? v : tainted(v, char)])) as T;
  return value;
}

/** A plan with every kind of change and finding, every string of it holding `char`. */
function everything(char: string): { view: PlanView; outcomes: Outcome[] } {
  const base = diff(
    desired({
      alice: { plan: 'Basic', email: 'alice@example.com', domains: ['alice.example', 'shop.alice.example'] },
      bob: { plan: 'Standard', email: 'new@example.com' },
      carol: { state: 'absent' },
      dave: { domains: ['dave.example', { name: 'old.dave.example', state: 'absent' }] },
    }),
    live(
      [
        [2, 'bob', 1, { email: 'old@example.com' }],
        [3, 'carol'],
        [4, 'dave'],
        [9, 'mallory'],
      ],
      [
        [20, 'carol.example', 3],
        [21, 'dave.example', 4],
        [22, 'old.dave.example', 4],
        [23, 'mallory.example', 9],
      ],
    ),
  );
  const plan: Plan = tainted(
    {
      ...base,
      conflicts: [
        { domain: 'taken.example', client: 'alice', owner: 'mallory' },
        { domain: 'parent.example', client: 'dave', owner: 'dave', subdomains: ['a.parent.example'] },
      ],
      unknowns: [{ client: 'bob', field: 'email' }],
    },
    char,
  );
  expect(plan.changes.map((c) => `${c.action} ${c.type}`).sort()).toEqual([
    'create client',
    'create domain',
    'create domain',
    'delete client',
    'delete domain',
    'update client',
  ]);
  const view = planView(plan, {
    panelUrl: `https://panel${char}.example/api/v2`,
    manifest: { file: `manifest${char}.yaml`, desired: desired({}), sha256: '0'.repeat(64) },
    live: live(),
    notes: [`a note${char}`],
    showUnmanaged: true,
  });
  const withWarnings: PlanView = { ...view, warnings: [`a warning${char}`] };
  const [first, second, third] = plan.changes;
  if (first === undefined || second === undefined || third === undefined) throw new Error('changes');
  const outcomes: Outcome[] = [
    { change: first, status: 'succeeded', id: 7, note: `a note${char}` },
    { change: second, status: 'failed', error: `400 Bad Request: ${char}` },
    { change: third, status: 'skipped', because: first.id },
  ];
  return { view: withWarnings, outcomes };
}

describe.each(HIDDEN)('U+%s (%s)', (code) => {
  const char = String.fromCharCode(code);
  const escape = escapeOf(code);

  it('quote, safeText, the Markdown text and a workflow annotation show it as its escape', () => {
    expect(quote(`a${char}b`)).toBe(`"a${escape}b"`);
    expect(safeText(`a${char}b`)).toBe(`a${escape}b`);
    expect(markdownText(`a${char}b`)).toBe(`a${escape.replace('\\', '&#92;')}b`);
    expect(workflowData(`a${char}b`)).toBe(`a${escape}b`);
    expect(
      githubAnnotation({ file: `m${char}.yaml`, line: 1, column: 2, severity: 'error', message: `x${char}` }),
    ).toBe(`::error file=m${escape}.yaml,line=1,col=2::x${escape}`);
  });

  it('no renderer of the library lets it through, from any string it is given', () => {
    const { view, outcomes } = everything(char);
    const outputs = {
      text: renderPlanText(view),
      colour: renderPlanText(view, { color: true }),
      markdown: renderPlanMarkdown(view, { showUrl: true }),
      json: renderPlanJson(view),
      applyText: renderApplyText(outcomes),
      applyColour: renderApplyText(outcomes, { color: true }),
      applyJson: renderApplyJson(outcomes, view),
    };
    for (const [name, text] of Object.entries(outputs)) {
      const raw = text.split('\n').find((line) => line.includes(char));
      expect(raw, `${name}: ${JSON.stringify(raw)}`).toBeUndefined();
      // Shown, not dropped: the reader sees that the name holds it.
      expect(text, name).toContain(name === 'markdown' ? escape.replace('\\', '&#92;') : escape);
    }
    // JSON parses back to the very strings, the character in them.
    expect(JSON.stringify(JSON.parse(outputs.json))).toContain(char);
  });
});
