/**
 * What GET /clients leaves out: readLive reads GET /clients/{id} for the manifest's clients
 * whose managed fields the list does not carry (bounded, one note), and nothing more when it
 * carries them. findClientById: the record by id, undefined on 404.
 */
import { describe, expect, test } from 'vitest';
import {
  findClientById,
  PanelHttpError,
  readLive,
  type ClientDetails,
  type ManagedField,
} from '../../src/panel/index.js';
import { client, notesTo, rejection } from '../helpers/panel.js';
import { inFlight, sim } from '../helpers/sim.js';

const SEED = {
  hostingPlans: ['Basic', 'Premium Plus'],
  clients: [
    {
      username: 'alice',
      plan: 'Premium Plus',
      email: 'alice@example.com',
      domains: ['alice.example'],
    },
    { username: 'bob', domains: ['bob.example'] },
    { username: 'carol' },
  ],
} as const;

const ALL: ReadonlySet<ManagedField> = new Set(['plan', 'email', 'suspended']);
const details = (usernames: string[], fields: ReadonlySet<ManagedField> = ALL): ClientDetails => ({
  usernames: new Set(usernames),
  fields,
});
const byId = (path: string): boolean => /^\/clients\/\d+$/.test(path);

describe('readLive with details', () => {
  test('a list without the managed fields: the asked clients read one by one, merged, said once', async () => {
    const simulator = await sim({ seed: SEED, clientListFields: false });
    const notes: string[] = [];
    const live = await readLive(client(simulator), {
      domainNames: [],
      details: details(['alice', 'Bob']),
      onEvent: notesTo(notes),
    });
    expect(notes).toEqual([
      'GET /api/v2/clients does not carry "id_hosting_plan", "email", "is_suspended": read 2 clients one by one (GET /api/v2/clients/{id}).',
    ]);
    expect(live.client).toStrictEqual([
      { id: 2, username: 'alice', idHostingPlan: 2, email: 'alice@example.com', suspended: false, language: 'en' },
      { id: 3, username: 'bob', idHostingPlan: 1, email: null, suspended: false, language: 'en' },
      // Not in the manifest: not read, left unknown.
      {
        id: 4,
        username: 'carol',
        idHostingPlan: undefined,
        email: undefined,
        suspended: undefined,
        // The list carries the language.
        language: 'en',
      },
    ]);
    expect(
      simulator.requests
        .filter((r) => byId(r.path))
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/clients/2', '/clients/3']);
    expect(simulator.requests).toHaveLength(6);
  });

  test('a list that carries the fields: four GETs, no note, whatever the manifest', async () => {
    const simulator = await sim({ seed: SEED });
    const notes: string[] = [];
    const live = await readLive(client(simulator), {
      domainNames: [],
      details: details(['alice', 'bob', 'carol']),
      onEvent: notesTo(notes),
    });
    expect(simulator.requests.map((r) => r.path)).toEqual(['/ping', '/hosting-plans', '/clients', '/domains']);
    expect(notes).toEqual([]);
    expect(live.client[0]).toStrictEqual({
      id: 2,
      username: 'alice',
      idHostingPlan: 2,
      email: 'alice@example.com',
      suspended: false,
      language: 'en',
    });
  });

  test('only the managed fields count; what the list carries is kept', async () => {
    const simulator = await sim({
      seed: SEED,
      intercept: (req) => {
        if (req.path === '/clients')
          return {
            status: 200,
            json: [
              { id: 2, username: 'alice', id_hosting_plan: 1 },
              { id: 3, username: 'bob', id_hosting_plan: 0 },
              { id: 4, username: 'carol' },
            ],
          };
        // The record by id says otherwise about the plan: the list's value stands.
        if (req.path === '/clients/2')
          return {
            status: 200,
            json: { id: 2, username: 'alice', id_hosting_plan: 2, email: '', is_suspended: 1 },
          };
        return undefined;
      },
    });
    const notes: string[] = [];
    const planOnly = await readLive(client(simulator), {
      domainNames: [],
      details: details(['alice', 'bob'], new Set(['plan'])),
      onEvent: notesTo(notes),
    });
    expect(planOnly.client.map((c) => c.idHostingPlan)).toEqual([1, null, undefined]);
    expect(simulator.requests.filter((r) => byId(r.path))).toEqual([]);
    expect(notes).toEqual([]);

    const withSuspended = await readLive(client(simulator), {
      domainNames: [],
      details: details(['alice'], new Set(['plan', 'suspended'])),
      onEvent: notesTo(notes),
    });
    expect(notes).toEqual([
      'GET /api/v2/clients does not carry "is_suspended": read 1 client one by one (GET /api/v2/clients/{id}).',
    ]);
    // Every field the record carries fills what the list lacked.
    expect(withSuspended.client[0]).toStrictEqual({
      id: 2,
      username: 'alice',
      idHostingPlan: 1,
      email: null,
      suspended: true,
      language: undefined,
    });
    expect(withSuspended.client[1]).toMatchObject({ username: 'bob', suspended: undefined });
  });

  test('a client deleted meanwhile (404) stays as listed, its fields unknown', async () => {
    const simulator = await sim({
      seed: SEED,
      clientListFields: false,
      intercept: (req) =>
        req.path === '/clients/3' ? { status: 404, json: { code: '404 Not Found', message: 'gone' } } : undefined,
    });
    const live = await readLive(client(simulator), {
      domainNames: [],
      details: details(['alice', 'bob']),
    });
    expect(live.client.map((c) => [c.username, c.email, c.suspended])).toEqual([
      ['alice', 'alice@example.com', false],
      ['bob', undefined, undefined],
      ['carol', undefined, undefined],
    ]);
  });

  test.each([
    [
      { id: 3, username: 'mallory' },
      'GET /api/v2/clients/3 answered the record of client "mallory" (id 3), not the one asked for',
    ],
    [
      { id: 4, username: 'bob' },
      'GET /api/v2/clients/3 answered the record of client "bob" (id 4), not the one asked for',
    ],
    [
      { id: 3, username: 'bob', is_suspended: 'no' },
      'GET /api/v2/clients/3: "is_suspended" must be a boolean (or 0 or 1), got a string',
    ],
  ])('a record by id that is not the one asked for, or unreadable: contract error (%j)', async (json, message) => {
    const simulator = await sim({
      seed: SEED,
      clientListFields: false,
      intercept: (req) => (req.path === '/clients/3' ? { status: 200, json } : undefined),
    });
    const error = await rejection(readLive(client(simulator), { domainNames: [], details: details(['bob']) }));
    expect(error).toMatchObject({ code: 'panel_contract', message });
  });

  test('another error on a read by id stops the read', async () => {
    const simulator = await sim({
      seed: SEED,
      clientListFields: false,
      intercept: (req) =>
        req.path === '/clients/3' ? { status: 500, json: { code: '500', message: 'boom' } } : undefined,
    });
    const error = await rejection(readLive(client(simulator), { domainNames: [], details: details(['bob']) }));
    expect(error).toMatchObject({ code: 'panel_http', status: 500 });
  });

  test('bounded: at most `concurrency` reads at a time', async () => {
    const held = inFlight(byId);
    const usernames = Array.from({ length: 12 }, (_, i) => `user${i}`);
    const simulator = await sim({
      seed: { clients: usernames.map((username) => ({ username })) },
      clientListFields: false,
      intercept: held.intercept,
    });
    const notes: string[] = [];
    const live = await readLive(client(simulator), {
      domainNames: [],
      concurrency: 3,
      details: details(usernames, new Set(['email'])),
      onEvent: notesTo(notes),
    });
    expect(notes).toEqual([
      'GET /api/v2/clients does not carry "email": read 12 clients one by one (GET /api/v2/clients/{id}).',
    ]);
    expect(live.client.every((c) => c.email === null && c.suspended === false)).toBe(true);
    expect(simulator.requests.filter((r) => byId(r.path))).toHaveLength(12);
    expect(held.max()).toBeGreaterThan(1);
    expect(held.max()).toBeLessThanOrEqual(3);
  });
});

describe('findClientById', () => {
  test('the record; undefined for an unknown id or an administrator; a record for another id is a contract error', async () => {
    const simulator = await sim({ seed: SEED, clientListFields: false });
    const panel = client(simulator);
    expect(await findClientById(panel, 2)).toStrictEqual({
      id: 2,
      username: 'alice',
      idHostingPlan: 2,
      email: 'alice@example.com',
      suspended: false,
      language: 'en',
    });
    expect(await findClientById(panel, 99)).toBeUndefined();
    expect(await findClientById(panel, 1)).toBeUndefined();

    const wrong = await sim({
      seed: SEED,
      intercept: (req) => (req.path === '/clients/2' ? { status: 200, json: { id: 3, username: 'bob' } } : undefined),
    });
    const error = await rejection(findClientById(client(wrong), 2));
    expect(error).toMatchObject({
      code: 'panel_contract',
      message: 'GET /api/v2/clients/2 answered the record of client "bob" (id 3), not the one asked for',
    });
    expect(error.hint).toMatch(/look-ups by id/);
  });

  test('errors other than 404 are thrown', async () => {
    const simulator = await sim({
      seed: SEED,
      intercept: () => ({ status: 403, json: { code: '403 Forbidden', message: 'no' } }),
    });
    const error = await rejection(findClientById(client(simulator), 2));
    expect(error).toBeInstanceOf(PanelHttpError);
    expect(error).toMatchObject({ status: 403 });
  });
});
