/**
 * The mailbox's manifest section (Kind.section, ../section.ts): `mailboxes` under a domain item,
 * read and checked by manifest.ts (`mailboxItems`, the addresses remembered across the manifest
 * and its parts), `prune.mailboxes`, `prune.keep` patterns that are addresses (`info@*`), and the
 * diff under each domain the planner walks (diff-rule.ts): a mailbox whose domain the panel has
 * under another client is a conflict naming that client, with nothing sent; prune takes a listed
 * client's mailboxes the manifest does not list, on its domains that stay. Not in the table of
 * kinds yet: the mailbox's descriptor takes it as its `section`. Pure.
 */
import { quote } from '../../escape.js';
import { plural } from '../../util.js';
import {
  type KindSection,
  NO_SECTION_DIFF,
  type SectionDiff,
  type SectionParentView,
  type SectionPlace,
} from '../section.js';
import { addressKeepMatcher } from './address.js';
import type { MailboxChange } from './changes.js';
import { diffMailbox, type MailboxDiffView, pruneMailboxes } from './diff-rule.js';
import type { MailboxField } from './fields.js';
import {
  type ListedMailbox,
  MAILBOXES_KEY,
  mailboxItems,
  type MailboxSeen,
  mailboxSeen,
  NO_WANTS,
} from './manifest.js';
import { freeBeforeTake, heldElsewhere } from './order.js';
import { indexMailboxes, type MailboxesPart, type MailboxIndex } from './read.js';

/**
 * A mailbox listed under a domain the panel has under another client: nothing is planned of it.
 * In the plan's `conflicts` as it is (snake_case keys, like every kind's conflict).
 */
export interface MailboxConflict {
  readonly mailbox: string;
  /** The manifest's client for it. */
  readonly client: string;
  /** The client the panel has its domain under (a username, or `#<id>`). */
  readonly owner: string;
}

/** Whether a plan's conflict is a mailbox's. */
export function isMailboxConflict(c: object): c is MailboxConflict {
  return typeof (c as { mailbox?: unknown }).mailbox === 'string';
}

/** A conflict for people, with what to do; `nameOwner: false` (a pull-request comment) says "another client". */
export function mailboxConflictText(c: MailboxConflict, nameOwner = true): string {
  const owner = nameOwner ? `client ${quote(c.owner)}` : 'another client';
  return (
    `mailbox ${quote(c.mailbox)} is listed under client ${quote(c.client)}, but its domain belongs to ${owner} ` +
    'on the panel: nothing is planned of it; move the domain, or the entry'
  );
}

/** A managed field the panel's record of a mailbox does not carry. */
export interface MailboxUnknown {
  readonly client: string;
  readonly mailbox: string;
  readonly field: MailboxField;
}

/** Whether a plan's unknown is a mailbox's. */
export function isMailboxUnknown(u: object): u is MailboxUnknown {
  return typeof (u as { mailbox?: unknown }).mailbox === 'string';
}

/** An unknown for people: the field is never compared nor changed. */
export function mailboxUnknownLine(u: MailboxUnknown): string {
  return `mailbox ${quote(u.mailbox)}: the panel's record shows no ${u.field}: not compared, not changed`;
}

/** The mailboxes of a domain item as the manifest stage holds them. */
export type MailboxItem = ListedMailbox<SectionPlace>;

type Diff = SectionDiff<MailboxChange, MailboxConflict, MailboxUnknown>;

/** What a keep pattern that is an address may hold: a local part's characters and a name's, and the wildcards. */
const LOCAL_OR_GLOB = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const NAME_OR_GLOB = /^[A-Za-z0-9._*?-]+$/;

/** A URL's scheme at the start of a pattern (`http://`): a web address, not a mail address. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * The check of a `prune.keep` pattern with an `@` (an address); undefined for any other pattern,
 * and for a URL (`http://bob:pw@important.example/`), whose `@` is no address's: the names'
 * check refuses it, naming the scheme and the domain or username to write.
 */
export function addressKeepPattern(pattern: string): { problem: string } | { keep: string } | undefined {
  const at = pattern.lastIndexOf('@');
  if (at < 0 || SCHEME.test(pattern)) return undefined;
  const local = pattern.slice(0, at);
  const domain = pattern.slice(at + 1);
  if (local === '' || domain === '' || !LOCAL_OR_GLOB.test(local) || !NAME_OR_GLOB.test(domain))
    return {
      problem:
        'is not an address pattern: write a whole address in ASCII (its domain in punycode), ' +
        'with * or ? as wildcards (like "info@*" or "*@alice.example")',
    };
  if (domain.endsWith('.') || domain.startsWith('.') || domain.includes('..'))
    return {
      problem: `has an empty label in its domain, which no address has: write ${quote(domain.replace(/^\.+|\.+$/g, '').replace(/\.{2,}/g, '.'))} after the "@"`,
    };
  return { keep: pattern };
}

