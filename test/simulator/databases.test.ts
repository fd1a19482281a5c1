/**
 * The simulator's /databases (src/simulator/kinds/database.ts), over real HTTP: the list and
 * records, by name, POST, PUT and DELETE with the rules the simulator chose (docs/panel-api.md,
 * "The simulator"), databases going with their client, and the fault options on the route.
 */
import { describe, expect, test } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { call, createClient } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

const PASSWORD = 'a-database-password';

/** A simulator with the clients alice and bob; their ids. */
async function panel(options: Parameters<typeof sim>[0] = {}): Promise<{ s: Simulator; alice: number; bob: number }> {
  const s = await sim(options);
  const alice = await createClient(s, { username: 'alice', password: 'a-long-password' });
  const bob = await createClient(s, { username: 'bob', password: 'a-long-password' });
  return { s, alice, bob };
}

async function post(s: Simulator, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  return call(s, 'POST', '/databases', { body });
}

/** Creates a database and returns its id. */
async function created(s: Simulator, body: Record<string, unknown>): Promise<number> {
  const answer = await post(s, { password: PASSWORD, ...body });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return (answer.json as { id: number }).id;
}

/** The refusal's status and message (the panel's error shape checked). */
async function refused(answer: Promise<{ status: number; json: unknown }>): Promise<[number, string]> {
  const { status, json } = await answer;
  expect(json).toMatchObject({ code: expect.stringMatching(new RegExp(`^${status} `)) as unknown });
  return [status, (json as { message: string }).message];
}

describe('GET /databases, /databases/{id} and /databases/name/{name}', () => {
  test('a POST answers its id; the list and the records carry the fields, never the password', async () => {
    const { s, alice } = await panel();
    const answer = await post(s, {
      id_user: alice,
      database_name: 'alice_wp',
      database_username: 'alice_wp_user',
      password: PASSWORD,
      description: 'WordPress',
      remote_hosts: ['192.0.2.0/24', '2001:DB8::1', 'Office.Example.net', '198.51.100.7'],
    });
    expect(answer).toMatchObject({ status: 201, json: { id: expect.any(Number) as unknown } });
    const id = (answer.json as { id: number }).id;
    const record = {
      id,
      id_user: alice,
      database_name: 'alice_wp',
      database_username: 'alice_wp_user',
      description: 'WordPress',
      size: 0,
      remote_hosts: ['192.0.2.0/24', '2001:db8::1', 'office.example.net', '198.51.100.7'],
    };
    expect((await call(s, 'GET', '/databases')).json).toEqual([record]);
    expect((await call(s, 'GET', `/databases/${id}`)).json).toEqual(record);
    expect((await call(s, 'GET', '/databases/name/alice_wp')).json).toEqual(record);
    // Found by its name only, not by its user.
    expect((await call(s, 'GET', '/databases/name/alice_wp_user')).status).toBe(404);
    expect((await call(s, 'GET', '/databases/name/user:alice_wp_user')).status).toBe(404);
    expect(await refused(call(s, 'GET', '/databases/999'))).toEqual([404, 'The requested database was not found.']);
    expect(JSON.stringify((await call(s, 'GET', '/databases')).json)).not.toContain(PASSWORD);
    expect(s.state.databasePasswordIs('alice_wp', PASSWORD)).toBe(true);
    expect(s.state.databasePasswordIs('alice_wp', 'another-password')).toBe(false);
    expect(s.state.databasePasswordIs('nope', PASSWORD)).toBeUndefined();
  });

  test('the user defaults to the name; remote_hosts to [] (local only); description to ""', async () => {
    const { s, alice } = await panel();
    const id = await created(s, { id_user: alice, database_name: 'alice_shop' });
    expect((await call(s, 'GET', `/databases/${id}`)).json).toMatchObject({
      database_name: 'alice_shop',
      database_username: 'alice_shop',
      description: '',
      remote_hosts: [],
    });
  });
});

