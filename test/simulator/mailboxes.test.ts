/**
 * The simulator's /emails (src/simulator/kinds/mailbox.ts, mailbox-requests.ts), over real
 * HTTP: the list and records, POST, PUT and DELETE with the rules the simulator chose
 * (docs/panel-api.md, "The simulator"), and mailboxes going with their domain or client.
 */
import { describe, expect, test } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { call, createClient } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

const PASSWORD = 'a-mailbox-password';

/** A simulator with alice (alice.example, alice-shop.example) and bob (bob.example); their ids. */
async function panel(options: Parameters<typeof sim>[0] = {}): Promise<{ s: Simulator; alice: number; bob: number }> {
  const s = await sim(options);
  const alice = await createClient(s, { username: 'alice', password: 'a-long-password' });
  const bob = await createClient(s, { username: 'bob', password: 'a-long-password' });
  for (const [domain, owner] of [
    ['alice.example', alice],
    ['alice-shop.example', alice],
    ['bob.example', bob],
  ] as const)
    expect((await call(s, 'POST', '/domains', { body: { domain, id_user: owner } })).status).toBe(201);
  return { s, alice, bob };
}

async function post(s: Simulator, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  return call(s, 'POST', '/emails', { body });
}

/** Creates a mailbox and returns its id. */
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

describe('GET /emails and /emails/{id}', () => {
  test('a POST answers its id; the list and the record carry the fields, never the password', async () => {
    const { s, alice } = await panel();
    const answer = await post(s, {
      id_user: alice,
      email: 'Info@Alice.example',
      password: PASSWORD,
      description: 'Front desk',
      max_size: 2 * 1024 ** 3,
      catch_all: true,
      store_forwarded_emails: true,
      aliases: ['hello@alice.example', 'info@alice-shop.example'],
      forwardings: ['owner@bücher.example'],
    });
    expect(answer).toMatchObject({ status: 201, json: { id: expect.any(Number) as unknown } });
    const id = (answer.json as { id: number }).id;
    const record = {
      id,
      id_user: alice,
      email: 'info@alice.example',
      email_utf8: 'info@alice.example',
      description: 'Front desk',
      size: 0,
      max_size: 2 * 1024 ** 3,
      aliases: ['hello@alice.example', 'info@alice-shop.example'],
      aliases_utf8: ['hello@alice.example', 'info@alice-shop.example'],
      forwardings: ['owner@xn--bcher-kva.example'],
      forwardings_utf8: ['owner@bücher.example'],
      catch_all: true,
      store_forwarded_emails: true,
    };
    expect((await call(s, 'GET', '/emails')).json).toEqual([record]);
    expect((await call(s, 'GET', `/emails/${id}`)).json).toEqual(record);
    expect(JSON.stringify((await call(s, 'GET', '/emails')).json)).not.toContain(PASSWORD);
    expect(s.state.mailboxPasswordIs('INFO@alice.example', PASSWORD)).toBe(true);
    expect(s.state.mailboxPasswordIs('info@alice.example', 'another-password')).toBe(false);
  });

  test('defaults; an empty panel lists []; unknown ids 404; no look-up by name', async () => {
    const { s, bob } = await panel();
    expect((await call(s, 'GET', '/emails')).json).toEqual([]);
    const id = await created(s, { id_user: bob, email: 'bob@bob.example' });
    expect((await call(s, 'GET', `/emails/${id}`)).json).toMatchObject({
      description: '',
      max_size: 0,
      aliases: [],
      forwardings: [],
      catch_all: false,
      store_forwarded_emails: false,
    });
    expect(await refused(call(s, 'GET', `/emails/${id + 1}`))).toEqual([404, 'The requested mailbox was not found.']);
    expect((await call(s, 'GET', '/emails/name/bob@bob.example')).status).toBe(404);
    expect((await call(s, 'PATCH', '/emails')).status).toBe(405);
  });
});

