/**
 * The mailbox room's schema: its fragment (schema.json) is composed into the published manifest,
 * plan, apply-result and snapshot schemas.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createMailbox, mailboxRequest, mailboxToJson } from '../../../src/kinds/mailbox/index.js';

const published = (document: string): object =>
  JSON.parse(readFileSync(new URL(`../../../schemas/${document}.schema.json`, import.meta.url), 'utf8')) as object;

describe("the mailbox room's schema fragment, published", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  it('gives the manifest mailboxes under a domain and prune.mailboxes', () => {
    const valid = ajv.compile(published('manifest'));
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
    // Under a client item, it is refused.
    const misplaced = { version: 1, clients: [{ username: 'alice', mailboxes: [{ name: 'info' }] }] };
    expect(valid(misplaced)).toBe(false);
  });

  it("gives the plan a mailbox's changes", () => {
    const plan = published('plan') as { $defs: Record<string, unknown> };
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

  it('gives the snapshot the mailboxes, when read', () => {
    const items = (published('snapshot') as { properties: { mailboxes: { items: object } } }).properties.mailboxes
      .items;
    const item = ajv.compile(items);
    expect(item({ id: 4, id_user: 3, email: 'info@alice.example', max_size: 0, aliases: [] })).toBe(true);
    expect(item({ id: 4 })).toBe(false);
  });
});
