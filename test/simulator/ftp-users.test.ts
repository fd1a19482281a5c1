/**
 * The simulator's /ftp-users (src/simulator/kinds/ftp-user.ts), over real HTTP: the list and
 * records, by name, POST, PUT and DELETE with the rules the simulator chose (docs/panel-api.md,
 * "The simulator"), a panel that names FTP users itself, users going with their client, and the
 * fault options on the route.
 */
import { describe, expect, test } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { call, createClient } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

const PASSWORD = 'an-ftp-password';

/** A simulator with the clients alice and bob; their ids. */
async function panel(options: Parameters<typeof sim>[0] = {}): Promise<{ s: Simulator; alice: number; bob: number }> {
  const s = await sim(options);
  const alice = await createClient(s, { username: 'alice', password: 'a-long-password' });
  const bob = await createClient(s, { username: 'bob', password: 'a-long-password' });
  return { s, alice, bob };
}

async function post(s: Simulator, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  return call(s, 'POST', '/ftp-users', { body });
}

/** Creates an FTP user (home /www unless given) and returns its id. */
async function created(s: Simulator, body: Record<string, unknown>): Promise<number> {
  const answer = await post(s, { password: PASSWORD, home_directory: '/www', ...body });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return (answer.json as { id: number }).id;
}

/** The refusal's status and message (the panel's error shape checked). */
async function refused(answer: Promise<{ status: number; json: unknown }>): Promise<[number, string]> {
  const { status, json } = await answer;
  expect(json).toMatchObject({ code: expect.stringMatching(new RegExp(`^${status} `)) as unknown });
  return [status, (json as { message: string }).message];
}

describe('GET /ftp-users, /ftp-users/{id} and /ftp-users/name/{username}', () => {
  test('a POST answers its id; the list and the records carry the fields, never the password', async () => {
    const { s, alice } = await panel();
    const answer = await post(s, {
      id_user: alice,
      username: 'alice_deploy',
      home_directory: 'www/alice.example/',
      password: PASSWORD,
      description: 'deploys',
    });
    expect(answer).toMatchObject({ status: 201, json: { id: expect.any(Number) as unknown } });
    const id = (answer.json as { id: number }).id;
    const record = {
      id,
      id_user: alice,
      username: 'alice_deploy',
      description: 'deploys',
      home_directory: '/www/alice.example',
    };
    expect((await call(s, 'GET', '/ftp-users')).json).toEqual([record]);
    expect((await call(s, 'GET', `/ftp-users/${id}`)).json).toEqual(record);
    expect((await call(s, 'GET', '/ftp-users/name/alice_deploy')).json).toEqual(record);
    expect(await refused(call(s, 'GET', '/ftp-users/name/nobody'))).toEqual([
      404,
      'The requested FTP user was not found.',
    ]);
    expect(JSON.stringify((await call(s, 'GET', '/ftp-users')).json)).not.toContain(PASSWORD);
    expect(s.state.ftpUserPasswordIs('alice_deploy', PASSWORD)).toBe(true);
    expect(s.state.ftpUserPasswordIs('alice_deploy', 'another-password')).toBe(false);
    expect(s.state.ftpUserPasswordIs('nobody', PASSWORD)).toBeUndefined();
  });
});

