/** The mailbox's doctor check (Kind.doctor; docs/doctor.md, "list shapes"): its list, read whole as plan reads it. */
import type { KindDoctor } from '../doctor.js';
import { MAILBOX_NOUN } from './phrases.js';
import { MAILBOXES_PATH, parseMailboxRecord } from './record.js';

/**
 * GET /emails read whole, each record by the parser plan uses; a panel that answers 404 or 405
 * has no such list: the line still holds, and says what that costs. No line of its own.
 */
export const MAILBOX_DOCTOR: KindDoctor = {
  list: {
    path: MAILBOXES_PATH,
    noun: MAILBOX_NOUN,
    parse: parseMailboxRecord,
    provesKey: false,
    mayLack: { statuses: [404, 405], costs: "a manifest's mailboxes cannot be used on this panel" },
  },
};
