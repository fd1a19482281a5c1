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
const putBody = (zone: SimZone, other: readonly unknown[]): unknown => ({
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

describe('subdomains', () => {
  test("a subdomain's records join its parent's zone while it is not custom, and leave with it", async () => {
    const { simulator, alice } = await withAlice();
    const top = await postDomain(simulator, 'alice.example', alice);
    const defaults = (await getZone(simulator, top)).records.other;
    const shop = await postDomain(simulator, 'shop.alice.example', alice);
    const deep = await postDomain(simulator, 'a.shop.alice.example', alice);
    expect((await getZone(simulator, top)).records.other).toEqual([...defaults, a('shop'), a('a.shop')]);
    // A subdomain has no zone of its own.
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', putBody(await getZone(simulator, top), [])],
    ] as const) {
      const answer = await call(simulator, method, `/dns/${shop}`, { body });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        code: '400 Bad Request',
        message: `The domain 'shop.alice.example' is a subdomain: its DNS records are in the zone of 'alice.example' (id ${top}).`,
      });
    }
    expect((await call(simulator, 'GET', '/dns/name/a.shop.alice.example')).status).toBe(400);
    expect(simulator.state.zones.has(shop)).toBe(false);
    // Deleting a subdomain takes its default records out again.
    expect((await call(simulator, 'DELETE', `/domains/${deep}`)).status).toBe(200);
    expect((await getZone(simulator, top)).records.other).toEqual([...defaults, a('shop')]);
  });

  test('a custom zone is left alone by new and deleted subdomains', async () => {
    const { simulator, alice } = await withAlice();
    const top = await postDomain(simulator, 'alice.example', alice);
    const old = await postDomain(simulator, 'old.alice.example', alice);
    const zone = await getZone(simulator, top);
    expect(zone.records.other).toContainEqual(a('old'));
    expect((await call(simulator, 'PUT', `/dns/${top}`, { body: putBody(zone, zone.records.other) })).status).toBe(200);
    const custom = await getZone(simulator, top);
    await postDomain(simulator, 'shop.alice.example', alice);
    expect((await call(simulator, 'DELETE', `/domains/${old}`)).status).toBe(200);
    expect(await getZone(simulator, top)).toEqual(custom);
    expect(custom.records.other).toContainEqual(a('old'));
  });
});

