/**
 * Keys a JavaScript object inherits (`constructor`, `toString`, `__proto__`, `hasOwnProperty`) in
 * a hosting plan's objects, in the manifest and on the panel (issue 30, 7b): the "key the panel's
 * record lacks" check looks at the record's own keys only, the key is managed like any other
 * when the record has it, and the plan renders in text, JSON and Markdown without a crash.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, InterceptResult } from '../../src/simulator/index.js';
import { run, workspace, type Workspace } from '../helpers/cli.js';

const ODD_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty'] as const;

const MANIFEST = `version: 1
hosting_plans:
  - name: Basic
    resources: {constructor: 5, toString: 3, __proto__: 7, hasOwnProperty: 1}
    php: {valueOf: "x"}
`;

const planValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object,
);

/**
 * A panel whose plan list (and plan records: apply reads one again just before its PUT) is the
 * simulator's, with `extra` added as own keys to Basic's objects (JSON.parse makes `__proto__` an
 * own key, as a real panel's answer would).
 */
function withKeys(extra: Record<string, string>): {
  intercept: (req: InterceptRequest) => InterceptResult | undefined;
  bind: (w: Workspace) => void;
} {
  let sim: Workspace | undefined;
  return {
    bind: (w) => (sim = w),
    intercept: (req) => {
      if (sim === undefined || req.method !== 'GET') return undefined;
      const one = /^\/hosting-plans\/([0-9]+)$/.exec(req.path);
      if (req.path !== '/hosting-plans' && one === null) return undefined;
      const all = [...sim.sim.state.plans.values()];
      const plans = one === null ? all : all.find((p) => String(p.id) === one[1]);
      const text = JSON.stringify(plans)
        .replace('"name":"Basic","resources":{', `"name":"Basic","resources":{${extra.resources ?? ''}`)
        .replace(/("name":"Basic".*?"php":\{)/, `$1${extra.php ?? ''}`);
      return { status: 200, text, headers: { 'content-type': 'application/json' } };
    },
  };
}

describe('hosting plan keys a JavaScript object inherits', () => {
  it('are lacking from a panel record that does not hold them: a conflict naming each, in every format', async () => {
    const w = await workspace(MANIFEST);
    for (const format of ['text', 'json', 'markdown']) {
      const r = await run(['plan', w.file, '--format', format], w.env);
      const out = r.stdout + r.stderr;
      expect(r.code, out).not.toBe(0);
      expect(out).not.toMatch(/TypeError|at .*\.ts:\d+/);
      for (const key of ODD_KEYS) expect(out, format).toContain(`resources.${key}`);
      expect(out, format).toContain('php.valueOf');
      if (format === 'json') expect(planValid(JSON.parse(r.stdout)), JSON.stringify(planValid.errors)).toBe(true);
    }
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('are managed like any key when the panel record holds them: planned, rendered, sent and exported', async () => {
    const hook = withKeys({
      resources: '"constructor":1,"toString":3,"__proto__":2,"hasOwnProperty":0,',
      php: '"valueOf":"y",',
    });
    const writes: unknown[] = [];
    const w = await workspace(MANIFEST, {
      intercept: (req) => {
        if (req.method !== 'PUT') return hook.intercept(req);
        // The simulator knows no such keys: this panel takes them.
        writes.push(req.body);
        return { status: 200, json: { id: 1 } };
      },
    });
    hook.bind(w);
    const text = await run(['plan', w.file], w.env);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain('resources.constructor: 1 -> 5');
    expect(text.stdout).toContain('resources.__proto__: 2 -> 7');
    expect(text.stdout).toContain('resources.hasOwnProperty: 0 -> 1');
    expect(text.stdout).toContain('php.valueOf: "y" -> "x"');
    expect(text.stdout).not.toContain('toString:');

    const json = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { changes: { fields?: { field: string }[] }[] };
    expect(planValid(doc), JSON.stringify(planValid.errors)).toBe(true);
    expect(doc.changes.flatMap((c) => (c.fields ?? []).map((f) => f.field))).toEqual([
      'resources.constructor',
      'resources.__proto__',
      'resources.hasOwnProperty',
      'php.valueOf',
    ]);

    const md = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('constructor');

    // Saved, shown again and applied as saved: the document's checks read own keys too.
    const saved = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(saved.code, saved.stderr).toBe(0);
    const shown = await run(['show', w.planFile]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('resources.__proto__: 2 -> 7');
    const applied = await run(['apply', w.planFile, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(writes).toHaveLength(1);
    const body = writes[0] as { resources: Record<string, unknown>; php: Record<string, unknown> };
    expect(Object.hasOwn(body.resources, '__proto__')).toBe(true);
    expect(body.resources.constructor).toBe(5);
    expect(Object.getOwnPropertyDescriptor(body.resources, '__proto__')?.value).toBe(7);
    expect(Object.getOwnPropertyDescriptor(body.php, 'valueOf')?.value).toBe('x');

    const exported = await run(['export', '--with', 'hosting-plans'], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    const basic = /- name: Basic\n([\s\S]*?)(?=\n {2}- name:|\nclients:|$)/.exec(exported.stdout)?.[1] ?? '';
    for (const line of ['constructor: 1', 'toString: 3', '__proto__: 2', 'hasOwnProperty: 0', 'valueOf: y'])
      expect(basic, exported.stdout).toContain(line);
  });
});