function diffMailboxes(wanted: readonly MailboxItem[], index: MailboxIndex, view: SectionParentView): Diff {
  const { otherOwner } = view;
  if (otherOwner !== undefined)
    return {
      ...NO_SECTION_DIFF,
      conflicts: wanted.map((m) => ({ mailbox: m.address, client: view.client, owner: otherOwner })),
    };
  // Made on the first thing found: a domain whose mailboxes all match (most, in a converged plan) allocates nothing.
  let found: { changes: MailboxChange[]; conflicts: MailboxConflict[]; unknowns: MailboxUnknown[] } | undefined;
  let ruleView: MailboxDiffView | undefined;
  const { clientId } = view;
  // Indexed: read for every mailbox of the manifest.
  for (let i = 0; i < wanted.length; i++) {
    const want = wanted[i] as MailboxItem;
    const live = index.byAddress.get(want.address);
    const idUser = live?.idUser;
    // A mailbox the manifest names only, which the panel has under its client: what diffMailbox
    // decides of it is nothing (no field to compare), known without asking.
    if (
      live !== undefined &&
      want.wants === NO_WANTS &&
      want.state === 'present' &&
      (idUser === undefined || idUser === clientId)
    )
      continue;
    // A record that names another owner than the domain's is that owner's: nothing is sent for it.
    if (live !== undefined && idUser !== undefined && idUser !== clientId) {
      found ??= { changes: [], conflicts: [], unknowns: [] };
      found.conflicts.push({ mailbox: want.address, client: view.client, owner: view.ownerName(idUser) });
      continue;
    }
    ruleView ??= { client: view.client, clientId, domainCreated: view.domainCreated };
    const decided = diffMailbox(want, live, ruleView);
    if (decided.change === undefined && decided.unknowns.length === 0) continue;
    found ??= { changes: [], conflicts: [], unknowns: [] };
    if (decided.change !== undefined) found.changes.push(decided.change);
    for (const field of decided.unknowns) found.unknowns.push({ client: view.client, mailbox: want.address, field });
  }
  return found === undefined ? NO_SECTION_DIFF : { ...found, notes: [] };
}

/**
 * The mailbox's section: `mailboxes` under a domain item, `prune.mailboxes`, keep patterns with
 * an `@`, and `{ mailboxes: true }` in the run's ask (the mailbox's list read: GET /emails once).
 */
export const MAILBOX_SECTION: KindSection<
  'domain',
  MailboxItem,
  MailboxSeen<SectionPlace>,
  MailboxesPart,
  MailboxIndex,
  MailboxChange,
  MailboxConflict,
  MailboxUnknown
> = {
  parent: 'domain',
  key: MAILBOXES_KEY,
  seen: (from) => (from === undefined ? mailboxSeen() : { names: new Map(from.names), aliases: new Map(from.aliases) }),
  items(list, ctx, seen) {
    const read = mailboxItems(list, {
      domain: ctx.parent,
      client: ctx.client,
      clientDomains: ctx.clientDomains,
      ownerOf: ctx.ownerOf,
      locate: ctx.locate,
      itemAt: ctx.itemAt,
      seen,
      domainAbsent: ctx.parentAbsent,
    });
    return { items: read.mailboxes, problems: read.problems };
  },
  prune: { key: MAILBOXES_KEY },
  keepPattern: addressKeepPattern,
  index: indexMailboxes,
  diff: diffMailboxes,
  unlisted(wanted, index, view) {
    if (!view.prune || view.clientId === null) return NO_SECTION_DIFF;
    const live = view.liveDomains
      .filter((domain) => !view.domainDeleted(domain))
      .flatMap((domain) => index.onDomain(domain))
      // A record that names another client as its owner is never that client's to prune.
      .filter((m) => m.idUser === undefined || m.idUser === view.clientId);
    const listed = new Set((wanted ?? []).map((m) => m.address));
    return { ...NO_SECTION_DIFF, changes: pruneMailboxes(live, listed, addressKeepMatcher(view.keep), view.client) };
  },
  arrange(changes, index) {
    const ordered = freeBeforeTake(changes, (id) => index.byId.get(id));
    return {
      changes: ordered.changes,
      problems: [
        ...(ordered.circular.length === 0
          ? []
          : [
              `${plural(ordered.circular.length, 'mailbox change')} each wait for another to free an address ` +
                `(${ordered.circular.join(', ')}): apply them in two runs, one that frees the addresses first`,
            ]),
        // What the panel would refuse at apply: better said before anything is sent.
        ...heldElsewhere(changes, index.byId.values()),
      ],
    };
  },
  conflicts: {
    is: isMailboxConflict,
    at: (c) => ({ client: c.client, name: c.mailbox }),
    nameOf: (item) => (item as MailboxItem).address,
    summary: (n) => `${plural(n, 'mailbox')} of the manifest stand${n === 1 ? 's' : ''} on a domain of another client`,
    hint: "move the domain under its owner in the manifest, or the mailbox under the domain's owner",
  },
  asks: { mailboxes: true },
};
