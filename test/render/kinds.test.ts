/**
 * The renderers name no kind: each kind's room words its changes and findings (its `kind.ts`),
 * and the renderers ask a change's kind or loop over the table of kinds. Checked on the source,
 * comments included, the way the architecture test checks the floors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { conflictLine, unknownLine } from '../../src/render/common.js';

const RENDER = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/render');
const files = readdirSync(RENDER)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(RENDER, name), 'utf8') }));

describe('the renderers', () => {
  it('name no kind: neither a kind name in quotes nor one of two words, nor a branch on a change type', () => {
    const found = files.flatMap(({ name, text }) => [
      ...KIND_NAMES.filter((kind) => text.includes(`'${kind}'`)).map((kind) => `${name}: '${kind}'`),
      // A name of two words (`dns_zone`) is a kind's wherever it stands, comments included.
      ...KIND_NAMES.filter((kind) => kind.includes('_') && new RegExp(`\\b${kind}\\b`).test(text)).map(
        (kind) => `${name}: ${kind}`,
      ),
      ...(/switch \(\w+\.type\)|\.type === '/.test(text) ? [`${name}: a branch on a change's type`] : []),
    ]);
    expect(found).toEqual([]);
  });

  it('stay under 400 lines each, split by job', () => {
    expect(files.filter(({ text }) => text.split('\n').length > 400).map(({ name }) => name)).toEqual([]);
  });
});

describe("a plan's findings", () => {
  it('are each claimed by exactly one kind, which words them', () => {
    const conflicts = [
      { domain: 'a.example', client: 'alice', owner: 'bob' },
      { domain: 'a.example', client: 'alice', owner: 'alice', dns: 'subdomain' },
      {
        domain: 'a.example',
        client: 'alice',
        owner: 'alice',
        dns: 'records',
        rule: 'cname_beside',
        record: { host: 'www', type: 'CNAME', value: 'a.example.', index: 0 },
        other: { host: 'www', type: 'A', value: '192.0.2.1' },
      },
      { hosting_plan: 'Basic', clients: ['alice'] },
      { mailbox: 'info@a.example', client: 'alice', owner: 'bob' },
      { database: 'alice_wp', client: 'alice', reason: 'owner', owner: 'bob' },
      { ftp_user: 'alice_deploy', client: 'alice', owner: 'bob' },
    ] as const;
    for (const c of conflicts) {
      const claims = KIND_NAMES.filter((kind) => KINDS[kind].conflictLine?.(c, true) !== undefined);
      expect(claims).toHaveLength(1);
    }
    expect(conflicts.map((c) => conflictLine(c as never))).toEqual([
      'domain "a.example" is listed under client "alice" but belongs to client "bob" on the panel',
      expect.stringContaining('domain "a.example" of client "alice" manages "dns", but it is a subdomain'),
      expect.stringContaining('"dns" record #1 (CNAME www a.example.) of domain "a.example" of client "alice"'),
      'hosting plan "Basic" is to be deleted, but "alice" is on it: move them to another plan first',
      expect.stringContaining('mailbox "info@a.example" is listed under client "alice"'),
      expect.stringContaining('database "alice_wp" of client "alice" belongs to client "bob"'),
      expect.stringContaining('alice_deploy'),
    ]);
    const unknowns = [
      { client: 'alice', field: 'email' },
      { client: 'alice', domain: 'a.example', field: 'php_version' },
      // A section kind's unknown names its thing beside the client: never taken for the client's.
      { client: 'alice', mailbox: 'info@a.example', field: 'quota' },
      { client: 'alice', database: 'alice_wp', field: 'remote_hosts' },
      { client: 'alice', ftp_user: 'alice_deploy', field: 'home' },
    ] as const;
    for (const u of unknowns)
      expect(KIND_NAMES.filter((kind) => KINDS[kind].unknownLine?.(u) !== undefined)).toHaveLength(1);
    expect(unknowns.map((u) => unknownLine(u as never))).toEqual([
      expect.stringContaining('client "alice": the panel shows its email nowhere'),
      expect.stringContaining('domain "a.example" of client "alice": the panel\'s record'),
      'mailbox "info@a.example": the panel\'s record shows no quota: not compared, not changed',
      'database "alice_wp": the panel\'s record shows no remote_hosts: not compared, not changed',
      'FTP user "alice_deploy": the panel\'s record shows no home: not compared, not changed',
    ]);
  });
});
