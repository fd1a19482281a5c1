/**
 * DNS zones beyond the requests (src/simulator/zones.ts): the race fault that changes a zone
 * between two reads (`onZoneRead`, `zoneRaceRate`, `--zone-race-rate`), the seed's `dns`, and
 * the state file keeping zones, an older file without them loading with default zones.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { parseSeed, type SimZone, type Simulator, ZONE_ADDRESS } from '../../src/simulator/index.js';
import { API_KEY, run } from '../helpers/cli.js';
import { call, createClient, tempDir } from '../helpers/sim-http.js';
import { sim, startSim } from '../helpers/sim.js';

async function getZone(simulator: Simulator, id: number): Promise<SimZone> {
  const answer = await call(simulator, 'GET', `/dns/${id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json as SimZone;
}

const a = (host: string, value = ZONE_ADDRESS) => ({ host, ttl: 86400, type: 'A', value });

const aliceWith = (domains: unknown[]) => ({ clients: [{ username: 'alice', domains }] }) as never;

describe('the race fault', () => {
  test('onZoneRead: the zone changes after the read it names, and the answer shows it as read', async () => {
    const seen: [number, number][] = [];
    const simulator = await sim({
      systemDomains: false,
      seed: aliceWith(['alice.example', 'bob.example']),
      onZoneRead: (domainId, reads) => {
        seen.push([domainId, reads]);
        return domainId === 1 && reads === 2;
      },
    });
    const first = await getZone(simulator, 1);
    expect(await getZone(simulator, 1)).toEqual(first); // the second read is answered as it was...
    const third = await getZone(simulator, 1); // ...and the zone changed after it
    expect(third).toEqual({
      ...first,
      is_custom_dns: true,
      records: {
        soa: first.records.soa,
        other: [
          ...first.records.other,
          { host: '_race-1', ttl: 120, type: 'TXT', value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown },
        ],
      },
    });
    expect(await getZone(simulator, 1)).toEqual(third);
    expect((await call(simulator, 'GET', '/domains/1')).json).toMatchObject({ is_custom_dns: true });
    expect(await getZone(simulator, 2)).not.toMatchObject({ is_custom_dns: true });
    expect(seen).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 1],
    ]);
  });

  test('zoneRaceRate 1 changes the zone after every read, within faultFilter; 0 never', async () => {
    const simulator = await sim({ systemDomains: false, seed: aliceWith(['alice.example']), zoneRaceRate: 1 });
    const hosts = async () =>
      (await getZone(simulator, 1)).records.other.map((r) => r.host).filter((h) => h.startsWith('_race'));
    expect(await hosts()).toEqual([]);
    expect(await hosts()).toEqual(['_race-1']);
    expect((await call(simulator, 'GET', '/dns/name/alice.example')).status).toBe(200);
    expect(await hosts()).toEqual(['_race-1', '_race-2', '_race-3']);

    const filtered = await sim({
      systemDomains: false,
      seed: aliceWith(['alice.example']),
      zoneRaceRate: 1,
      faultFilter: (request) => !request.path.startsWith('/dns'),
    });
    const calm = await sim({ systemDomains: false, seed: aliceWith(['alice.example']) });
    for (const quiet of [filtered, calm]) {
      const zone = await getZone(quiet, 1);
      expect(await getZone(quiet, 1)).toEqual(zone);
    }
  });

  test('--zone-race-rate: the CLI option changes zones, checks its range, has a help line', async () => {
    const seed = join(await tempDir(), 'seed.json');
    await writeFile(seed, JSON.stringify(aliceWith(['alice.example'])));
    const port = await freePort();
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const args = ['--port', String(port), '--seed', seed, '--zone-race-rate', '1'];
    const running = run(['simulator', '--api-key', API_KEY, ...args], {}, { stop: stopped });
    const url = `http://127.0.0.1:${port}/api/v2/dns/1`;
    const read = async (): Promise<string | undefined> =>
      fetch(url, { headers: { 'X-API-Key': API_KEY } }).then(
        (answer) => answer.text(),
        () => undefined,
      );
    try {
      let first = await read();
      for (let i = 0; i < 100 && first === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        first = await read();
      }
      expect(first).toContain('"is_custom_dns":false');
      const second = await read();
      expect(second).toContain('"is_custom_dns":true');
      expect(second).toContain('"host":"_race-1"');
    } finally {
      stop();
    }
    expect((await running).code).toBe(0);

    const bad = await run(['simulator', '--api-key', API_KEY, '--zone-race-rate', '2']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--zone-race-rate');
    const help = await run(['simulator', '--help']);
    expect(help.stdout).toContain('--zone-race-rate R');
    expect(help.stdout).toContain('GET /dns/{domain id}');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

describe('the seed', () => {
  test("dns records replace the defaults and make the zone custom; a subdomain's join a parent that is not", async () => {
    const simulator = await sim({
      systemDomains: false,
      seed: aliceWith([
        { name: 'alice.example', dns: { records: [{ host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 }] } },
        'shop.alice.example',
        { name: 'bob.example', dns: { is_custom_dns: false, records: [{ host: '@', type: 'TXT', value: 'hello' }] } },
        'www.bob.example',
        { name: 'carol.example', dns: { is_custom_dns: true } },
      ]),
    });
    const zone = (name: string) => getZone(simulator, simulator.state.domainNamed(name)!.id);
    expect(await zone('alice.example')).toMatchObject({
      is_custom_dns: true,
      is_dns_disabled: false,
      records: { other: [{ host: '@', ttl: 3600, type: 'A', value: '192.0.2.10' }] },
    });
    expect(await zone('bob.example')).toMatchObject({
      is_custom_dns: false,
      records: { other: [{ host: '@', ttl: 86400, type: 'TXT', value: 'hello' }, a('www')] },
    });
    const carol = await zone('carol.example');
    expect(carol.is_custom_dns).toBe(true);
    expect(carol.records.other).toContainEqual(a('www'));
    expect(
      (await call(simulator, 'GET', `/domains/${simulator.state.domainNamed('carol.example')!.id}`)).json,
    ).toMatchObject({
      is_custom_dns: true,
    });
  });

  test('a bad dns, or one on a subdomain, is refused naming where', () => {
    const refused = (domains: unknown[]): string => {
      try {
        parseSeed(aliceWith(domains), 'seed.json');
      } catch (err) {
        expect(err).toBeInstanceOf(ProvisionError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused([{ name: 'a.example', dns: { record: [] } }])).toContain(
      'clients[0].domains[0].dns: unknown key "record" (allowed: is_custom_dns, is_dns_disabled, records)',
    );
    expect(refused([{ name: 'a.example', dns: { is_dns_disabled: 'yes' } }])).toContain(
      'clients[0].domains[0].dns.is_dns_disabled must be true or false',
    );
    expect(
      refused([{ name: 'a.example', dns: { records: [{ host: '@', type: 'A', value: 'x', ttl: -1 }] } }]),
    ).toContain('clients[0].domains[0].dns.records[0].ttl must be an integer from 0 to 2147483647');
    expect(refused([{ name: 'a.example', dns: [] }])).toContain('clients[0].domains[0].dns must be an object');
    expect(refused(['a.example', { name: 'www.a.example', dns: {} }])).toContain(
      "clients[0].domains[1].dns: 'www.a.example' is a subdomain: give its records in its parent's dns",
    );
  });
});

describe('the state file', () => {
  test('keeps zones across a restart, in the log and in the compacted snapshot', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const simulator = await startSim({ statePath, systemDomains: false });
    const alice = await createClient(simulator, { username: 'alice' });
    const created = await call(simulator, 'POST', '/domains', { body: { domain: 'alice.example', id_user: alice } });
    const id = (created.json as { id: number }).id;
    const zone = await getZone(simulator, id);
    const other = [a('@', '192.0.2.10')];
    const body = { dkim_record: zone.dkim_record, records: { soa: zone.records.soa, other } };
    expect((await call(simulator, 'PUT', `/dns/${id}`, { body })).status).toBe(200);
    const custom = await getZone(simulator, id);
    // As a simulator killed now would leave it: the snapshot line and the log after it.
    const copy = join(await tempDir(), 'copy.json');
    await copyFile(statePath, copy);
    expect((await readFile(copy, 'utf8')).split('\n').length).toBeGreaterThan(2);
    const killed = await sim({ statePath: copy });
    expect(await getZone(killed, id)).toEqual(custom);
    await simulator.close();
    const snapshot = JSON.parse(await readFile(statePath, 'utf8')) as { zones: unknown[] };
    expect(snapshot.zones).toEqual([{ id, ...custom }]);
    const again = await sim({ statePath });
    expect(await getZone(again, id)).toEqual(custom);
    expect((await call(again, 'GET', `/domains/${id}`)).json).toMatchObject({ is_custom_dns: true });
  });

  test('an older file without zones loads with default zones, subdomains included', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, seed: aliceWith(['alice.example', 'shop.alice.example']) });
    const id = first.state.domainNamed('alice.example')!.id;
    const expected = await getZone(first, id);
    await first.close();
    const snapshot = JSON.parse(await readFile(statePath, 'utf8')) as Record<string, unknown>;
    delete snapshot.zones;
    await writeFile(statePath, `${JSON.stringify(snapshot)}\n`);
    const loaded = await sim({ statePath });
    expect(await getZone(loaded, id)).toEqual(expected);
    expect(expected.records.other).toContainEqual(a('shop'));
    const system = loaded.state.domainNamed('alice.sim.keyhelp.test')!.id;
    expect((await getZone(loaded, system)).records.other).toContainEqual({
      host: '@',
      ttl: 86400,
      type: 'MX',
      value: '10 mail.alice.sim.keyhelp.test.',
    });
  });
});
