/**
 * Mailboxes in the simulator's seed (a domain's `mailboxes`) and in its state file: saved as
 * they change, loaded back whole with their password hashes, and absent from older files.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { parseSeed, type SimulatorSeed } from '../../src/simulator/index.js';
import { call, tempDir } from '../helpers/sim-http.js';
import { sim, startSim } from '../helpers/sim.js';

const SEED: SimulatorSeed = {
  clients: [
    {
      username: 'alice',
      domains: [
        { name: 'alice-shop.example' },
        {
          name: 'alice.example',
          mailboxes: [
            'postmaster',
            {
              name: 'info',
              password: 'a-mailbox-password',
              description: 'Front desk',
              max_size: 1024,
              size: 512,
              aliases: ['hello@alice.example', 'info@alice-shop.example'],
              forwardings: ['owner@example.net'],
              catch_all: true,
              store_forwarded_emails: true,
            },
          ],
        },
      ],
    },
  ],
};

describe('the seed', () => {
  test("a domain's mailboxes: local parts, or objects with POST's fields and a size", async () => {
    const s = await sim({ seed: parseSeed(SEED, 'seed.json'), systemDomains: false });
    const alice = s.state.clientNamed('alice')?.id;
    expect((await call(s, 'GET', '/emails')).json).toEqual([
      expect.objectContaining({ id: 1, id_user: alice, email: 'postmaster@alice.example', catch_all: false }),
      expect.objectContaining({
        id: 2,
        email: 'info@alice.example',
        description: 'Front desk',
        size: 512,
        max_size: 1024,
        aliases: ['hello@alice.example', 'info@alice-shop.example'],
        forwardings: ['owner@example.net'],
        catch_all: true,
        store_forwarded_emails: true,
      }),
    ]);
    expect(s.state.mailboxPasswordIs('info@alice.example', 'a-mailbox-password')).toBe(true);
    expect(s.state.mailboxPasswordIs('postmaster@alice.example', 'a-mailbox-password')).toBe(false);
  });

  test.each([
    ['info', /clients\[0\]\.domains\[0\]\.mailboxes must be an array/],
    [[7], /clients\[0\]\.domains\[0\]\.mailboxes\[0\] must be a local part or an object/],
    [[{ name: 'a@b.example' }], /clients\[0\]\.domains\[0\]\.mailboxes\[0\]\.name must be a local part/],
    [[{ name: 'info', quota: 1 }], /mailboxes\[0\]: unknown key "quota" \(allowed: name, password, /],
    [[{ name: 'info', password: 'short' }], /mailboxes\[0\]: The password must be at least 8 characters long\./],
  ])('parseSeed refuses mailboxes %j', (mailboxes, message) => {
    let caught: unknown;
    try {
      parseSeed({ clients: [{ username: 'alice', domains: [{ name: 'alice.example', mailboxes }] }] }, 'seed.json');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProvisionError);
    expect((caught as ProvisionError).message).toMatch(/^seed\.json: invalid simulator seed: /);
    expect((caught as ProvisionError).message).toMatch(message);
  });

  test("the panel's rules hold in the seed too: an alias on another client's domain, a second catch-all", async () => {
    const seed = (mailboxes: unknown[]): unknown => ({
      clients: [
        { username: 'bob', domains: ['bob.example'] },
        { username: 'alice', domains: [{ name: 'alice.example', mailboxes }] },
      ],
    });
    expect(() => parseSeed(seed([{ name: 'info', aliases: ['info@bob.example'] }]), 'seed.json')).toThrow(
      "seed.json: clients[1].domains[0].mailboxes[0]: The domain 'bob.example' of 'info@bob.example' is not a domain of the client 'alice'.",
    );
    expect(() =>
      parseSeed(
        seed([
          { name: 'a', catch_all: true },
          { name: 'b', catch_all: true },
        ]),
        'seed.json',
      ),
    ).toThrow(/mailboxes\[1\]: The domain 'alice\.example' already has a catch-all mailbox/);
    // A seed given in code skips parseSeed and is checked all the same.
    await expect(
      startSim({
        seed: { clients: [{ username: 'alice', domains: [{ name: 'alice.example', mailboxes: ['in fo'] }] }] },
      }),
    ).rejects.toThrow(/mailboxes\[0\]\.name must be a local part/);
  });
});

describe('the state file', () => {
  test('mailboxes are saved as they change and come back whole, password hashes included', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, seed: SEED, systemDomains: false });
    const alice = first.state.clientNamed('alice')?.id ?? 0;
    const post = await call(first, 'POST', '/emails', {
      body: { id_user: alice, email: 'sales@alice.example', password: 'sales-password', aliases: ['s@alice.example'] },
    });
    expect(post.status).toBe(201);
    const sales = (post.json as { id: number }).id;
    await call(first, 'PUT', `/emails/${sales}`, { body: { max_size: 4096, password: 'new-sales-password' } });
    await call(first, 'DELETE', '/emails/1');
    // Logged before each answer: a copy taken now (as a kill would leave it) has them.
    const logged = (await readFile(statePath, 'utf8')).split('\n').slice(1, -1);
    expect(logged.map((line) => Object.keys(JSON.parse(line) as object).join('+'))).toEqual([
      'set+record',
      'set+record',
      'set+record',
      'set+record',
      'delete+id',
    ]);
    expect(logged.join('\n')).not.toContain('sales-password');
    const before = [...first.state.mailboxes.values()];
    await first.close();

    const snapshot = JSON.parse(await readFile(statePath, 'utf8')) as Record<string, unknown>;
    expect(snapshot).toMatchObject({ nextMailboxId: 4 });
    expect(JSON.stringify(snapshot)).not.toContain('a-mailbox-password');
    const second = await sim({ statePath });
    expect([...second.state.mailboxes.values()]).toEqual(before);
    expect(second.state.mailboxPasswordIs('sales@alice.example', 'new-sales-password')).toBe(true);
    expect(second.state.mailboxPasswordIs('info@alice.example', 'a-mailbox-password')).toBe(true);
    // The indexes are rebuilt: addresses, aliases and the catch-all stay taken; ids go on.
    for (const email of ['s@alice.example', 'hello@alice.example'])
      expect(
        (await call(second, 'POST', '/emails', { body: { id_user: alice, email, password: 'x-password' } })).status,
      ).toBe(400);
    const catchAll = await call(second, 'POST', '/emails', {
      body: { id_user: alice, email: 'c@alice.example', password: 'x-password', catch_all: true },
    });
    expect(catchAll.status).toBe(400);
    const again = await call(second, 'POST', '/emails', {
      body: { id_user: alice, email: 'postmaster@alice.example', password: 'x-password' },
    });
    expect(again).toMatchObject({ status: 201, json: { id: 4 } });
  });

  test('a file written before mailboxes loads with none, and takes them from then on', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const snapshot = {
      format: 'panel-provision-simulator-state',
      version: 1,
      nextPlanId: 2,
      nextUserId: 3,
      nextDomainId: 2,
      admins: [{ id: 1, username: 'admin' }],
      plans: [{ id: 1, name: 'Basic', resources: {}, permissions: {}, php: {}, php_fpm: {} }],
      clients: [
        {
          id: 2,
          username: 'alice',
          email: '',
          is_suspended: false,
          language: 'en',
          created_at: '2024-01-02T03:04:05+00:00',
        },
      ],
      domains: [
        {
          id: 1,
          id_user: 2,
          id_parent_domain: 0,
          domain: 'alice.example',
          domain_utf8: 'alice.example',
          is_subdomain: false,
          is_system_domain: false,
          is_disabled: false,
          created_at: '2024-01-02T03:04:05+00:00',
        },
      ],
    };
    await writeFile(statePath, `${JSON.stringify(snapshot)}\n`);
    const s = await sim({ statePath });
    expect((await call(s, 'GET', '/emails')).json).toEqual([]);
    const answer = await call(s, 'POST', '/emails', {
      body: { id_user: 2, email: 'info@alice.example', password: 'a-mailbox-password' },
    });
    expect(answer).toMatchObject({ status: 201, json: { id: 1 } });
  });
});
