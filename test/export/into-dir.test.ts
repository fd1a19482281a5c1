/**
 * export --into over a manifest directory without a panel (api/export.ts adoptInto, export/parts.ts):
 * each edit lands in the part that holds its entry, at that entry (not at the entry of the same
 * index in another part); new entries go to the part named, which gets `clients:` (or
 * `hosting_plans:`) when it has none, in a block, flow or unterminated mapping; the parts
 * rewritten validate together and plan to no update.
 */
import { describe, expect, it } from 'vitest';
import { adoptInto, type IntoManifest } from '../../src/api/export.js';
import { parseManifestParts } from '../../src/manifest/parts.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { live } from '../helpers/builders.js';

/** The parts (name -> text) of the directory `d`, rewritten to describe `panel`. */
function intoDir(
  parts: Record<string, string>,
  panel: Live,
  options: { claim?: string[]; dropMissing?: boolean; newEntries?: number; plans?: boolean } = {},
): Record<string, string> {
  const manifest: IntoManifest = {
    name: 'd',
    directory: true,
    parts: Object.entries(parts).map(([name, text]) => ({ file: `d/${name}`, text })),
  };
  const encoder = new TextEncoder();
  const load = (texts: readonly string[]) =>
    parseManifestParts(
      manifest.parts.map((p, i) => ({ file: p.file, bytes: encoder.encode(texts[i]) })),
      'd',
    );
  const desired = load(manifest.parts.map((p) => p.text)).desired;
  if (desired === undefined) throw new Error('test manifest invalid');
  const { rewritten } = adoptInto(desired, manifest, panel, {
    claim: (u) => options.claim?.includes(u) ?? false,
    dropMissing: options.dropMissing ?? false,
    ...(options.newEntries === undefined ? {} : { newEntries: options.newEntries }),
    ...(options.plans === true ? { with: new Set(['hosting-plans'] as const) } : {}),
  });
  const after = load(rewritten).desired;
  expect(after).toBeDefined();
  if (after !== undefined) expect(diff(after, panel).changes.filter((c) => c.action === 'update')).toEqual([]);
  return Object.fromEntries(Object.keys(parts).map((name, i) => [name, rewritten[i] ?? '']));
}

const A =
  'version: 1\nclients:\n  - username: alice\n    email: a@example.com\n  - username: amy\n    email: amy@example.com\n';
const B =
  'version: 1\nclients:\n  - username: bob\n    email: b@example.com\n  - username: ben\n    email: ben@example.com\n';

describe('export --into over a directory', () => {
  it('edits the second client of the second part there, not the second client of the first part', () => {
    const panel = live([
      [1, 'alice', null, { email: 'a@example.com' }],
      [2, 'amy', null, { email: 'amy@example.com' }],
      [3, 'bob', null, { email: 'b@example.com' }],
      [4, 'ben', null, { email: 'ben@new.example' }],
    ]);
    const out = intoDir({ 'a.yaml': A, 'b.yaml': B }, panel);
    expect(out['a.yaml']).toBe(A);
    expect(out['b.yaml']).toBe(B.replace('ben@example.com', 'ben@new.example'));
  });

  it('drops a client the panel lacks from its own part (--drop-missing), and adds a domain under the client of the third part', () => {
    const panel = live(
      [
        [1, 'alice', null, { email: 'a@example.com' }],
        [3, 'bob', null, { email: 'b@example.com' }],
        [4, 'ben', null, { email: 'ben@example.com' }],
        [5, 'cora', null, {}],
      ],
      [[50, 'cora.example', 5]],
    );
    const C = 'version: 1\nclients: [{username: cora, domains: []}]\n';
    const out = intoDir({ 'a.yaml': A, 'b.yaml': B, 'c.yaml': C }, panel, { dropMissing: true });
    expect(out['a.yaml']).toBe('version: 1\nclients:\n  - username: alice\n    email: a@example.com\n');
    expect(out['b.yaml']).toBe(B);
    expect(out['c.yaml']).toBe('version: 1\nclients: [{username: cora, domains: [cora.example]}]\n');
  });

  it.each([
    ['a block mapping', 'version: 1\n# new ones here\n', 'version: 1\n# new ones here\nclients:\n  - username: zoe\n'],
    ['one without a final newline', 'version: 1', 'version: 1\nclients:\n  - username: zoe\n'],
    ['a flow mapping', '{version: 1}\n', '{version: 1, clients: [{username: zoe}]}\n'],
    ['one ended by ...', 'version: 1\n# end\n...\n', 'version: 1\n# end\nclients:\n  - username: zoe\n...\n'],
  ])('a new-entries part without clients (%s) gets the key', (_name, part, expected) => {
    const panel = live([
      [1, 'alice', null, { email: 'a@example.com' }],
      [2, 'amy', null, { email: 'amy@example.com' }],
      [9, 'zoe', null, {}],
    ]);
    const out = intoDir({ 'a.yaml': A, 'n.yaml': part }, panel, { claim: ['zoe'], newEntries: 1 });
    expect(out).toEqual({ 'a.yaml': A, 'n.yaml': expected });
  });

  it('new hosting plans go to the new-entries part; a listed plan is edited in its own part', () => {
    const plans = [
      { id: 1, name: 'Basic', objects: { resources: { disk_space: 2 } } },
      { id: 2, name: 'Extra', objects: { resources: { domains: 3 } } },
      { id: 3, name: 'Gold', objects: { resources: { domains: 9 } } },
    ];
    const panel = live([[9, 'zoe', null, {}]], [], { plans });
    const P = 'version: 1\nhosting_plans:\n  - name: Extra\n    resources: {domains: 1}\n';
    const Q = 'version: 1\nhosting_plans:\n  - name: Basic\n    resources: {disk_space: 1}\n';
    const R = 'version: 1\nclients:\n  - username: zoe\n';
    const out = intoDir({ 'p.yaml': P, 'q.yaml': Q, 'r.yaml': R }, panel, { plans: true, newEntries: 2 });
    expect(out['p.yaml']).toBe(P.replace('domains: 1', 'domains: 3'));
    expect(out['q.yaml']).toBe(Q.replace('disk_space: 1', 'disk_space: 2'));
    expect(out['r.yaml']).toBe(
      'version: 1\nhosting_plans:\n  - name: Gold\n    resources:\n      domains: 9\nclients:\n  - username: zoe\n',
    );
  });

  it('a part without edits is left as it is, aliases and all', () => {
    const panel = live([
      [1, 'alice', null, { email: 'a@example.com' }],
      [2, 'amy', null, { email: 'amy@new.example' }],
      [3, 'bob', null, { email: 'b@example.com' }],
    ]);
    const aliased = 'version: 1\nclients:\n  - username: bob\n    email: &e b@example.com\n';
    const out = intoDir({ 'a.yaml': A, 'b.yaml': aliased }, panel);
    expect(out['a.yaml']).toBe(A.replace('amy@example.com', 'amy@new.example'));
    expect(out['b.yaml']).toBe(aliased);
  });
});