describe('POST /ftp-users refuses what the panel would', () => {
  test('username, home, password and body shapes: 400 with the reason', async () => {
    const { s, alice } = await panel();
    const base = { id_user: alice, username: 'alice_ftp', home_directory: '/www', password: PASSWORD };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, id_user: '2' }, "The field 'id_user' is required and must be an integer."],
      [{ ...base, username: undefined }, "The field 'username' is required and must be a string."],
      [{ ...base, username: 'Alice' }, 'The FTP username "Alice" is invalid'],
      [{ ...base, username: '_alice' }, 'The FTP username "_alice" is invalid'],
      [{ ...base, username: 'a'.repeat(65) }, '(at most 64)'],
      [{ ...base, home_directory: undefined }, "The field 'home_directory' is required and must be a string."],
      [{ ...base, home_directory: '/' }, "The home directory '/' is not under /www or /files"],
      [{ ...base, home_directory: '/tmp/x' }, 'is not under /www or /files'],
      [{ ...base, home_directory: '/www/../etc' }, "has an empty, '.' or '..' segment"],
      [{ ...base, home_directory: '/files/a//b' }, "has an empty, '.' or '..' segment"],
      [{ ...base, home_directory: '/www/a\nb' }, 'has a control character'],
      [{ ...base, password: undefined }, "The field 'password' is required: the panel makes none."],
      [{ ...base, password: 'short' }, 'The password must be at least 8 characters long.'],
      [{ ...base, description: false }, "The field 'description' must be a string."],
    ];
    for (const [body, message] of cases) {
      const [status, text] = await refused(post(s, body));
      expect([status, text], JSON.stringify(body)).toEqual([400, expect.stringContaining(message)]);
    }
    expect(s.state.ftpUsers.size).toBe(0);
  });

  test("an unknown client is 404; a username taken, or a client's or an administrator's, is 400", async () => {
    const { s, alice, bob } = await panel();
    expect(await refused(post(s, { id_user: 999, username: 'x', home_directory: '/www', password: PASSWORD }))).toEqual(
      [404, 'The client with id_user 999 was not found.'],
    );
    await created(s, { id_user: alice, username: 'deploy', home_directory: '/files' });
    const again = { home_directory: '/www', password: PASSWORD };
    expect(await refused(post(s, { ...again, id_user: bob, username: 'deploy' }))).toEqual([
      400,
      "The FTP username 'deploy' is already taken.",
    ]);
    for (const username of ['bob', 'admin'])
      expect(await refused(post(s, { ...again, id_user: alice, username }))).toEqual([
        400,
        `The FTP username '${username}' is a panel user's username.`,
      ]);
    expect((await call(s, 'GET', '/ftp-users')).json).toEqual([
      expect.objectContaining({ username: 'deploy', home_directory: '/files' }),
    ]);
  });
});

describe('a panel with "custom FTP usernames" off names FTP users itself', () => {
  test('<client>_ftp<N>, the smallest N free; the name sent is not the record', async () => {
    const { s, alice } = await panel({ customFtpUsernames: false });
    const first = await created(s, { id_user: alice, username: 'alice_deploy' });
    const second = await created(s, { id_user: alice });
    expect((await call(s, 'GET', '/ftp-users')).json).toEqual([
      expect.objectContaining({ id: first, username: 'alice_ftp1' }),
      expect.objectContaining({ id: second, username: 'alice_ftp2' }),
    ]);
    expect((await call(s, 'GET', '/ftp-users/name/alice_deploy')).status).toBe(404);
    expect(s.state.ftpUserPasswordIs('alice_ftp1', PASSWORD)).toBe(true);
    expect((await call(s, 'DELETE', `/ftp-users/${first}`)).status).toBe(200);
    await created(s, { id_user: alice });
    expect(s.state.ftpUserPasswordIs('alice_ftp1', PASSWORD)).toBe(true);
    // A username sent is still checked.
    expect(
      (await post(s, { id_user: alice, username: 'Bad', home_directory: '/www', password: PASSWORD })).status,
    ).toBe(400);
  });
});

