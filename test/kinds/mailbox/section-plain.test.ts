/**
 * The diff under a domain knows a mailbox the manifest names only (its fields the shared
 * NO_WANTS, as the one-step read gives them) without asking the rule: it must decide as the rule
 * decides for the same item with fields of its own that are as empty, whatever the panel holds
 * (the mailbox or not, under the domain's client, another or none said), and beside items that
 * give fields or are absent.
 */
import { describe, expect, it } from 'vitest';
import { liveMailbox } from './live.js';
import { NO_WANTS, type LiveMailbox } from '../../../src/kinds/mailbox/index.js';
import { indexMailboxes } from '../../../src/kinds/mailbox/read.js';
import { MAILBOX_SECTION, type MailboxItem } from '../../../src/kinds/mailbox/section.js';
import type { SectionParentView } from '../../../src/kinds/section.js';

const DOMAIN = 'alice.example';

function live(id: number, local: string, idUser: number | undefined): LiveMailbox {
  return liveMailbox(id, `${local}@${DOMAIN}`, { idUser });
}

function item(local: string, wants: MailboxItem['wants'], state: 'present' | 'absent' = 'present'): MailboxItem {
  return {
    address: `${local}@${DOMAIN}`,
    local,
    domain: DOMAIN,
    input: local,
    state,
    wants,
    loc: { file: 'm.yaml', line: 3, column: 9 },
  };
}

const VIEW: SectionParentView = {
  client: 'alice',
  clientId: 3,
  domain: DOMAIN,
  otherOwner: undefined,
  domainCreated: () => false,
  ownerName: (id) => `#${id}`,
};

describe('a mailbox named only, diffed without the rule', () => {
  it('decides as the rule: matched, created, a conflict, beside other items', () => {
    const records = [live(1, 'same', 3), live(2, 'unsaid', undefined), live(3, 'other', 9), live(4, 'quota', 3)];
    const index = indexMailboxes({ read: true, records });
    for (const clientId of [3, null]) {
      const view = { ...VIEW, clientId };
      const items = (wants: () => MailboxItem['wants']): MailboxItem[] => [
        item('same', wants()),
        item('unsaid', wants()),
        item('other', wants()),
        item('new', wants()),
        item('quota', { quota: 1024 }),
        item('same', wants(), 'absent'),
      ];
      const fast = MAILBOX_SECTION.diff(
        items(() => NO_WANTS),
        index,
        view,
      );
      const general = MAILBOX_SECTION.diff(
        items(() => ({})),
        index,
        view,
      );
      expect(fast).toEqual(general);
      if (clientId === 3)
        expect(fast.conflicts).toEqual([{ mailbox: `other@${DOMAIN}`, client: 'alice', owner: '#9' }]);
      expect(fast.changes.length).toBeGreaterThan(0);
    }
  });

  it('allocates nothing for a domain whose mailboxes all match', () => {
    const index = indexMailboxes({ read: true, records: [live(1, 'a', 3), live(2, 'b', undefined)] });
    const diff = MAILBOX_SECTION.diff([item('a', NO_WANTS), item('b', NO_WANTS)], index, VIEW);
    expect(diff).toEqual({ changes: [], conflicts: [], unknowns: [], notes: [] });
  });
});
