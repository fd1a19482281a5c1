/**
 * DNS zones (src/simulator/zones.ts), over real HTTP on loopback: the default zone of a new
 * domain in the shape of go-acme/lego's `get_domain_records.json` fixture, GET by id and by
 * name, PUT replacing the list and making the zone custom, subdomains' records in the parent's
 * zone, 400 for bad bodies and for a disabled zone, DELETE dropping zones, the race fault, the
 * seed's `dns`, and the state file keeping zones (an older file without them loads).
 */
import { describe, expect, test } from 'vitest';
import { type SimZone, type Simulator, ZONE_ADDRESS } from '../../src/simulator/index.js';
import { call, createClient } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

/** A simulator with client alice (no system domain) and her id. */
async function withAlice(options: Parameters<typeof sim>[0] = {}): Promise<{ simulator: Simulator; alice: number }> {
  const simulator = await sim({ systemDomains: false, ...options });
  return { simulator, alice: await createClient(simulator, { username: 'alice' }) };
}

async function postDomain(simulator: Simulator, domain: string, idUser: number): Promise<number> {
  const answer = await call(simulator, 'POST', '/domains', { body: { domain, id_user: idUser } });
  expect(answer.status, answer.text).toBe(201);
  return (answer.json as { id: number }).id;
}

async function getZone(simulator: Simulator, id: number): Promise<SimZone> {
  const answer = await call(simulator, 'GET', `/dns/${id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json as SimZone;
}

/** The body a client PUTs: the zone as read, with `other` in its place. */
const putBody = (zone: SimZone, other: SimZone['records']['other']): unknown => ({
  dkim_record: zone.dkim_record,
  records: { soa: zone.records.soa, other },
});

const a = (host: string, value = ZONE_ADDRESS) => ({ host, ttl: 86400, type: 'A', value });

describe('the default zone', () => {
  test('a new domain has a zone in the fixture shape, with the records a panel makes', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, 'alice.example', alice);
    const answer = await call(simulator, 'GET', `/dns/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      is_custom_dns: false,
      is_dns_disabled: false,
      dkim_record: expect.stringMatching(
        /^default\._domainkey IN TXT \( "v=DKIM1; k=rsa; s=email; " "p=[A-Za-z0-9+/=]+" \)$/,
      ) as unknown,
      records: {
        soa: {
          ttl: 86400,
          primary_ns: 'ns1.sim.keyhelp.test.',
          rname: 'hostmaster.sim.keyhelp.test.',
          refresh: 14400,
          retry: 1800,
          expire: 604800,
          minimum: 3600,
        },
        other: [
          { host: '@', ttl: 86400, type: 'NS', value: 'ns1.sim.keyhelp.test.' },
          { host: '@', ttl: 86400, type: 'NS', value: 'ns2.sim.keyhelp.test.' },
          a('@'),
          a('www'),
          a('mail'),
          { host: '@', ttl: 86400, type: 'MX', value: '10 mail.alice.example.' },
          { host: '@', ttl: 86400, type: 'TXT', value: 'v=spf1 mx a ~all' },
        ],
      },
    });
    // The fixture's key order, for readers comparing the two.
    expect(answer.text).toMatch(
      /^\{"is_custom_dns":false,"is_dns_disabled":false,"dkim_record":".*","records":\{"soa":\{"ttl":86400,"primary_ns":/,
    );
    expect(answer.text).toContain('"other":[{"host":"@","ttl":86400,"type":"NS","value":"ns1.sim.keyhelp.test."}');
  });

  test('GET by name (UTF-8 or punycode, any case) answers the same zone; unknown ids and names are 404', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, 'bücher.example', alice);
    const zone = await getZone(simulator, id);
    for (const name of ['b%C3%BCcher.example', 'XN--BCHER-KVA.example']) {
      const byName = await call(simulator, 'GET', `/dns/name/${name}`);
      expect(byName.status).toBe(200);
      expect(byName.json).toEqual(zone);
    }
    expect(zone.records.other).toContainEqual({
      host: '@',
      ttl: 86400,
      type: 'MX',
      value: '10 mail.xn--bcher-kva.example.',
    });
    for (const path of ['/dns/999', '/dns/name/nobody.example', '/dns/abc']) {
      const missing = await call(simulator, 'GET', path);
      expect(missing.status, path).toBe(404);
      expect(missing.json).toEqual({ code: '404 Not Found', message: 'The requested domain was not found.' });
    }
    expect((await call(simulator, 'DELETE', `/dns/${id}`)).headers.allow).toBe('GET, PUT');
    expect((await call(simulator, 'GET', '/dns')).status).toBe(404);
  });
});

describe('PUT /dns/{id}', () => {
  test('replaces the whole list, answers {id}, makes the zone (and the domain record) custom', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, 'alice.example', alice);
    const before = await getZone(simulator, id);
    const other = [a('@', '192.0.2.10'), { host: '_acme-challenge', ttl: 120, type: 'TXT', value: 'token' }];
    const put = await call(simulator, 'PUT', `/dns/${id}`, { body: putBody(before, other) });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ id });
    expect(await getZone(simulator, id)).toEqual({
      ...before,
      is_custom_dns: true,
      records: { soa: before.records.soa, other },
    });
    expect((await call(simulator, 'GET', `/domains/${id}`)).json).toMatchObject({ is_custom_dns: true });
    // Last writer wins: no serial, no ETag.
    expect((await call(simulator, 'PUT', `/dns/${id}`, { body: putBody(before, []) })).status).toBe(200);
    expect((await getZone(simulator, id)).records.other).toEqual([]);
  });
});
