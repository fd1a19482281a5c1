/**
 * A saved zone plan applied after the panel lists the same records in another order: the zone
 * is the same (its digest is order-free, and the body is checked as a multiset), so it applies,
 * never refused as edited or stale.
 */
import { describe, expect, it } from 'vitest';
import type { SimZone } from '../../src/simulator/zones.js';
import { run, workspace } from '../helpers/cli.js';
import { call } from '../helpers/sim-http.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.1, ttl: 300}
            - {host: www, type: CNAME, value: alice.example.}
`;

describe('a saved zone plan and the panel reordering its records', () => {
  it('applies: the same records in another order are the same zone', async () => {
    const seeded = [
      { host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 },
      { host: '@', type: 'A', value: '192.0.2.1', ttl: 60 },
      { host: 'www', type: 'A', value: '192.0.2.1', ttl: 3600 },
      { host: '@', type: 'MX', value: '65535 mail.alice.example.', ttl: 3600 },
      { host: 'mail', type: 'A', value: '192.0.2.1', ttl: 3600 },
      { host: '_sip._tcp', type: 'SRV', value: '65535 65535 65535 sip.alice.example.', ttl: 3600 },
    ];
    const w = await workspace(MANIFEST, {
      seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { records: seeded } }] }] },
    });
    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    // The panel lists the same records in reverse (a PUT of the zone as read, reversed: it was custom already).
    const id = w.sim.state.domainNamed('alice.example')?.id ?? -1;
    const zone = (await call(w.sim, 'GET', `/dns/${id}`)).json as SimZone;
    const reversed = {
      dkim_record: zone.dkim_record,
      records: { soa: zone.records.soa, other: [...zone.records.other].reverse() },
    };
    expect((await call(w.sim, 'PUT', `/dns/${id}`, { body: reversed })).status).toBe(200);
    const done = await run(['apply', w.planFile, '--auto-approve'], w.env);
    const out = done.stdout + done.stderr;
    expect(out).not.toContain('edited');
    expect(done.code, out).toBe(0);
    expect(
      w.sim.state.zones
        .get(id)
        ?.records.other.map((r) => `${r.host} ${r.type} ${r.value} ${r.ttl}`)
        .sort(),
    ).toEqual([
      '@ A 192.0.2.1 300',
      '@ MX 65535 mail.alice.example. 3600',
      '_sip._tcp SRV 65535 65535 65535 sip.alice.example. 3600',
      'mail A 192.0.2.1 3600',
      'www CNAME alice.example. 3600',
    ]);
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });
});