describe('POST /emails refuses what the panel would', () => {
  test('missing or malformed fields, a short password', async () => {
    const { s, alice } = await panel();
    const base = { id_user: alice, email: 'info@alice.example', password: PASSWORD };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, id_user: undefined }, "The field 'id_user' is required and must be an integer."],
      [{ ...base, email: undefined }, "The field 'email' is required and must be a string."],
      [{ ...base, password: undefined }, "The field 'password' is required: the panel makes none."],
      [{ ...base, password: 'short' }, 'The password must be at least 8 characters long.'],
      [{ ...base, email: 'alice.example' }, "The address 'alice.example' is not an address like name@example.com."],
      [{ ...base, max_size: -1 }, "The field 'max_size' must be a whole number of bytes, 0 or more (0: unlimited)."],
      [{ ...base, catch_all: 'yes' }, "The field 'catch_all' must be a boolean."],
      [{ ...base, aliases: 'hello@alice.example' }, "The field 'aliases' must be an array of addresses."],
      [{ ...base, aliases: ['hello'] }, "The address 'hello' in 'aliases' is not an address like name@example.com."],
      [
        { ...base, forwardings: ['a@x.example', 'A@x.example'] },
        "The address 'A@x.example' is listed twice in 'forwardings'.",
      ],
    ];
    for (const [body, message] of cases) expect(await refused(post(s, body))).toEqual([400, message]);
    expect(s.state.mailboxes.size).toBe(0);
  });

  test("the address's domain must be a domain of that client; the client must exist", async () => {
    const { s, alice, bob } = await panel();
    expect(await refused(post(s, { id_user: alice, email: 'info@bob.example', password: PASSWORD }))).toEqual([
      400,
      "The domain 'bob.example' of 'info@bob.example' is not a domain of the client 'alice'.",
    ]);
    expect(await refused(post(s, { id_user: bob, email: 'info@nowhere.example', password: PASSWORD }))).toEqual([
      400,
      "The domain 'nowhere.example' of 'info@nowhere.example' is not a domain of the client 'bob'.",
    ]);
    expect(await refused(post(s, { id_user: 999, email: 'info@bob.example', password: PASSWORD }))).toEqual([
      404,
      'The client with id_user 999 was not found.',
    ]);
    // An administrator is no client.
    expect((await post(s, { id_user: 1, email: 'info@bob.example', password: PASSWORD })).status).toBe(404);
    expect(s.state.mailboxes.size).toBe(0);
  });

  test('addresses are unique across the panel, aliases included, in any spelling', async () => {
    const { s, alice } = await panel();
    await created(s, { id_user: alice, email: 'info@alice.example', aliases: ['hello@alice.example'] });
    for (const email of ['INFO@alice.example', 'hello@ALICE.example'])
      expect(await refused(post(s, { id_user: alice, email, password: PASSWORD }))).toEqual([
        400,
        `The address '${email.toLowerCase()}' is already in use.`,
      ]);
    // An alias may not be another mailbox's address or alias.
    for (const alias of ['info@alice.example', 'hello@alice.example'])
      expect(
        await refused(post(s, { id_user: alice, email: 'sales@alice.example', password: PASSWORD, aliases: [alias] })),
      ).toEqual([400, `The address '${alias}' is already in use.`]);
    expect(
      await refused(
        post(s, { id_user: alice, email: 'sales@alice.example', password: PASSWORD, aliases: ['sales@alice.example'] }),
      ),
    ).toEqual([400, "The alias 'sales@alice.example' is the mailbox's own address."]);
    expect(s.state.mailboxes.size).toBe(1);
  });

  test('aliases on domains of the same client only; forwardings anywhere but to itself', async () => {
    const { s, alice } = await panel();
    expect(
      await refused(
        post(s, { id_user: alice, email: 'info@alice.example', password: PASSWORD, aliases: ['info@bob.example'] }),
      ),
    ).toEqual([400, "The domain 'bob.example' of 'info@bob.example' is not a domain of the client 'alice'."]);
    expect(
      await refused(
        post(s, {
          id_user: alice,
          email: 'info@alice.example',
          password: PASSWORD,
          aliases: ['hi@alice.example'],
          forwardings: ['hi@alice.example'],
        }),
      ),
    ).toEqual([400, "The mailbox 'info@alice.example' cannot forward to itself ('hi@alice.example')."]);
    await created(s, { id_user: alice, email: 'info@alice.example', forwardings: ['info@bob.example'] });
  });

  test('at most one catch-all per domain', async () => {
    const { s, alice } = await panel();
    const first = await created(s, { id_user: alice, email: 'info@alice.example', catch_all: true });
    expect(
      await refused(post(s, { id_user: alice, email: 'sales@alice.example', password: PASSWORD, catch_all: true })),
    ).toEqual([400, "The domain 'alice.example' already has a catch-all mailbox: 'info@alice.example'."]);
    // Another domain has its own; and once the first lets go, the second may take it.
    await created(s, { id_user: alice, email: 'info@alice-shop.example', catch_all: true });
    const second = await created(s, { id_user: alice, email: 'sales@alice.example' });
    expect((await call(s, 'PUT', `/emails/${second}`, { body: { catch_all: true } })).status).toBe(400);
    expect((await call(s, 'PUT', `/emails/${first}`, { body: { catch_all: false } })).status).toBe(200);
    expect((await call(s, 'PUT', `/emails/${second}`, { body: { catch_all: true } })).status).toBe(200);
    expect(s.state.mailboxNamed('sales@alice.example')?.catch_all).toBe(true);
  });
});