describe('PUT refusals', () => {
  test('a bad body is a 400 naming the field, and nothing changes', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, 'alice.example', alice);
    const zone = await getZone(simulator, id);
    const { soa } = zone.records;
    const dkim = zone.dkim_record;
    const cases: [unknown, string][] = [
      [[], 'The request body must be a JSON object.'],
      [{ records: { soa, other: [] } }, "The field 'dkim_record' is required and must be a string."],
      [{ dkim_record: dkim }, "The field 'records' is required and must be an object."],
      [{ dkim_record: dkim, records: { other: [] } }, "The field 'records.soa' is required and must be an object."],
      [
        { dkim_record: dkim, records: { soa: 'x', other: [] } },
        "The field 'records.soa' is required and must be an object.",
      ],
      [
        { dkim_record: dkim, records: { soa, other: null } },
        "The field 'records.other' is required and must be an array.",
      ],
      [putBody(zone, ['A @ 1.2.3.4']), "The field 'records.other[0]' must be an object {host, ttl, type, value}."],
      [
        putBody(zone, [{ ...a('@'), id: 3 }]),
        `The field 'records.other[0]' has no key "id" (its keys: host, ttl, type, value).`,
      ],
      [
        putBody(zone, [a('@'), { ...a('www'), host: '' }]),
        "The field 'records.other[1].host' must be a non-empty string.",
      ],
      [
        putBody(zone, [{ ...a('@'), ttl: '3600' }]),
        "The field 'records.other[0].ttl' must be an integer from 0 to 2147483647.",
      ],
      [
        putBody(zone, [{ ...a('@'), ttl: 1.5 }]),
        "The field 'records.other[0].ttl' must be an integer from 0 to 2147483647.",
      ],
      [putBody(zone, [{ host: '@', ttl: 60, type: 'A' }]), "The field 'records.other[0].value' must be a string."],
      [
        putBody(zone, [{ ...a('@'), type: 'A record' }]),
        `The field 'records.other[0].type' must be a record type of letters and digits, like "A" or "TXT".`,
      ],
      [
        { dkim_record: dkim, records: { soa: { ...soa, refresh: 7200 }, other: [] } },
        "The field 'records.soa' cannot be changed: send it as read.",
      ],
      [
        { dkim_record: dkim, records: { soa: { ...soa, serial: 1 }, other: [] } },
        "The field 'records.soa' cannot be changed: send it as read.",
      ],
      [
        { dkim_record: `${dkim} `, records: { soa, other: [] } },
        "The field 'dkim_record' cannot be changed: send it as read.",
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await call(simulator, 'PUT', `/dns/${id}`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toEqual({ code: '400 Bad Request', message });
    }
    expect((await call(simulator, 'PUT', `/dns/${id}`, { raw: '{' })).status).toBe(400);
    expect((await call(simulator, 'PUT', `/dns/${id}`)).status).toBe(400);
    expect((await call(simulator, 'PUT', '/dns/999', { body: putBody(zone, []) })).status).toBe(404);
    expect(await getZone(simulator, id)).toEqual(zone);
    // The SOA's keys in another order are the same SOA; other top-level keys are ignored.
    const reordered = Object.fromEntries(Object.entries(soa).reverse());
    const body = { is_custom_dns: false, dkim_record: dkim, records: { soa: reordered, other: [a('@')] } };
    expect((await call(simulator, 'PUT', `/dns/${id}`, { body })).status).toBe(200);
    // go-acme/lego's clean-up of the last record: Go's omitempty leaves `records.other` out: an empty list.
    const lego = { dkim_record: dkim, records: { soa } };
    expect((await call(simulator, 'PUT', `/dns/${id}`, { body: lego })).status).toBe(200);
    expect((await getZone(simulator, id)).records.other).toEqual([]);
  });

  test('a disabled zone is answered with is_dns_disabled true and refuses a PUT', async () => {
    const simulator = await sim({
      systemDomains: false,
      seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', dns: { is_dns_disabled: true } }] }] },
    });
    const id = simulator.state.domainNamed('alice.example')!.id;
    const zone = await getZone(simulator, id);
    expect(zone).toMatchObject({ is_custom_dns: false, is_dns_disabled: true });
    expect((await call(simulator, 'GET', `/domains/${id}`)).json).toMatchObject({ is_dns_disabled: true });
    const put = await call(simulator, 'PUT', `/dns/${id}`, { body: putBody(zone, []) });
    expect(put.status).toBe(400);
    expect(put.json).toEqual({
      code: '400 Bad Request',
      message: "DNS is disabled for the domain 'alice.example': its records cannot be changed.",
    });
    expect(await getZone(simulator, id)).toEqual(zone);
  });
});

describe('DELETE', () => {
  test("a domain's DELETE drops its zone; a client's DELETE drops its domains' zones", async () => {
    const simulator = await sim();
    const alice = await createClient(simulator, { username: 'alice' });
    const bob = await createClient(simulator, { username: 'bob' });
    const one = await postDomain(simulator, 'one.example', alice);
    const two = await postDomain(simulator, 'two.example', alice);
    const bobs = await postDomain(simulator, 'bob.example', bob);
    const system = simulator.state.domainNamed('alice.sim.keyhelp.test')!.id;
    expect((await call(simulator, 'GET', `/dns/${system}`)).status).toBe(200);

    expect((await call(simulator, 'DELETE', `/domains/${one}`)).status).toBe(200);
    expect((await call(simulator, 'GET', `/dns/${one}`)).status).toBe(404);
    expect((await call(simulator, 'GET', '/dns/name/one.example')).status).toBe(404);
    expect(simulator.state.zones.has(one)).toBe(false);

    expect((await call(simulator, 'DELETE', `/clients/${alice}`)).status).toBe(200);
    for (const id of [two, system]) expect((await call(simulator, 'GET', `/dns/${id}`)).status).toBe(404);
    expect([...simulator.state.zones.keys()].sort()).toEqual(
      [bobs, simulator.state.domainNamed('bob.sim.keyhelp.test')!.id].sort(),
    );
  });
});
