/**
 * prune.hosting_plans and the plans the manifest's clients name without listing them (issue 30,
 * 9): an empty panel plan a client is created on, or moved to, is in use once the plan is
 * applied, so prune passes over it (counted as unmanaged); only an unnamed empty plan goes.
 */
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

describe('prune of hosting plans the manifest clients name', () => {
  it('keeps an empty unlisted plan a new client is created on, and one a client moves to', async () => {
    const w = await workspace(
      `version: 1
prune:
  hosting_plans: true
hosting_plans:
  - name: Basic
clients:
  - username: alice
    plan: Premium Plus
  - username: dave
    plan: Standard
`,
      {
        seed: {
          hostingPlans: ['Basic', 'Standard', 'Premium Plus', 'Spare'],
          clients: [{ username: 'alice', plan: 'Basic' }],
        },
      },
    );
    const planned = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    const doc = JSON.parse(planned.stdout) as { changes: { id: string; action: string }[] };
    expect(doc.changes.map((c) => `${c.action} ${c.id}`)).toEqual([
      'update client:alice',
      'create client:dave',
      'delete hosting_plan:Spare',
    ]);

    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(w.sim.state.planNamed('Spare')).toBeUndefined();
    const standard = w.sim.state.planNamed('Standard')?.id;
    const premium = w.sim.state.planNamed('Premium Plus')?.id;
    expect(standard).toEqual(expect.any(Number));
    expect(w.sim.state.clientNamed('dave')?.id_hosting_plan).toBe(standard);
    expect(w.sim.state.clientNamed('alice')?.id_hosting_plan).toBe(premium);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
