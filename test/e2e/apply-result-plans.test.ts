/**
 * `apply --format json` of a plan with hosting plan changes is what schemas/apply-result.schema.json
 * says (format 1.3): `hosting_plan` outcomes, succeeded, failed (with the error's machine code,
 * `error_code`) and skipped, validate against the file users get, on real output through the CLI
 * against the simulator. (Format 1.2 refused them: the schema knew no hosting_plan id or type.)
 * A scoped run's result says its scope.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const schema = JSON.parse(
  readFileSync(new URL('../../schemas/apply-result.schema.json', import.meta.url), 'utf8'),
) as object;
const applyValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

/** Gold is created; Silver's create is refused, so dave (on it) is skipped; Basic is updated. */
const MANIFEST = `version: 1
hosting_plans:
  - name: Gold
    resources: {domains: 10}
  - name: Silver
    resources: {domains: 5}
  - name: Basic
    resources: {domains: 2}
clients:
  - username: carol
    plan: Gold
  - username: dave
    plan: Silver
`;

interface Result {
  format_version: string;
  outcomes: { id: string; type: string; name: string; action: string; status: string; error_code?: string }[];
}

describe('the apply result of hosting plan changes against its schema', () => {
  it('a hosting_plan outcome of each status validates, a failure with its error_code; the format is 1.3', async () => {
    const w = await workspace(MANIFEST, {
      intercept: (req) =>
        req.method === 'POST' && req.path === '/hosting-plans' && JSON.stringify(req.body).includes('"Silver"')
          ? { status: 400, json: { code: '400 Bad Request', message: 'Plan limit reached.' } }
          : undefined,
    });
    const applied = await run(['apply', w.file, '--auto-approve', '--format', 'json'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(1);
    const result = JSON.parse(applied.stdout) as Result;
    expect(applyValid(result), JSON.stringify(applyValid.errors)).toBe(true);
    expect(result.format_version).toBe('1.3');
    expect(result.outcomes.map((o) => [o.id, o.action, o.status, o.error_code])).toEqual([
      ['hosting_plan:Gold', 'create', 'succeeded', undefined],
      ['hosting_plan:Silver', 'create', 'failed', 'panel_http'],
      ['hosting_plan:Basic', 'update', 'succeeded', undefined],
      ['client:carol', 'create', 'succeeded', undefined],
      ['client:dave', 'create', 'skipped', undefined],
    ]);
  });

  it('the result of a run scoped by --clients carries its scope; one of the whole manifest has none', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: carol\n  - username: dave\n');
    const scoped = await run(
      ['apply', w.file, '--clients', 'car*', '--auto-approve', '--format', 'json'],
      w.envWithSecrets,
    );
    expect(scoped.code, scoped.stderr).toBe(0);
    const result = JSON.parse(scoped.stdout) as Result & { scope?: unknown };
    expect(applyValid(result), JSON.stringify(applyValid.errors)).toBe(true);
    expect(result.scope).toEqual({ clients: ['car*'] });
    expect(result.outcomes.map((o) => o.id)).toEqual(['client:carol']);
    const whole = await run(['apply', w.file, '--auto-approve', '--format', 'json'], w.envWithSecrets);
    const rest = JSON.parse(whole.stdout) as Result & { scope?: unknown };
    expect(applyValid(rest), JSON.stringify(applyValid.errors)).toBe(true);
    expect(rest.scope).toBeUndefined();
    expect(rest.outcomes.map((o) => o.id)).toEqual(['client:dave']);
  });
});
