/**
 * The simulator's PUT and DELETE of clients and domains (the account lifecycle), over real
 * HTTP: partial updates, identities that cannot change, deletes that take what belongs to
 * them or are refused, and the options that model panels answering differently.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { call, tempDir } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';
import { onDisk } from './on-disk.js';

const SEED = {
  clients: [
    { username: 'alice', domains: ['alice.example', 'shop.alice.example'] },
    { username: 'bob', email: 'bob@example.com' },
  ],
};

describe('PUT /clients/{id}', () => {
  test('changes only the fields sent: plan, email, suspension; answers {"id"}', async () => {
    const simulator = await sim({ seed: SEED });
    const alice = simulator.state.clientNamed('alice');
    expect(alice).toMatchObject({ id_hosting_plan: 1, email: '', is_suspended: false });
    const put = await call(simulator, 'PUT', `/clients/${alice?.id}`, {
      body: { id_hosting_plan: 3, is_suspended: true },
    });
    expect(put).toMatchObject({ status: 200, json: { id: alice?.id } });
    expect(simulator.state.clientNamed('alice')).toMatchObject({
      id_hosting_plan: 3,
      email: '',
      is_suspended: true,
      username: 'alice',
    });
    await call(simulator, 'PUT', `/clients/${alice?.id}`, {
      body: { email: 'a@example.com', is_suspended: false },
    });
    expect((await call(simulator, 'GET', `/clients/${alice?.id}`)).json).toMatchObject({
      id_hosting_plan: 3,
      email: 'a@example.com',
      is_suspended: false,
    });
    // No plan: the record carries none.
    await call(simulator, 'PUT', `/clients/${alice?.id}`, { body: { id_hosting_plan: null } });
    expect(simulator.state.clientNamed('alice')).not.toHaveProperty('id_hosting_plan');
  });

  test('refuses a new username, an unknown plan, bad fields; 404 for an unknown id or an administrator', async () => {
    const simulator = await sim({ seed: SEED });
    const id = simulator.state.clientNamed('alice')?.id ?? 0;
    expect(await call(simulator, 'PUT', `/clients/${id}`, { body: { username: 'mallory' } })).toMatchObject({
      status: 400,
      json: { message: 'The username of a client cannot be changed.' },
    });
    expect((await call(simulator, 'PUT', `/clients/${id}`, { body: { id_hosting_plan: 99 } })).status).toBe(400);
    expect((await call(simulator, 'PUT', `/clients/${id}`, { body: { is_suspended: 'yes' } })).status).toBe(400);
    expect((await call(simulator, 'PUT', `/clients/${id}`, { body: { email: 'nope' } })).status).toBe(400);
    expect((await call(simulator, 'PUT', `/clients/${id}`, { raw: '{' })).status).toBe(400);
    expect((await call(simulator, 'PUT', '/clients/999', { body: {} })).status).toBe(404);
    expect((await call(simulator, 'PUT', '/clients/1', { body: {} })).status).toBe(404); // the administrator
    expect(simulator.state.clientNamed('alice')).toMatchObject({
      username: 'alice',
      id_hosting_plan: 1,
    });
    expect((await call(simulator, 'PUT', '/clients/name/alice', { body: {} })).status).toBe(405);
  });
});

describe('DELETE', () => {
  test('a client goes with all its domains, system ones too; then 404', async () => {
    const simulator = await sim({ seed: SEED });
    const id = simulator.state.clientNamed('alice')?.id ?? 0;
    expect([...simulator.state.domains.values()].filter((d) => d.id_user === id)).toHaveLength(3);
    expect(await call(simulator, 'DELETE', `/clients/${id}`)).toMatchObject({
      status: 200,
      json: { id },
    });
    expect(simulator.state.clientNamed('alice')).toBeUndefined();
    expect([...simulator.state.domains.values()].filter((d) => d.id_user === id)).toEqual([]);
    expect(simulator.state.domainNamed('alice.example')).toBeUndefined();
    expect((await call(simulator, 'DELETE', `/clients/${id}`)).status).toBe(404);
    // The name is free again.
    expect((await call(simulator, 'POST', '/clients', { body: { username: 'alice' } })).status).toBe(201);
  });

  test('a domain with subdomains is refused until they are gone; a system domain never goes', async () => {
    const simulator = await sim({ seed: SEED });
    const parent = simulator.state.domainNamed('alice.example');
    const child = simulator.state.domainNamed('shop.alice.example');
    expect(child?.id_parent_domain).toBe(parent?.id);
    expect(await call(simulator, 'DELETE', `/domains/${parent?.id}`)).toMatchObject({
      status: 400,
      json: { message: "The domain 'alice.example' has subdomains: delete them first." },
    });
    expect((await call(simulator, 'DELETE', `/domains/${child?.id}`)).status).toBe(200);
    expect((await call(simulator, 'DELETE', `/domains/${parent?.id}`)).status).toBe(200);
    const system = [...simulator.state.domains.values()].find((d) => d.is_system_domain);
    expect((await call(simulator, 'DELETE', `/domains/${system?.id}`)).status).toBe(400);
    expect((await call(simulator, 'DELETE', '/domains/999')).status).toBe(404);
  });

  test('PUT /domains/{id}: is_disabled changes, the name does not', async () => {
    const simulator = await sim({ seed: SEED });
    const domain = simulator.state.domainNamed('alice.example');
    expect((await call(simulator, 'PUT', `/domains/${domain?.id}`, { body: { is_disabled: true } })).status).toBe(200);
    expect(simulator.state.domainNamed('alice.example')?.is_disabled).toBe(true);
    expect((await call(simulator, 'PUT', `/domains/${domain?.id}`, { body: { domain: 'evil.example' } })).status).toBe(
      400,
    );
  });
});

describe('options and persistence', () => {
  test('deleteStatus 204 answers without a body; clientListFields false leaves managed fields to GET /clients/{id}', async () => {
    const simulator = await sim({ seed: SEED, deleteStatus: 204, clientListFields: false });
    const list = (await call(simulator, 'GET', '/clients')).json as Record<string, unknown>[];
    expect(list.map((c) => Object.keys(c).sort())).toEqual([
      ['created_at', 'id', 'language', 'username'],
      ['created_at', 'id', 'language', 'username'],
    ]);
    const bob = simulator.state.clientNamed('bob')?.id ?? 0;
    expect((await call(simulator, 'GET', `/clients/${bob}`)).json).toMatchObject({
      email: 'bob@example.com',
      is_suspended: false,
    });
    const gone = await call(simulator, 'DELETE', `/clients/${bob}`);
    expect(gone).toMatchObject({ status: 204, text: '' });
  });

  test('updates and deletes are in the state file before their answer', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const simulator = await sim({ seed: SEED, statePath });
    const id = simulator.state.clientNamed('bob')?.id ?? 0;
    await call(simulator, 'PUT', `/clients/${id}`, { body: { is_suspended: true } });
    const saved = await onDisk(statePath);
    expect(saved.clients.find((c) => c.username === 'bob')?.is_suspended).toBe(true);
    await call(simulator, 'DELETE', `/clients/${id}`);
    const after = await onDisk(statePath);
    expect(after.clients.map((c) => c.username)).toEqual(['alice']);
    expect(after.domains.map((d) => d.domain)).not.toContain('bob.sim.keyhelp.test');
  });
});
