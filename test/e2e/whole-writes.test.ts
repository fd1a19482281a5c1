/**
 * Whole-object writes through the CLI (issue 30, item 6c): a key of a domain's `security`, or of
 * a hosting plan's object, that someone changes in the panel while apply runs (after its plan's
 * read, before its PUT) is kept by an apply that changes another key of the same object.
 */
import { describe, expect, it } from 'vitest';
import type { PanelCall } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

describe('an object changed in the panel during apply', () => {
  it("keeps a domain's security key changed meanwhile, and sets the manifest's", async () => {
    let id = -1;
    // Someone turns Let's Encrypt on; the manifest manages https.force only.
    const letsEncryptOn = (call: PanelCall): void => {
      const domain = call('GET', `/domains/${id}`).json as { security: object };
      expect(call('PUT', `/domains/${id}`, { security: { ...domain.security, lets_encrypt: true } }).status).toBe(200);
    };
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: shop.example
        https: {force: true}
`;
    const w = await workspace(manifest, {
      seed: { clients: [{ username: 'alice', domains: ['shop.example'] }] },
      // Under /domains: apply's plan reads the list; the next request is apply's read before the PUT.
      writesBehind: [{ match: { path: /^\/domains/ }, nth: 2, write: letsEncryptOn }],
    });
    id = w.sim.state.domainNamed('shop.example')?.id ?? -2;
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(w.sim.state.domainNamed('shop.example')?.security).toMatchObject({
      lets_encrypt: true,
      is_prefer_https: true,
    });
  });

  it("keeps a hosting plan's key changed meanwhile, and sets the manifest's", async () => {
    let id = -1;
    const sshOn = (call: PanelCall): void => {
      const plan = call('GET', `/hosting-plans/${id}`).json as { permissions: object };
      expect(call('PUT', `/hosting-plans/${id}`, { permissions: { ...plan.permissions, ssh: true } }).status).toBe(200);
    };
    const manifest = `version: 1
hosting_plans:
  - name: Business
    permissions: {dns_editor: true}
clients: []
`;
    const w = await workspace(manifest, {
      seed: { hostingPlans: ['Business'] },
      writesBehind: [{ match: { path: /^\/hosting-plans/ }, nth: 2, write: sshOn }],
    });
    id = w.sim.state.planNamed('Business')?.id ?? -2;
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(w.sim.state.planNamed('Business')?.permissions).toMatchObject({ ssh: true, dns_editor: true });
  });
});
