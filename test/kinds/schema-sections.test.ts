/**
 * The three section rooms' schema fragments as composed into the published manifest schema: each
 * section's item schema lands under its parent's item (a domain item's `mailboxes`, a client
 * item's `databases` and `ftp_users`), its prune key under `prune`, and a manifest with all three
 * validates.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

describe('the sections composed into the manifest schema', () => {
  const manifest = JSON.parse(
    readFileSync(new URL('../../schemas/manifest.schema.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const valid = new Ajv2020({ strict: false, allErrors: true }).compile(manifest);

  it('takes each list under its parent item and each prune key under prune', () => {
    const document = {
      version: 1,
      prune: { mailboxes: true, ftp_users: false, keep: ['info@*'] },
      clients: [
        {
          username: 'alice',
          databases: [{ name: 'alice_wp' }],
          ftp_users: [{ name: 'alice_deploy', home: '/www' }],
          domains: [{ name: 'alice.example', mailboxes: [{ name: 'info', quota: '2 GiB' }] }],
        },
      ],
    };
    expect(valid(document), JSON.stringify(valid.errors)).toBe(true);
  });

  it('refuses a list under the wrong parent', () => {
    expect(valid({ version: 1, clients: [{ username: 'alice', mailboxes: [{ name: 'info' }] }] })).toBe(false);
    expect(
      valid({ version: 1, clients: [{ username: 'alice', domains: [{ name: 'a.example', databases: [] }] }] }),
    ).toBe(false);
  });
});
