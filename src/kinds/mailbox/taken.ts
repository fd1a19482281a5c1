/**
 * The mailboxes a client's or a domain's delete takes with it (Kind.takenWith, ../takes.ts): each
 * holds mail, so such a delete destroys data. Counted from GET /emails read whole: a client's
 * are those whose record names it as owner or that stand on one of its domains; a domain's,
 * those on it. Pure.
 */
import type { KindTakenWith } from '../takes.js';
import { domainOf } from './address.js';
import type { MailboxesPart } from './read.js';

export const MAILBOX_TAKEN_WITH: KindTakenWith<MailboxesPart> = {
  parents: ['client', 'domain'],
  destroysData: true,
  asks: { mailboxes: true },
  read: (part) => part.read,
  count(part, scope) {
    if (scope.parent === 'domain') return part.records.filter((m) => domainOf(m.address) === scope.domain).length;
    const domains = new Set(scope.domains ?? []);
    return part.records.filter((m) => m.idUser === scope.clientId || domains.has(domainOf(m.address))).length;
  },
};