describe('PUT and DELETE /emails/{id}', () => {
  test('PUT changes the fields given only; lists whole; the password when given', async () => {
    const { s, alice } = await panel();
    const id = await created(s, {
      id_user: alice,
      email: 'info@alice.example',
      description: 'Front desk',
      aliases: ['hello@alice.example'],
      forwardings: ['owner@example.net'],
    });
    const before = (await call(s, 'GET', `/emails/${id}`)).json as Record<string, unknown>;
    expect(await call(s, 'PUT', `/emails/${id}`, { body: { max_size: 1000 } })).toMatchObject({
      status: 200,
      json: { id },
    });
    expect((await call(s, 'GET', `/emails/${id}`)).json).toEqual({ ...before, max_size: 1000 });
    await call(s, 'PUT', `/emails/${id}`, { body: { aliases: ['contact@alice-shop.example'], forwardings: [] } });
    expect((await call(s, 'GET', `/emails/${id}`)).json).toMatchObject({
      description: 'Front desk',
      aliases: ['contact@alice-shop.example'],
      forwardings: [],
    });
    // The alias it dropped is free again; the one it took is not.
    await created(s, { id_user: alice, email: 'hello@alice.example' });
    expect((await post(s, { id_user: alice, email: 'contact@alice-shop.example', password: PASSWORD })).status).toBe(
      400,
    );
    expect(s.state.mailboxPasswordIs('info@alice.example', PASSWORD)).toBe(true);
    expect((await call(s, 'PUT', `/emails/${id}`, { body: { password: 'short' } })).status).toBe(400);
    expect((await call(s, 'PUT', `/emails/${id}`, { body: { password: 'the-new-password' } })).status).toBe(200);
    expect(s.state.mailboxPasswordIs('info@alice.example', 'the-new-password')).toBe(true);
  });

  test('PUT refuses a new address, another client, a taken alias; an unknown id is 404', async () => {
    const { s, alice, bob } = await panel();
    const id = await created(s, { id_user: alice, email: 'info@alice.example' });
    await created(s, { id_user: alice, email: 'sales@alice.example', aliases: ['shop@alice-shop.example'] });
    const put = (body: unknown): Promise<{ status: number; json: unknown }> =>
      call(s, 'PUT', `/emails/${id}`, { body });
    expect(await refused(put({ email: 'other@alice.example' }))).toEqual([
      400,
      'The address of a mailbox cannot be changed.',
    ]);
    expect(await refused(put({ id_user: bob }))).toEqual([400, 'A mailbox cannot be moved to another client.']);
    expect(await refused(put({ aliases: ['shop@alice-shop.example'] }))).toEqual([
      400,
      "The address 'shop@alice-shop.example' is already in use.",
    ]);
    expect(await refused(put([1]))).toEqual([400, 'The request body must be a JSON object.']);
    // Its own address, in another spelling, is no change.
    expect((await put({ email: 'INFO@alice.example', id_user: alice })).status).toBe(200);
    expect(await refused(call(s, 'PUT', '/emails/999', { body: {} }))).toEqual([
      404,
      'The requested mailbox was not found.',
    ]);
  });

  test('DELETE answers like the other deletes and frees the address and its aliases', async () => {
    const { s, alice } = await panel({ deleteStatus: 204 });
    const id = await created(s, { id_user: alice, email: 'info@alice.example', aliases: ['hi@alice.example'] });
    expect((await call(s, 'DELETE', `/emails/${id}`)).status).toBe(204);
    expect((await call(s, 'DELETE', `/emails/${id}`)).status).toBe(404);
    expect(s.state.mailboxPasswordIs('info@alice.example', PASSWORD)).toBeUndefined();
    await created(s, { id_user: alice, email: 'hi@alice.example', aliases: ['info@alice.example'] });
  });

  test("deleting a domain deletes its mailboxes and the aliases on it; deleting a client, all of the client's", async () => {
    const { s, alice, bob } = await panel();
    await created(s, { id_user: alice, email: 'info@alice.example', aliases: ['info@alice-shop.example'] });
    await created(s, { id_user: alice, email: 'sales@alice-shop.example' });
    await created(s, { id_user: bob, email: 'bob@bob.example' });
    const shop = s.state.domainNamed('alice-shop.example')?.id ?? 0;
    expect((await call(s, 'DELETE', `/domains/${shop}`)).status).toBe(200);
    expect((await call(s, 'GET', '/emails')).json).toEqual([
      expect.objectContaining({ email: 'info@alice.example', aliases: [], aliases_utf8: [] }),
      expect.objectContaining({ email: 'bob@bob.example' }),
    ]);
    expect((await call(s, 'DELETE', `/clients/${alice}`)).status).toBe(200);
    expect(((await call(s, 'GET', '/emails')).json as { email: string }[]).map((m) => m.email)).toEqual([
      'bob@bob.example',
    ]);
  });
});

