/**
 * Mailboxes in export (Kind.export.list: the `mailboxes` list of a domain item): the domain's
 * mailboxes as export writes them (`export --with mailboxes`: export.ts mailboxEntry, in address
 * order; the quota in its largest whole unit, never a password), and the edits of `export --into`
 * (../list-export.ts): a listed mailbox's keys get the panel's values where they differ (a key the
 * item leaves out stays out: not managed), as export writes them; a value the manifest cannot hold
 * (an alias on a domain its client does not list, a description that is not valid Unicode) stays
 * as written, warned. Pure.
 */
import { quote } from '../../escape.js';
import { LONE_SURROGATE } from '../common.js';
import type { ExportedParent, ListExport, Warn } from '../export.js';
import { type ListRoom, listEditOf } from '../list-export.js';
import { addressKeepMatcher, addressOrder } from './address.js';
import { mailboxEntry } from './export.js';
import { MAILBOX_FIELDS } from './fields.js';
import { MAILBOXES_KEY } from './manifest.js';
import { exportedQuota } from './quota.js';
import type { MailboxIndex } from './read.js';
import type { LiveMailbox } from './record.js';
import type { MailboxItem } from './section.js';

/** The live panel as the mailboxes' export looks it up (export/model.ts LiveModel is one). */
export interface MailboxExportPanel {
  readonly index: { indexOf(kind: 'mailbox'): Pick<MailboxIndex, 'byAddress' | 'onDomain'> };
}

/** The domain's mailboxes on the panel, in address order. */
function domainMailboxes(parent: ExportedParent<unknown>, panel: MailboxExportPanel): LiveMailbox[] {
  const held = panel.index.indexOf('mailbox').onDomain(parent.name);
  return [...held].sort((a, b) => addressOrder(a.address, b.address));
}

/** A mailbox as export writes it, or undefined (warned) when its address cannot be written. */
function written(live: LiveMailbox, parent: ExportedParent<unknown>, warn: Warn): unknown {
  const { entry, left } = mailboxEntry(live, parent.name, parent.clientDomains);
  for (const reason of left) warn(`mailbox ${quote(live.unicode)} of client ${quote(parent.owner)}: ${reason}`);
  return entry;
}

/** The keys of a listed mailbox whose values differ from the panel's (see the module comment). */
function mailboxKeys(live: LiveMailbox, item: MailboxItem, parent: ExportedParent<unknown>, name: string, warn: Warn) {
  const keys: { key: string; value: unknown }[] = [];
  const entry = mailboxEntry(live, parent.name, parent.clientDomains).entry;
  for (const row of MAILBOX_FIELDS) {
    const wanted = item.wants[row.key];
    const seen = row.live(live);
    if (wanted === undefined || seen === undefined || row.same(seen, wanted)) continue;
    const left = (why: string): void => {
      warn(`${name}: the panel's ${row.key} ${why}: "${row.key}" left as written`);
    };
    switch (row.key) {
      case 'quota':
        keys.push({ key: row.key, value: exportedQuota(seen as number) });
        break;
      case 'aliases':
      case 'forwardings': {
        const list = entry?.[row.key] ?? [];
        if (list.length !== (seen as readonly string[]).length)
          left('holds an address the manifest cannot hold here (an alias on a domain its client does not list?)');
        else keys.push({ key: row.key, value: list });
        break;
      }
      case 'description':
        if (LONE_SURROGATE.test(seen as string)) left('is not valid Unicode');
        else keys.push({ key: row.key, value: seen });
        break;
      default:
        keys.push({ key: row.key, value: seen });
    }
  }
  return keys;
}

/** The mailboxes in export: the `mailboxes` list of a domain item. */
export const MAILBOXES_EXPORT: ListExport<MailboxExportPanel, MailboxItem, unknown> = {
  parent: 'domain',
  key: MAILBOXES_KEY,
  entries: (parent, panel, warn) => domainMailboxes(parent, panel).flatMap((live) => written(live, parent, warn) ?? []),
  identity: (item) => item.address,
  edits(listed, parent, panel, ctx, warn) {
    const index = panel.index.indexOf('mailbox');
    const kept = addressKeepMatcher(ctx.keep);
    const describe = (item: MailboxItem): string =>
      `mailbox ${quote(`${item.input}@${parent.text}`)} of client ${quote(parent.owner)}`;
    const room: ListRoom<MailboxItem, LiveMailbox> = {
      find: (item) => index.byAddress.get(item.address),
      present: (item) => item.state === 'present',
      // Its address names its domain: the panel holds it under the domain's client.
      elsewhere: () => undefined,
      keys: (item, live, w) => mailboxKeys(live, item, parent, describe(item), w),
      records: domainMailboxes(parent, panel),
      identity: (live) => live.address,
      kept: (live) => kept(live.address),
      entry: (live, w) => written(live, parent, w),
      describe,
    };
    return listEditOf(listed, room, ctx, warn);
  },
};
