/**
 * The library's doctor (src/api/doctor.ts) against the simulator and raw panels over real HTTP:
 * each check's status and what its line says, what is sent (GETs only, nothing after a refused
 * key), and /server's version in the shapes a panel may give it.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DOCTOR_CHECKS, doctor, type DoctorResult } from '../../src/api/doctor.js';
import * as api from '../../src/api/index.js';
import { KIND_DOCTORS } from '../../src/kinds/doctors.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import type { InterceptRequest, InterceptResult } from '../../src/simulator/index.js';
import { API_KEY } from '../helpers/key.js';
import { client } from '../helpers/panel.js';
import { onLoopback } from '../helpers/raw-panel.js';
import { sim } from '../helpers/sim.js';

const SEED = {
  clients: [{ username: 'alice', plan: 'Basic', domains: ['alice.example', 'shop.alice.example'] }],
};
const SERVER = { meta: { hostname: 'panel.example' }, version: { version: '25.0.1', build: 3456 } };

/** An intercept answering GET /server with `answer` (status 200 JSON unless it is an InterceptResult). */
function server(answer: InterceptResult) {
  return (req: InterceptRequest): InterceptResult | undefined => (req.path === '/server' ? answer : undefined);
}

/** The checks as `id status`, and each message by id. */
function statuses(result: DoctorResult): string[] {
  return result.checks.map((c) => `${c.id} ${c.status}`);
}
function message(result: DoctorResult, id: string): string {
  return result.checks.find((c) => c.id === id)?.message ?? '';
}

/**
 * A raw panel: `routes` by path below /api/v2 (`[status, json]`, or a string: HTML), anything
 * else 404; each request's path is logged in `seen`.
 */
async function rawApi(routes: Record<string, readonly [number, unknown] | string>) {
  const seen: string[] = [];
  const url = await onLoopback(
    createServer((req, res) => {
      const path = (req.url ?? '').replace(/^\/api\/v2/, '');
      seen.push(`${req.method} ${path}`);
      const route = routes[path];
      if (typeof route === 'string') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(route);
        return;
      }
      const [status, json] = route ?? [404, { code: '404 Not Found', message: 'Not found.' }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    }),
  );
  return { url, seen };
}

const PONG = [200, { response: 'pong' }] as const;
const LISTS = {
  '/ping': PONG,
  '/hosting-plans': [200, [{ id: 1, name: 'Basic' }]],
  '/clients': [200, []],
  '/domains': [200, []],
} as const;

