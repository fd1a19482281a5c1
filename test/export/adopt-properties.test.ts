/**
 * Properties of export --into over random manifests (written in random styles: block or flow
 * entries and lists, any quoting, comments) and random panels, pure: the result validates,
 * plans to no update for the clients it lists, lists every domain of theirs that the panel has,
 * adds nobody unclaimed, and a second run changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adopt } from '../../src/export/adopt.js';
import { LiveModel } from '../../src/export/model.js';
import { rewrite } from '../../src/export/rewrite.js';
import { validateManifest } from '../../src/manifest/load.js';
import { globMatcher } from '../../src/names.js';
import { diff } from '../../src/plan/diff.js';
import { live } from '../helpers/builders.js';

const username = fc.constantFrom('alice', 'bob', 'carol', 'dave', 'legacy-1', 'team-x');
const domainName = fc
  .tuple(
    fc.constantFrom('', 'www.', 'shop.'),
    fc.constantFrom('one', 'two', 'three', 'bücher'),
    fc.constantFrom('.example', '.test'),
  )
  .map(([sub, name, tld]) => `${sub}${name}${tld}`);
const quoting = fc.constantFrom(
  (s: string) => s,
  (s: string) => `'${s}'`,
  (s: string) => JSON.stringify(s),
);

interface Entry {
  username: string;
  absent: boolean;
  plan: string | undefined;
  email: string | undefined;
  suspended: boolean | undefined;
  domains: { name: string; absent: boolean }[];
  flow: boolean;
  flowDomains: boolean;
  comment: boolean;
}

const entry = fc.record({
  username,
  absent: fc.boolean().map((b) => b && Math.random() < 0.3),
  plan: fc.constantFrom(undefined, 'Basic', 'Standard', 'Premium Plus'),
  email: fc.constantFrom(undefined, 'a@x.example', 'b@x.example'),
  suspended: fc.constantFrom(undefined, true, false),
  domains: fc.uniqueArray(fc.record({ name: domainName, absent: fc.boolean() }), {
    selector: (d) => d.name,
    maxLength: 4,
  }),
  flow: fc.boolean(),
  flowDomains: fc.boolean(),
  comment: fc.boolean(),
});

/** A manifest's text in the entries' styles, each domain listed once. */
function manifest(entries: Entry[], q: (s: string) => string, prune: string, indent: number): string {
  const seen = new Set<string>();
  const pad = ' '.repeat(indent);
  const lines = ['# generated', 'version: 1', ...(prune === '' ? [] : [prune]), 'clients:'];
  if (entries.length === 0) return `${lines.join('\n')} []\n`;
  for (const e of entries) {
    const domains = e.domains
      .filter((d) => !seen.has(d.name) && seen.add(d.name))
      .map((d) => (d.absent ? `{name: ${q(d.name)}, state: absent}` : q(d.name)));
    const fields: [string, string][] = e.absent
      ? [['state', 'absent']]
      : [
          ...(e.plan === undefined ? [] : [['plan', q(e.plan)] as [string, string]]),
          ...(e.email === undefined ? [] : [['email', q(e.email)] as [string, string]]),
          ...(e.suspended === undefined ? [] : [['suspended', String(e.suspended)] as [string, string]]),
        ];
    const withDomains = !e.absent && domains.length > 0;
    if (e.flow) {
      const parts = [
        `username: ${q(e.username)}`,
        ...fields.map(([k, v]) => `${k}: ${v}`),
        ...(withDomains ? [`domains: [${domains.join(', ')}]`] : []),
      ];
      lines.push(`${pad}- {${parts.join(', ')}}${e.comment ? '   # flow entry' : ''}`);
      continue;
    }
    lines.push(`${pad}- username: ${q(e.username)}${e.comment ? '  # a client' : ''}`);
    for (const [k, v] of fields) lines.push(`${pad}  ${k}: ${v}`);
    if (!withDomains) continue;
    if (e.flowDomains) lines.push(`${pad}  domains: [${domains.join(', ')}]`);
    else lines.push(`${pad}  domains:`, ...domains.map((d) => `${pad}    - ${d}`));
    if (e.comment) lines.push('', `${pad}  # after the domains`);
  }
  return `${lines.join('\n')}\n`;
}

const panel = fc
  .tuple(
    fc.uniqueArray(
      fc.tuple(
        username,
        fc.constantFrom(undefined, null, 1, 2, 3),
        fc.constantFrom(undefined, null, 'a@x.example', 'c@x.example'),
        fc.constantFrom(undefined, true, false),
      ),
      {
        selector: ([u]) => u,
        maxLength: 5,
      },
    ),
    fc.uniqueArray(
      fc.tuple(
        domainName.map((d) => new URL(`http://${d}`).hostname),
        fc.nat(6),
        fc.boolean(),
      ),
      { selector: ([d]) => d, maxLength: 10 },
    ),
  )
  .map(([clients, domains]) =>
    live(
      clients.map(([u, plan, mail, susp], i) => [
        i + 1,
        u,
        plan,
        {
          ...(mail === undefined ? {} : { email: mail }),
          ...(susp === undefined ? {} : { suspended: susp }),
        },
      ]),
      domains.map(([d, owner, system], i) => [100 + i, d, owner, system]),
    ),
  );

describe('export --into properties', () => {
  it('validates, plans to no update for listed clients, lists their domains, claims only what it may, and is idempotent', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e.username, maxLength: 5 }),
        quoting,
        fc.constantFrom(
          '',
          'prune: {clients: true}',
          'prune:\n  clients: true\n  keep: [legacy-*, shop.*]',
          'prune: {domains: true}',
        ),
        fc.constantFrom(0, 2, 4),
        panel,
        fc.boolean(),
        fc.constantFrom(undefined, 'team-*'),
        (entries, q, prune, indent, l, dropMissing, pattern) => {
          const text = manifest(entries, q, prune, indent);
          const before = validateManifest(text, 'm.yaml').desired;
          expect(before, text).toBeDefined();
          if (before === undefined) return;
          const options = {
            dropMissing,
            ...(pattern === undefined ? {} : { claim: globMatcher([pattern]) }),
          };
          const { edits } = adopt(before, new LiveModel(l), options);
          const out = rewrite(text, edits, 'm.yaml');
          const after = validateManifest(out, 'm.yaml').desired;
          expect(after, `${text}\n---\n${out}`).toBeDefined();
          if (after === undefined) return;
          expect(diff(after, l).changes.filter((c) => c.action === 'update')).toEqual([]);

          const keep = globMatcher(after.prune.keep);
          const listed = new Set(after.clients.map((c) => c.username));
          const domains = new Set(after.clients.flatMap((c) => c.domains.map((d) => d.name)));
          for (const client of after.clients) {
            const liveClient = l.client.find((c) => c.username === client.username);
            if (client.state === 'absent') continue;
            if (dropMissing) expect(liveClient, client.username).toBeDefined();
            if (liveClient === undefined) continue;
            for (const d of l.domain.records)
              if (d.idUser === liveClient.id && !d.isSystem && !keep(d.name))
                expect(domains.has(d.name), d.name).toBe(true);
          }
          for (const c of l.client) {
            const claimed =
              (before.prune.clients || (pattern !== undefined && globMatcher([pattern])(c.username))) &&
              !keep(c.username);
            if (!before.clients.some((b) => b.username === c.username))
              expect(listed.has(c.username), c.username).toBe(claimed);
          }
          // A second run finds nothing to change.
          expect(adopt(after, new LiveModel(l), options).edits).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });
});
