/**
 * A domain record that does not say whether it is a system domain (no `is_system_domain`, or
 * null: issue 20 item 15b) may be the panel's own: prune never deletes it. It is counted like
 * any other domain (unmanaged, going with its client's delete), and `state: absent`, which
 * names it, still deletes it. Through the CLI too: the note says so, and nothing is deleted.
 */
import { describe, expect, it } from 'vitest';
import { parseDomainRecord } from '../../src/kinds/domain/read.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';
import { desired, live } from '../helpers/builders.js';

/** alice (7) with alice.example (system: no), unsaid.alice.example (the record does not say), sys.alice.example (system). */
function panel(): Live {
  const base = live(
    [[7, 'alice']],
    [
      [1, 'alice.example', 7, false],
      [2, 'unsaid.alice.example', 7, false],
      [3, 'sys.alice.example', 7, true],
    ],
  );
  return {
    ...base,
    domain: {
      ...base.domain,
      records: base.domain.records.map((d) => (d.id === 2 ? { ...d, isSystem: undefined } : d)),
    },
  };
}

describe('a domain whose record does not say whether it is a system domain', () => {
  it('is read as undefined from a record without the field, with null or ""; booleans in every spelling are read', () => {
    const read = (value: unknown): boolean | undefined =>
      parseDomainRecord(
        { id: 1, id_user: 2, domain: 'a.example', ...(value === 'absent' ? {} : { is_system_domain: value }) },
        'x',
      ).isSystem;
    expect(['absent', null, '', ' '].map(read)).toEqual([undefined, undefined, undefined, undefined]);
    expect([true, 1, '1', 'true', 'TRUE', ' 1 '].map(read)).toEqual([true, true, true, true, true, true]);
    expect([false, 0, '0', 'false', 'False'].map(read)).toEqual([false, false, false, false, false]);
    for (const bad of ['yes', 2, {}, []])
      expect(() => read(bad)).toThrow(/^x: "is_system_domain" must be a boolean \(or 0 or 1\), got /);
  });

  it('is never pruned; it is counted as unmanaged', () => {
    const plan = diff(desired({ alice: { domains: ['alice.example'] } }, { prune: { domains: true } }), panel());
    expect(plan.changes).toEqual([]);
    expect(plan.unmanaged.domains).toEqual(['unsaid.alice.example']);
  });

  it('state: absent still deletes it; a deleted client counts it among the domains that go with it', () => {
    const absent = diff(
      desired({ alice: { domains: ['alice.example', { name: 'unsaid.alice.example', state: 'absent' }] } }),
      panel(),
    );
    expect(absent.changes.map((c) => `${c.action} ${c.id}`)).toEqual(['delete domain:unsaid.alice.example']);
    const gone = diff(desired({ alice: { state: 'absent' } }), panel());
    expect(gone.changes).toMatchObject([
      { action: 'delete', id: 'client:alice', domainNames: ['alice.example', 'unsaid.alice.example'] },
    ]);
  });
});

describe('through the CLI', () => {
  it('a panel whose domain records lack is_system_domain: apply with prune.domains deletes nothing, and a note says why', async () => {
    const seed = { clients: [{ username: 'alice', domains: ['alice.example', 'old.alice.example'] }] };
    const manifest =
      'version: 1\nprune:\n  domains: true\nclients:\n  - username: alice\n    domains: [alice.example]\n';
    let url = '';
    const w = await workspace(manifest, {
      seed,
      intercept: async (req) => {
        if (req.method !== 'GET' || req.path !== '/domains' || req.headers['x-inner'] !== undefined) return undefined;
        const answer = await fetch(`${url}/domains`, { headers: { 'x-api-key': API_KEY, 'x-inner': '1' } });
        const records = (await answer.json()) as Record<string, unknown>[];
        for (const record of records) delete record.is_system_domain;
        return { status: 200, json: records };
      },
    });
    url = w.sim.url;
    const r = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(w.sim.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    expect(w.sim.state.domainNamed('old.alice.example')).toBeDefined();
    expect(r.code).toBe(0);
    expect(r.stderr + r.stdout).toMatch(
      /The records of 3 domains \(GET \/api\/v2\/domains\) do not say whether they are system domains \("is_system_domain"\): prune never deletes them/,
    );
  });
});