describe('doctor against the simulator', () => {
  it('a healthy panel: every check ok, in order, with GET requests only; exported from the library', async () => {
    const panel = await sim({ seed: SEED, intercept: server({ status: 200, json: SERVER }) });
    const result = await api.doctor(client(panel));
    expect(result.checks.map((c) => c.id)).toEqual([...DOCTOR_CHECKS]);
    expect(statuses(result).filter((s) => !s.endsWith(' ok'))).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.panelUrl).toBe(panel.url);
    expect(message(result, 'lists')).toBe(
      'complete, each read whole (3 hosting plans, 1 client, 3 domains, 0 mailboxes, 0 databases, 0 FTP users)',
    );
    expect(message(result, 'zones')).toMatch(
      /^GET \/api\/v2\/dns\/\d+ \(the zone of "[a-z.]+"\): \d+ records, read whole$/,
    );
    expect(message(result, 'version')).toBe('GET /api/v2/server: version version "25.0.1", build 3456');
    expect(new Set(panel.requests.map((r) => r.method))).toEqual(new Set(['GET']));
  });

  it('an empty panel: the checks with nothing to look at are not checked, and nothing failed', async () => {
    const result = await doctor(client(await sim()));
    expect(statuses(result)).toEqual([
      'reachable ok',
      'api ok',
      'key ok',
      'lists ok',
      'client_fields not_checked',
      'domain_fields not_checked',
      'zones not_checked',
      'version ok',
    ]);
    expect(message(result, 'client_fields')).toBe('the panel has no client to look at');
    // The simulator says what it is (GET /server), nothing of the machine it runs on.
    expect(message(result, 'version')).toBe('GET /api/v2/server: version panel "simulator", api "v2"');
    expect(result.ok).toBe(true);
  });

  it('the API switched off: the API line fails and says to turn it on; nothing after it is checked', async () => {
    const result = await doctor(client(await sim({ apiEnabled: false })));
    expect(statuses(result).slice(0, 3)).toEqual(['reachable ok', 'api failed', 'key not_checked']);
    expect(message(result, 'api')).toMatch(/200 answered HTML, not JSON; what to do: is the REST API enabled/);
    expect(result.ok).toBe(false);
  });

  it('a wrong key: the key line fails, one request was sent, and the key is in no message', async () => {
    const panel = await sim({ seed: SEED });
    const result = await doctor(client(panel, { apiKey: 'wrong-key-0123456789' }));
    expect(statuses(result).slice(0, 4)).toEqual(['reachable ok', 'api ok', 'key failed', 'lists not_checked']);
    expect(message(result, 'key')).toMatch(/^GET \/api\/v2\/ping: 401 Unauthorized: .*check the API key/);
    expect(panel.requests.map((r) => `${r.path} ${r.status}`)).toEqual(['/ping 401']);
    expect(JSON.stringify(result)).not.toContain('wrong-key-0123456789');
  });

  it('no domain list: the list line says what that costs and holds; the domain checks are not checked', async () => {
    const result = await doctor(client(await sim({ seed: SEED, listDomains: false })));
    expect(message(result, 'lists')).toMatch(
      /no domain list \(GET \/api\/v2\/domains answered 404\): look-ups by name, prune of domains unavailable/,
    );
    expect(statuses(result)).toContain('lists ok');
    expect(statuses(result)).toContain('domain_fields not_checked');
    expect(statuses(result)).toContain('zones not_checked');
    expect(result.ok).toBe(true);
  });

  it('client fields the list leaves out: read from GET /clients/{id} (ok), or shown nowhere (failed)', async () => {
    const fallback = await doctor(client(await sim({ seed: SEED, clientListFields: false })));
    expect(statuses(fallback)).toContain('client_fields ok');
    expect(message(fallback, 'client_fields')).toMatch(
      /leaves out "id_hosting_plan", "email", "is_suspended"; GET \/api\/v2\/clients\/\d+ \(client "alice"\) carries them/,
    );
    const nowhere = await doctor(client(await sim({ seed: SEED, clientPlanIds: 'nowhere' })));
    expect(statuses(nowhere)).toContain('client_fields failed');
    expect(message(nowhere, 'client_fields')).toMatch(/shows "id_hosting_plan": a manifest's plan is never compared/);
    expect(nowhere.ok).toBe(false);
  });

  it('domain records without settings fail; without is_system_domain they hold, saying prune leaves them', async () => {
    const domains = (records: object[]) => (req: InterceptRequest) =>
      req.path === '/domains' ? { status: 200, json: records } : undefined;
    const bare = { id: 7, id_user: 2, domain: 'alice.example', id_parent_domain: 0 };
    const noSettings = await doctor(client(await sim({ seed: SEED, intercept: domains([bare]) })));
    expect(statuses(noSettings)).toContain('domain_fields failed');
    expect(message(noSettings, 'domain_fields')).toMatch(
      /^no "php_version" in 1 of 1 domain record, no "security" object in 1 of 1 domain record, .*https\.lets_encrypt, https\.force, https\.hsts, redirect/,
    );
    const unsaid = { ...bare, php_version: '', security: {}, target: {} };
    const result = await doctor(client(await sim({ seed: SEED, intercept: domains([unsaid]) })));
    expect(statuses(result)).toContain('domain_fields ok');
    expect(message(result, 'domain_fields')).toMatch(/^"is_system_domain" unsaid in 1 of 1 domain record: prune never/);
  });

  it('a zone the engine cannot read whole fails the zones line, naming the path in the answer', async () => {
    const intercept = (req: InterceptRequest) =>
      req.path.startsWith('/dns/') ? { status: 200, json: { records: { soa: {}, other: [{ host: 1 }] } } } : undefined;
    const result = await doctor(client(await sim({ seed: SEED, intercept })));
    expect(statuses(result)).toContain('zones failed');
    expect(message(result, 'zones')).toMatch(/"records\.other\[0\]\.host" must be a string; what to do: /);
  });
});

