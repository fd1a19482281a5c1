/**
 * `apply --format json` of a plan with DNS zone changes is what schemas/apply-result.schema.json
 * says (format 1.3): each `dns_zone` outcome, succeeded, failed and skipped, validates against
 * the file users get, compiled with ajv as test/e2e/schemas.test.ts compiles it, on real output
 * through the CLI against the simulator.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const schema = JSON.parse(
  readFileSync(new URL('../../schemas/apply-result.schema.json', import.meta.url), 'utf8'),
) as object;
const applyValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

/** alice's zone is updated; bob's zone PUT is refused; carol's new domain is refused, so its zone is skipped. */
const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: TXT, value: "v=spf1 -all"}
  - username: bob
    domains:
      - name: bob.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.20}
  - username: carol
    domains:
      - name: carol.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.30}
`;

interface Result {
  format_version: string;
  outcomes: { id: string; type: string; name: string; action: string; status: string }[];
}

describe('the apply result of DNS zone changes against its schema', () => {
  it('a dns_zone outcome of each status validates; the format is 1.3', async () => {
    const w = await workspace(MANIFEST, {
      seed: {
        clients: [
          { username: 'alice', domains: ['alice.example'] },
          { username: 'bob', domains: ['bob.example'] },
          { username: 'carol' },
        ],
      },
      intercept: (req) => {
        const bob = w.sim.state.domainNamed('bob.example')?.id;
        if (req.method === 'PUT' && req.path === `/dns/${bob}`)
          return { status: 400, json: { code: '400 Bad Request', message: 'Zone locked.' } };
        if (req.method === 'POST' && req.path === '/domains')
          return { status: 400, json: { code: '400 Bad Request', message: 'Quota reached.' } };
        return undefined;
      },
    });
    const plan = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(plan.code, plan.stderr).toBe(0);

    const applied = await run(
      ['apply', w.file, '--auto-approve', '--format', 'json', '--settle-timeout', '0'],
      w.envWithSecrets,
    );
    expect(applied.code, applied.stderr).toBe(1);
    const result = JSON.parse(applied.stdout) as Result;
    expect(applyValid(result), JSON.stringify(applyValid.errors)).toBe(true);
    expect(result.format_version).toBe('1.3');
    const zones = result.outcomes.filter((o) => o.type === 'dns_zone');
    expect(zones.map((o) => [o.id, o.name, o.action, o.status])).toEqual([
      ['dns_zone:alice.example', 'alice.example', 'update', 'succeeded'],
      ['dns_zone:bob.example', 'bob.example', 'update', 'failed'],
      ['dns_zone:carol.example', 'carol.example', 'update', 'skipped'],
    ]);
  });

  it('the schema still refuses a change type that does not exist', () => {
    const outcome = { id: 'mailing_list:x', action: 'update', type: 'mailing_list', name: 'x', status: 'skipped' };
    expect(
      applyValid({
        format_version: '1.3',
        panel_url: 'x',
        outcomes: [{ ...outcome, because: 'interrupted' }],
        summary: { succeeded: 0, failed: 0, skipped: 1 },
      }),
    ).toBe(false);
  });
});