describe('faults apply to /emails as to any route', () => {
  test('5xx before any change; a POST committed whose answer is lost', async () => {
    const { s, alice } = await panel({
      errorRate: 1,
      faultFilter: ({ path }) => path.startsWith('/emails'),
    });
    expect((await call(s, 'GET', '/emails')).status).toBeGreaterThanOrEqual(500);
    const answer = await post(s, { id_user: alice, email: 'info@alice.example', password: PASSWORD });
    expect(answer).toMatchObject({ json: { message: 'Injected failure.' } });
    expect(s.state.mailboxes.size).toBe(0);
    const lost = await panel({
      ambiguousPostRate: 1,
      faultFilter: ({ path }) => path.startsWith('/emails'),
    });
    await expect(
      post(lost.s, { id_user: lost.alice, email: 'info@alice.example', password: PASSWORD }),
    ).rejects.toThrow();
    expect(lost.s.state.mailboxPasswordIs('info@alice.example', PASSWORD)).toBe(true);
    expect(lost.s.requests.at(-1)).toMatchObject({ method: 'POST', path: '/emails', status: 0 });
  });

  test('latency holds each request', async () => {
    const { s, alice } = await panel({ latencyMs: 60 });
    const started = Date.now();
    await created(s, { id_user: alice, email: 'info@alice.example' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