describe('PUT and DELETE /ftp-users/{id}', () => {
  test('PUT changes the fields given only; the password when given', async () => {
    const { s, alice } = await panel();
    const id = await created(s, { id_user: alice, username: 'alice_deploy', description: 'deploys' });
    const before = (await call(s, 'GET', `/ftp-users/${id}`)).json as Record<string, unknown>;
    expect(await call(s, 'PUT', `/ftp-users/${id}`, { body: { home_directory: '/files/backup/' } })).toMatchObject({
      status: 200,
      json: { id },
    });
    expect((await call(s, 'GET', `/ftp-users/${id}`)).json).toEqual({ ...before, home_directory: '/files/backup' });
    await call(s, 'PUT', `/ftp-users/${id}`, { body: { description: 'backups' } });
    expect((await call(s, 'GET', `/ftp-users/${id}`)).json).toEqual({
      ...before,
      home_directory: '/files/backup',
      description: 'backups',
    });
    expect((await call(s, 'PUT', `/ftp-users/${id}`, { body: { password: 'short' } })).status).toBe(400);
    expect(s.state.ftpUserPasswordIs('alice_deploy', PASSWORD)).toBe(true);
    expect((await call(s, 'PUT', `/ftp-users/${id}`, { body: { password: 'the-new-password' } })).status).toBe(200);
    expect(s.state.ftpUserPasswordIs('alice_deploy', 'the-new-password')).toBe(true);
  });

  test('PUT refuses a new username, another client, a home outside; an unknown id is 404', async () => {
    const { s, alice, bob } = await panel();
    const id = await created(s, { id_user: alice, username: 'alice_deploy' });
    const put = (body: unknown): Promise<{ status: number; json: unknown }> =>
      call(s, 'PUT', `/ftp-users/${id}`, { body });
    expect(await refused(put({ username: 'other' }))).toEqual([400, 'The username of an FTP user cannot be changed.']);
    expect(await refused(put({ id_user: bob }))).toEqual([400, 'An FTP user cannot be moved to another client.']);
    expect(await refused(put({ home_directory: '/www/..' }))).toEqual([
      400,
      "The home directory '/www/..' has an empty, '.' or '..' segment.",
    ]);
    expect(await refused(put([1]))).toEqual([400, 'The request body must be a JSON object.']);
    expect((await put({ username: 'alice_deploy', id_user: alice })).status).toBe(200);
    expect(await refused(call(s, 'PUT', '/ftp-users/999', { body: {} }))).toEqual([
      404,
      'The requested FTP user was not found.',
    ]);
  });

  test("DELETE frees the username; deleting a client deletes its FTP users, no one else's", async () => {
    const { s, alice, bob } = await panel({ deleteStatus: 204 });
    const id = await created(s, { id_user: alice, username: 'deploy' });
    expect((await call(s, 'DELETE', `/ftp-users/${id}`)).status).toBe(204);
    expect((await call(s, 'DELETE', `/ftp-users/${id}`)).status).toBe(404);
    expect(s.state.ftpUserPasswordIs('deploy', PASSWORD)).toBeUndefined();
    await created(s, { id_user: alice, username: 'deploy' });
    await created(s, { id_user: alice, username: 'alice_2' });
    await created(s, { id_user: bob, username: 'bob_1' });
    expect((await call(s, 'DELETE', `/clients/${alice}`)).status).toBe(204);
    expect(((await call(s, 'GET', '/ftp-users')).json as { username: string }[]).map((u) => u.username)).toEqual([
      'bob_1',
    ]);
  });
});

describe('faults apply to /ftp-users as to any route', () => {
  test('5xx before any change; a POST committed whose answer is lost', async () => {
    const filter = { faultFilter: ({ path }: { path: string }) => path.startsWith('/ftp-users') };
    const { s, alice } = await panel({ errorRate: 1, ...filter });
    const body = { id_user: alice, username: 'deploy', home_directory: '/www', password: PASSWORD };
    expect((await post(s, body)).json).toMatchObject({ message: 'Injected failure.' });
    expect(s.state.ftpUsers.size).toBe(0);
    const lost = await panel({ ambiguousPostRate: 1, ...filter });
    await expect(post(lost.s, { ...body, id_user: lost.alice })).rejects.toThrow();
    expect(lost.s.state.ftpUserPasswordIs('deploy', PASSWORD)).toBe(true);
    expect(lost.s.requests.at(-1)).toMatchObject({ method: 'POST', path: '/ftp-users', status: 0 });
  });
});
