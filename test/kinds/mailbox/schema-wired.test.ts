/**
 * The mailbox room's pending schema fragment composed with the real skeletons and the other
 * kinds' fragments, as it will be once the room is in the table of kinds: every piece finds its
 * slot, and the composed manifest and plan schemas take mailboxes and their changes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { composeSchemas, type Fragment, readFragments } from '../../../scripts/compose-schemas.js';
import { createMailbox, mailboxRequest, mailboxToJson } from '../../../src/kinds/mailbox/index.js';

const FILE = fileURLToPath(new URL('../../../src/kinds/mailbox/schema.pending.json', import.meta.url));

function composed(): Map<string, unknown> {
  const { kind, ...pieces } = JSON.parse(readFileSync(FILE, 'utf8')) as { kind: string } & Record<string, never>;
  const mine: Fragment = { kind, file: FILE, pieces: new Map(Object.entries(pieces)) };
  const texts = composeSchemas(undefined, [...readFragments(), mine]);
  return new Map([...texts].map(([document, text]) => [document, JSON.parse(text) as unknown]));
}

describe("the mailbox room's pending schema fragment, composed", () => {
  const schemas = composed();
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  it('gives the manifest mailboxes under a domain and prune.mailboxes', () => {
    const valid = ajv.compile(schemas.get('manifest') as object);
    const manifest = {
      version: 1,
      clients: [
        {
          username: 'alice',
          domains: [
            {
              name: 'alice.example',
              mailboxes: [
                { name: 'info', quota: '2 GiB', aliases: ['hello'], forwardings: ['owner@example.net'] },
                { name: 'old', state: 'absent' },
              ],
            },
          ],
        },
      ],
      prune: { mailboxes: true },
    };
    expect(valid(manifest), JSON.stringify(valid.errors)).toBe(true);
    const bad = structuredClone(manifest);
    (bad.clients[0]!.domains[0]!.mailboxes[0] as Record<string, unknown>).password = 'secret';
    expect(valid(bad)).toBe(false);
  });

  it("gives the plan a mailbox's changes", () => {
    const plan = schemas.get('plan') as { $defs: Record<string, unknown> };
    const valid = ajv.compile({ $defs: plan.$defs, $ref: '#/$defs/change' });
    const change = createMailbox(
      'info@alice.example',
      'alice.example',
      { quota: 0 },
      { client: 'alice', clientId: 3, dependsOn: [] },
    );
    const item = {
      id: change.id,
      action: change.action,
      type: change.type,
      name: change.name,
      reason: change.reason,
      depends_on: change.dependsOn,
      request: mailboxRequest(change),
      ...mailboxToJson(change),
    };
    expect(valid(item), JSON.stringify(valid.errors)).toBe(true);
    expect(valid({ ...item, type: 'mailboxes' })).toBe(false);
  });
});
