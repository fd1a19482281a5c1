import { describe, expect, it } from 'vitest';
import type { InterceptResult } from '../../src/simulator/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains: [alice.example]
`;

/** A list the engine cannot read completely must stop apply before its first POST. */
describe('apply stops before any POST when a list cannot be read completely', () => {
  it.each<[string, string, InterceptResult, RegExp]>([
    [
      'a paged wrapper',
      '/clients',
      { status: 200, json: { data: [], next: '/clients?page=2' } },
      /GET \/api\/v2\/clients: the list looks paged \(it has "next"\)/,
    ],
    [
      'an object with two arrays',
      '/domains',
      { status: 200, json: { data: [], more: [] } },
      /GET \/api\/v2\/domains: expected a JSON array or an object wrapping exactly one array/,
    ],
    [
      'an object with no array',
      '/hosting-plans',
      { status: 200, json: { plans: 'all' } },
      /GET \/api\/v2\/hosting-plans: expected a JSON array or an object wrapping exactly one array, got an object with 0 arrays/,
    ],
    [
      'HTML instead of JSON',
      '/domains',
      {
        status: 200,
        text: '<html><body>login</body></html>',
        headers: { 'content-type': 'text/html' },
      },
      /GET \/api\/v2\/domains: 200 answered HTML, not JSON/,
    ],
    [
      'a record without id',
      '/clients',
      { status: 200, json: [{ username: 'zed' }] },
      /GET \/api\/v2\/clients\[0\]: "id" must be a positive integer, got nothing/,
    ],
    [
      'an id as a string',
      '/domains',
      { status: 200, json: [{ id: '4', id_user: 2, domain: 'x.example' }] },
      /GET \/api\/v2\/domains\[0\]: "id" must be a positive integer, got a string/,
    ],
  ])('%s in %s', async (_label, path, answer, message) => {
    const p = await workspace(MANIFEST, {
      intercept: (req) => (req.method === 'GET' && req.path === path ? answer : undefined),
    });
    const result = await run(['apply', p.file, '--auto-approve'], p.envWithSecrets);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(p.posts()).toEqual([]);
    expect(p.sim.state.clients.size).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toContain(API_KEY);
  });

  it('the same manifest applies when the lists are whole (bare or wrapped)', async () => {
    const p = await workspace(MANIFEST, {
      intercept: (req) =>
        req.method === 'GET' && req.path === '/hosting-plans'
          ? { status: 200, json: { data: [{ id: 1, name: 'Basic' }] } }
          : undefined,
    });
    const result = await run(['apply', p.file, '--auto-approve'], p.envWithSecrets);
    expect(result.code).toBe(0);
    expect(p.posts()).toEqual(['/clients 201', '/domains 201']);
  });
});