describe('POST /databases refuses what the panel would', () => {
  test('names, user, password, remote hosts and body shapes: 400 with the reason', async () => {
    const { s, alice } = await panel();
    const base = { id_user: alice, database_name: 'alice_db', password: PASSWORD };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, id_user: 'alice' }, "The field 'id_user' is required and must be an integer."],
      [{ ...base, database_name: undefined }, "The field 'database_name' is required and must be a string."],
      [{ ...base, database_name: 'Alice-DB' }, "The database name 'Alice-DB' is invalid"],
      [{ ...base, database_name: 'a'.repeat(65) }, 'is invalid: use 1 to 64 lowercase letters'],
      [{ ...base, database_name: '' }, "The database name '' is invalid"],
      [{ ...base, database_username: 'u'.repeat(33) }, 'is invalid: use 1 to 32 lowercase letters'],
      [{ ...base, database_username: 'a.b' }, 'The database user "a.b" is invalid'],
      [{ ...base, database_name: 'd'.repeat(40) }, 'is invalid: use 1 to 32'], // the default user is too long
      [{ ...base, password: undefined }, "The field 'password' is required: the panel makes none."],
      [{ ...base, password: 'short' }, 'The password must be at least 8 characters long.'],
      [{ ...base, description: 3 }, "The field 'description' must be a string."],
      [{ ...base, remote_hosts: '192.0.2.1' }, "The field 'remote_hosts' must be an array"],
      [{ ...base, remote_hosts: ['192.0.2.0/33'] }, "The remote host '192.0.2.0/33' is not a network"],
      [{ ...base, remote_hosts: ['-bad-.example'] }, 'is not an IP address, a network or a host name'],
      [{ ...base, remote_hosts: ['999.1.1.1'] }, 'is not an IP address, a network or a host name'],
      [{ ...base, remote_hosts: ['db.example', 'DB.example'] }, "The remote host 'DB.example' is listed twice"],
    ];
    for (const [body, message] of cases) {
      const [status, text] = await refused(post(s, body));
      expect([status, text], JSON.stringify(body)).toEqual([400, expect.stringContaining(message)]);
    }
    expect(await refused(call(s, 'POST', '/databases', { body: [1] }))).toEqual([
      400,
      'The request body must be a JSON object.',
    ]);
    expect(s.state.databases.size).toBe(0);
  });

  test('an unknown client is 404; a name or a user taken anywhere in the panel is 400', async () => {
    const { s, alice, bob } = await panel();
    expect(await refused(post(s, { id_user: 999, database_name: 'x_db', password: PASSWORD }))).toEqual([
      404,
      'The client with id_user 999 was not found.',
    ]);
    await created(s, { id_user: alice, database_name: 'shared', database_username: 'shared_user' });
    expect(await refused(post(s, { id_user: bob, database_name: 'shared', password: PASSWORD }))).toEqual([
      400,
      "The database name 'shared' is already taken.",
    ]);
    expect(
      await refused(
        post(s, { id_user: bob, database_name: 'bob_db', database_username: 'shared_user', password: PASSWORD }),
      ),
    ).toEqual([400, "The database user 'shared_user' is already taken."]);
    // A name equal to another database's user is free: names and users are apart.
    await created(s, { id_user: bob, database_name: 'shared_user', database_username: 'bob_user' });
    expect(s.state.databases.size).toBe(2);
  });
});