describe('doctor against raw panels', () => {
  it('cannot connect: reachable fails with what to check, the rest is not checked', async () => {
    const { url, seen } = await rawApi({});
    const closed = url.replace(/:\d+\//, ':1/');
    const result = await doctor(client(closed));
    expect(statuses(result)[0]).toBe('reachable failed');
    expect(message(result, 'reachable')).toMatch(/cannot connect \(ECONNREFUSED\); what to do: check --url/);
    expect(result.checks.slice(1).every((c) => c.status === 'not_checked')).toBe(true);
    expect(seen).toEqual([]);
  });

  it('a GET /ping that is not the pong, or a 404: the API line fails', async () => {
    const other = await doctor(client((await rawApi({ '/ping': [200, { hello: 1 }] })).url));
    expect(message(other, 'api')).toMatch(
      /expected \{"response":"pong"\}, got an object; what to do: check that --url/,
    );
    const missing = await doctor(client((await rawApi({})).url));
    expect(statuses(missing).slice(1, 3)).toEqual(['api failed', 'key not_checked']);
    expect(message(missing, 'api')).toMatch(/^GET \/api\/v2\/ping: 404 Not Found: Not found; what to do: check --url/);
  });

  it('a ping that needs no key: the key is judged by the first list, and nothing is sent after its 401', async () => {
    const refused = [401, { code: '401 Unauthorized', message: 'API key is missing or invalid.' }] as const;
    const { url, seen } = await rawApi({ '/ping': PONG, '/hosting-plans': refused, '/clients': refused });
    const result = await doctor(client(url));
    expect(statuses(result).slice(0, 4)).toEqual(['reachable ok', 'api ok', 'key failed', 'lists not_checked']);
    expect(seen).toEqual(['GET /ping', 'GET /hosting-plans']);
  });

  it('a 403 to GET /ping: the key line fails with the IP restriction in what to do', async () => {
    const result = await doctor(client((await rawApi({ '/ping': [403, { message: 'Forbidden.' }] })).url));
    expect(statuses(result)[2]).toBe('key failed');
    expect(message(result, 'key')).toMatch(/IP address/);
  });

  it('a paged list fails the list line, naming the key; the client check is then not checked', async () => {
    const paged = [200, { data: [{ id: 2, username: 'alice' }], next: '?page=2' }] as const;
    const result = await doctor(client((await rawApi({ ...LISTS, '/clients': paged })).url));
    expect(statuses(result)).toContain('lists failed');
    expect(message(result, 'lists')).toMatch(/^GET \/api\/v2\/clients: the list looks paged \(.*next/);
    expect(message(result, 'client_fields')).toBe('the client list could not be read');
  });

  it.each([
    ['a string', '25.0.1', 'version "25.0.1"'],
    ['a number', 25, 'version 25'],
    [
      'nested objects',
      { keyhelp: { version: '24.3', build: 7 }, api: 2 },
      'version keyhelp.version "24.3", keyhelp.build 7, api 2',
    ],
    ['an array', ['24', 3], 'version 0 "24", 1 3'],
    ['a control character and a long value', `\u001b[2J${'9'.repeat(80)}`, `version "\\u001b[2J${'9'.repeat(60)}…"`],
    ['an odd key', { 'a"b\n': 'x' }, 'version "a\\"b\\n" "x"'],
  ])('GET /server with %s as version: said as data', async (_name, version, said) => {
    const result = await doctor(client((await rawApi({ ...LISTS, '/server': [200, { version }] })).url));
    expect(message(result, 'version')).toBe(`GET /api/v2/server: ${said}`);
    expect(statuses(result)).toContain('version ok');
  });

  it.each([
    ['404', [404, { message: 'Not found.' }], 'GET /api/v2/server answered 404: the panel does not say its version'],
    ['403', [403, { message: 'Forbidden.' }], 'GET /api/v2/server answered 403 (the key may not read it)'],
    ['no version', [200, { meta: { hostname: 'x' } }], 'GET /api/v2/server answered without a "version"'],
    ['an empty version', [200, { version: { a: null, b: '' } }], 'GET /api/v2/server answered without a "version"'],
    ['a list', [200, []], 'GET /api/v2/server answered without a "version"'],
    ['HTML', '<html>login</html>', 'GET /api/v2/server: 200 answered HTML, not JSON'],
  ] as const)('GET /server answering %s: not checked, never failed', async (_name, route, said) => {
    const result = await doctor(client((await rawApi({ ...LISTS, '/server': route })).url));
    expect(statuses(result)).toContain('version not_checked');
    expect(message(result, 'version')).toContain(said);
    expect(result.ok).toBe(true);
  });

  it('the key is never in a message, even when the panel echoes it', async () => {
    const echo = [401, { message: `bad key ${API_KEY}` }] as const;
    const result = await doctor(client((await rawApi({ '/ping': echo })).url));
    expect(JSON.stringify(result)).not.toContain(API_KEY);
    expect(message(result, 'key')).toContain('bad key');
  });
});

describe('doctor when the key cannot be judged, and its deadline', () => {
  it('a 500 to GET /hosting-plans: the key is neither confirmed nor refused (not checked), the lists fail', async () => {
    const { url } = await rawApi({ ...LISTS, '/hosting-plans': [500, { message: 'Internal error.' }] });
    const result = await doctor(client(url));
    expect(statuses(result).slice(0, 4)).toEqual(['reachable ok', 'api ok', 'key not_checked', 'lists failed']);
    expect(message(result, 'key')).toBe(
      'neither confirmed nor refused: GET /api/v2/hosting-plans answered 500 (the list shapes line says more)',
    );
    expect(result.ok).toBe(false);
  });

  it('no answer to GET /hosting-plans (the connection reset): the key is not checked, saying why', async () => {
    const url = await onLoopback(
      createServer((req, res) => {
        if ((req.url ?? '').endsWith('/ping'))
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"response":"pong"}');
        else req.socket.destroy();
      }),
    );
    // A budget below one attempt: the reset is not retried.
    const result = await doctor(client(url, { retryBudgetMs: 1 }));
    expect(statuses(result).slice(0, 4)).toEqual(['reachable ok', 'api ok', 'key not_checked', 'lists failed']);
    expect(message(result, 'key')).toMatch(
      /^neither confirmed nor refused: GET \/api\/v2\/hosting-plans got no answer \(/,
    );
  });

  it('a panel that answers /ping and then hangs: doctor ends at its deadline, the waiting check failed, the rest not checked', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const panel = await sim({
      seed: SEED,
      intercept: async (req) => {
        if (req.path === '/ping') return undefined;
        await held;
        return { status: 500, json: { message: 'late' } };
      },
    });
    try {
      const result = await doctor(client(panel), { deadlineMs: 1500 });
      expect(statuses(result)).toEqual([
        'reachable ok',
        'api ok',
        'key not_checked',
        'lists failed',
        'client_fields not_checked',
        'domain_fields not_checked',
        'zones not_checked',
        'version not_checked',
      ]);
      expect(message(result, 'key')).toBe('GET /api/v2/hosting-plans, which confirms the key, did not answer in time');
      expect(message(result, 'lists')).toBe(
        "no answer within doctor's deadline of 1.5 s (GET /api/v2/hosting-plans was still waiting); " +
          'what to do: the panel is slow or stuck: check its load and logs, then run doctor again',
      );
      expect(message(result, 'zones')).toBe("doctor's deadline of 1.5 s passed before it");
      expect(result.ok).toBe(false);
    } finally {
      release();
    }
  });
});

describe("doctor's checks come from the kinds", () => {
  it("each kind's descriptor holds its doctor check, in the table's order; the report's order stays", () => {
    expect(Object.keys(KIND_DOCTORS)).toEqual([...KIND_NAMES]);
    for (const name of KIND_NAMES) expect(KIND_DOCTORS[name], name).toBe(KINDS[name].doctor);
    expect([...DOCTOR_CHECKS]).toEqual([
      'reachable',
      'api',
      'key',
      'lists',
      'client_fields',
      'domain_fields',
      'zones',
      'version',
    ]);
  });
});
