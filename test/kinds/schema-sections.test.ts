/**
 * The three section rooms' pending schema fragments composed together with the real skeletons
 * and the table's fragments, as they will be once their kinds are in KINDS: each section's item
 * schema lands under its parent's item (a domain item's `mailboxes`, a client item's `databases`
 * and `ftp_users`), its prune key under `prune`, and a manifest with all three validates.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { composeSchemas, type Fragment, readFragments } from '../../scripts/compose-schemas.js';

function pending(room: string): Fragment {
  const file = fileURLToPath(new URL(`../../src/kinds/${room}/schema.pending.json`, import.meta.url));
  const { kind, ...pieces } = JSON.parse(readFileSync(file, 'utf8')) as { kind: string } & Record<string, never>;
  return { kind, file, pieces: new Map(Object.entries(pieces)) };
}

describe('the sections composed into the manifest schema', () => {
  const texts = composeSchemas(undefined, [
    ...readFragments(),
    pending('mailbox'),
    pending('database'),
    pending('ftp-user'),
  ]);
  const manifest = JSON.parse(texts.get('manifest') ?? '{}') as Record<string, unknown>;
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