describe('PUT and DELETE /databases/{id}', () => {
  test('PUT changes the fields given only; remote_hosts whole; the password when given', async () => {
    const { s, alice } = await panel();
    const id = await created(s, {
      id_user: alice,
      database_name: 'alice_wp',
      description: 'WP',
      remote_hosts: ['db.example'],
    });
    const before = (await call(s, 'GET', `/databases/${id}`)).json as Record<string, unknown>;
    expect(await call(s, 'PUT', `/databases/${id}`, { body: { description: 'WordPress' } })).toMatchObject({
      status: 200,
      json: { id },
    });
    expect((await call(s, 'GET', `/databases/${id}`)).json).toEqual({ ...before, description: 'WordPress' });
    await call(s, 'PUT', `/databases/${id}`, { body: { remote_hosts: ['192.0.2.9'] } });
    expect((await call(s, 'GET', `/databases/${id}`)).json).toMatchObject({ remote_hosts: ['192.0.2.9'] });
    await call(s, 'PUT', `/databases/${id}`, { body: { remote_hosts: [] } });
    expect((await call(s, 'GET', `/databases/${id}`)).json).toMatchObject({
      remote_hosts: [],
      description: 'WordPress',
    });
    expect(s.state.databasePasswordIs('alice_wp', PASSWORD)).toBe(true);
    expect((await call(s, 'PUT', `/databases/${id}`, { body: { password: 'short' } })).status).toBe(400);
    expect((await call(s, 'PUT', `/databases/${id}`, { body: { password: 'the-new-password' } })).status).toBe(200);
    expect(s.state.databasePasswordIs('alice_wp', 'the-new-password')).toBe(true);
  });

  test('PUT refuses a new name, a new user, another client; an unknown id is 404', async () => {
    const { s, alice, bob } = await panel();
    const id = await created(s, { id_user: alice, database_name: 'alice_wp' });
    const put = (body: unknown): Promise<{ status: number; json: unknown }> =>
      call(s, 'PUT', `/databases/${id}`, { body });
    expect(await refused(put({ database_name: 'alice_new' }))).toEqual([
      400,
      'The name of a database cannot be changed.',
    ]);
    expect(await refused(put({ database_username: 'other' }))).toEqual([
      400,
      'The user of a database cannot be changed.',
    ]);
    expect(await refused(put({ id_user: bob }))).toEqual([400, 'A database cannot be moved to another client.']);
    expect(await refused(put({ remote_hosts: ['not a host'] }))).toEqual([
      400,
      "The remote host 'not a host' is not an IP address, a network or a host name.",
    ]);
    expect(await refused(put([1]))).toEqual([400, 'The request body must be a JSON object.']);
    // Its own identity, sent back, is no change.
    expect((await put({ database_name: 'alice_wp', database_username: 'alice_wp', id_user: alice })).status).toBe(200);
    expect(await refused(call(s, 'PUT', '/databases/999', { body: {} }))).toEqual([
      404,
      'The requested database was not found.',
    ]);
  });

  test('DELETE answers like the other deletes and frees the name and the user', async () => {
    const { s, alice } = await panel({ deleteStatus: 204 });
    const id = await created(s, { id_user: alice, database_name: 'alice_wp', database_username: 'wp' });
    expect((await call(s, 'DELETE', `/databases/${id}`)).status).toBe(204);
    expect((await call(s, 'DELETE', `/databases/${id}`)).status).toBe(404);
    expect(s.state.databasePasswordIs('alice_wp', PASSWORD)).toBeUndefined();
    await created(s, { id_user: alice, database_name: 'alice_wp', database_username: 'wp' });
  });

  test("deleting a client deletes its databases, each its own change, and no one else's", async () => {
    const { s, alice, bob } = await panel();
    await created(s, { id_user: alice, database_name: 'alice_a' });
    await created(s, { id_user: alice, database_name: 'alice_b' });
    await created(s, { id_user: bob, database_name: 'bob_a' });
    expect((await call(s, 'DELETE', `/clients/${alice}`)).status).toBe(200);
    expect(
      ((await call(s, 'GET', '/databases')).json as { database_name: string }[]).map((d) => d.database_name),
    ).toEqual(['bob_a']);
    await created(s, { id_user: bob, database_name: 'alice_a' });
  });
});

describe('faults apply to /databases as to any route', () => {
  test('5xx before any change; a POST committed whose answer is lost; latency', async () => {
    const { s, alice } = await panel({ errorRate: 1, faultFilter: ({ path }) => path.startsWith('/databases') });
    expect((await call(s, 'GET', '/databases')).status).toBeGreaterThanOrEqual(500);
    const answer = await post(s, { id_user: alice, database_name: 'alice_wp', password: PASSWORD });
    expect(answer).toMatchObject({ json: { message: 'Injected failure.' } });
    expect(s.state.databases.size).toBe(0);
    const lost = await panel({ ambiguousPostRate: 1, faultFilter: ({ path }) => path.startsWith('/databases') });
    await expect(
      post(lost.s, { id_user: lost.alice, database_name: 'alice_wp', password: PASSWORD }),
    ).rejects.toThrow();
    expect(lost.s.state.databasePasswordIs('alice_wp', PASSWORD)).toBe(true);
    expect(lost.s.requests.at(-1)).toMatchObject({ method: 'POST', path: '/databases', status: 0 });
    const slow = await panel({ latencyMs: 60 });
    const started = Date.now();
    await created(slow.s, { id_user: slow.alice, database_name: 'alice_wp' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
