/**
 * A `dns` block on a domain the plan creates that will be a subdomain (issue 30, item 7a): of a
 * domain on the panel, or of a new domain listed under another client. Refused at plan time, at
 * the domain's line, naming the parent and the hosts to write there; nothing is sent.
 */
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const seed = { clients: [{ username: 'alice', domains: ['alice.example'] }, { username: 'bob' }] };

describe('dns on a new subdomain', () => {
  it('of a domain on the panel: a conflict at its line, nothing sent', async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: shop.alice.example
        dns:
          prune: true
          records:
            - {host: "@", type: A, value: 192.0.2.9}
`;
    const w = await workspace(manifest, { seed });
    for (const command of [
      ['plan', w.file],
      ['apply', w.file, '--auto-approve'],
    ]) {
      const done = await run(command, w.env);
      expect(done.code, done.stdout).toBe(1);
      expect(done.stderr).toContain('manifest.yaml:5:');
      expect(done.stderr).toContain(
        'domain "shop.alice.example" of client "alice" manages "dns", but it will be a subdomain of "alice.example" (on the panel)',
      );
      expect(done.stderr).toContain('host "shop" for this domain\'s "@"');
    }
    expect(w.sim.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('of a new domain listed under another client: the same', async () => {
    const manifest = `version: 1
clients:
  - username: bob
    domains: [bob.example]
  - username: alice
    domains:
      - name: www.bob.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.9}
`;
    const w = await workspace(manifest, { seed });
    const done = await run(['plan', w.file], w.env);
    expect(done.code, done.stdout).toBe(1);
    expect(done.stderr).toContain('manifest.yaml:7:');
    expect(done.stderr).toContain('will be a subdomain of "bob.example" (created by this plan)');
  });
});
