/**
 * The mailboxes' list read (Kind.read): `GET /emails`, only when the run's ask asks for them (a
 * panel read for a manifest without mailboxes sends no request more); ids and addresses unique;
 * indexed by address and by domain; the secrets code's look-ups of a mailbox (by its address, by
 * id); the mailboxes' part of a snapshot. Pure: the panel comes in through PanelListReader (../read.ts).
 */
import { quote } from '../../escape.js';
import type { JsonObject } from '../../util.js';
import { findById, type KindRead, type PanelListReader, unique } from '../read.js';
import { addressOf, domainOf } from './address.js';
import { MAILBOXES_PATH, type LiveMailbox, parseMailboxRecord } from './record.js';

/**
 * The mailboxes as one read of the panel holds them (Live, src/kinds/index.ts): `read` false when
 * the run did not ask for them (no GET /emails: `records` is empty and says nothing of the panel),
 * true when `records` is every mailbox the panel lists.
 */
export interface MailboxesPart {
  readonly read: boolean;
  readonly records: readonly LiveMailbox[];
}

/**
 * What the mailboxes' read takes of the run's ask. One flag, for now: whether the run reads the
 * panel's mailboxes (a manifest with mailboxes, prune naming them, export writing them, a delete
 * that takes them). Kept minimal so that the run's ask per kind, when it comes, renames it.
 */
export interface MailboxesAsk {
  /** true: GET /emails is read. Absent or false: not (the part is `read: false`). */
  readonly mailboxes?: boolean | undefined;
}

/** The mailboxes' index (KindRead.index): by address (comparison form) and id, and each domain's and client's, in the panel's order. */
export interface MailboxIndex {
  readonly read: boolean;
  readonly byAddress: ReadonlyMap<string, LiveMailbox>;
  readonly byId: ReadonlyMap<number, LiveMailbox>;
  /** The mailboxes on a domain (lowercase ASCII); [] for none. */
  onDomain(domain: string): readonly LiveMailbox[];
  /** The mailboxes whose record names client `id` as their owner (`id_user`); [] for none. */
  ofClient(id: number): readonly LiveMailbox[];
}

/** The part of a run that did not read the mailboxes. */
const NOT_READ: MailboxesPart = { read: false, records: [] };

/** The key of the mailboxes in a snapshot's document. */
const SNAPSHOT_KEY = 'mailboxes';

export const MAILBOX_READ: KindRead<MailboxesPart, MailboxesAsk, object, MailboxIndex> = {
  after: [],
  needed: (ask) => ask.mailboxes === true,
  empty: NOT_READ,
  list: async (panel) => ({ read: true, records: await panel.list(MAILBOXES_PATH, parseMailboxRecord) }),
  check: (part, panel) => {
    const where = panel.describe('GET', MAILBOXES_PATH);
    unique(part.records, (m) => m.id, where, 'id');
    // The index's map by address, made here once: fewer entries than records means one address twice.
    const byAddress = addressMap(part.records);
    if (byAddress.size !== part.records.length) unique(part.records, (m) => m.address, where, 'email');
    CHECKED.set(part.records, byAddress);
    return Promise.resolve();
  },
  index: indexMailboxes,
  snapshot: {
    // Written only when read: a snapshot without the key was taken without mailboxes.
    write: (part) => (part.read ? { [SNAPSHOT_KEY]: part.records.map(mailboxRecord) } : {}),
    read: (reading) => {
      if (reading.value(SNAPSHOT_KEY) === undefined) return NOT_READ;
      const records = reading
        .list(SNAPSHOT_KEY)
        .map((r, i) => parseMailboxRecord(r, `${reading.at(SNAPSHOT_KEY)}[${i}]`));
      return { read: true, records };
    },
  },
  lookUps: {
    // A run that did not read them holds none whole: none of their passwords is judged gone.
    inPart: (part) => (part.read ? part.records.map((m) => ({ name: m.address, id: m.id })) : undefined),
    find: findMailbox,
    findById: findMailboxById,
  },
};

/**
 * The index of a part (MailboxIndex). By address at once (every diff asks it); by id, domain and
 * client on first use (a plan without changes, prune or deletes never asks them).
 */
export function indexMailboxes(part: MailboxesPart): MailboxIndex {
  const { records } = part;
  const byAddress = CHECKED.get(records) ?? addressMap(records);
  let byId: Map<number, LiveMailbox> | undefined;
  let byDomain: Map<string, LiveMailbox[]> | undefined;
  let byClient: Map<number, LiveMailbox[]> | undefined;
  return {
    read: part.read,
    byAddress,
    get byId() {
      byId ??= new Map(records.map((m) => [m.id, m]));
      return byId;
    },
    onDomain: (domain) => {
      byDomain ??= grouped(records, (m) => domainOf(m.address));
      return byDomain.get(domain) ?? [];
    },
    ofClient: (id) => {
      byClient ??= grouped(records, (m) => m.idUser);
      return byClient.get(id) ?? [];
    },
  };
}

/**
 * The map by address that the check of a list made (its records all at different addresses),
 * for the index to take rather than make again: records read from the panel are never changed.
 */
const CHECKED = new WeakMap<readonly LiveMailbox[], ReadonlyMap<string, LiveMailbox>>();

/** The records by address (of two at one address, the later). */
function addressMap(records: readonly LiveMailbox[]): Map<string, LiveMailbox> {
  const byAddress = new Map<string, LiveMailbox>();
  for (let i = 0; i < records.length; i++) {
    const m = records[i] as LiveMailbox;
    byAddress.set(m.address, m);
  }
  return byAddress;
}

/** The records under each key, in their order; a record whose key is undefined is left out. */
function grouped<K>(records: readonly LiveMailbox[], key: (m: LiveMailbox) => K | undefined): Map<K, LiveMailbox[]> {
  const map = new Map<K, LiveMailbox[]>();
  for (const m of records) {
    const k = key(m);
    if (k === undefined) continue;
    const list = map.get(k);
    if (list === undefined) map.set(k, [m]);
    else list.push(m);
  }
  return map;
}

/**
 * The mailbox whose address is `address` (any spelling), from GET /emails: the panel has no look-up
 * by address (docs/panel-api.md), so the list is read whole; undefined when it has none.
 */
export async function findMailbox(
  panel: Pick<PanelListReader, 'list'>,
  address: string,
): Promise<LiveMailbox | undefined> {
  const wanted = addressOf(address);
  const records = await panel.list(MAILBOXES_PATH, parseMailboxRecord);
  return records.find((m) => m.address === wanted);
}

/** GET /emails/{id}, parsed; undefined on 404 (deleted meanwhile). A record with another id is a contract error. */
export function findMailboxById(
  panel: Pick<PanelListReader, 'get' | 'describe' | 'statusOf'>,
  id: number,
): Promise<LiveMailbox | undefined> {
  return findById(panel, MAILBOXES_PATH, id, parseMailboxRecord, (m) => `mailbox ${quote(m.address)}`);
}

/** A mailbox in the panel's shape, as a snapshot holds it (the parser reads it back): never a password. */
function mailboxRecord(m: LiveMailbox): JsonObject {
  return {
    id: m.id,
    ...(m.idUser === undefined ? {} : { id_user: m.idUser }),
    email: m.address,
    // Its Unicode form only when it names the same address (the parser checks that they agree).
    ...(m.unicode !== m.address && addressOf(m.unicode) === m.address ? { email_utf8: m.unicode } : {}),
    ...(m.description === undefined ? {} : { description: m.description }),
    ...(m.maxSize === undefined ? {} : { max_size: m.maxSize }),
    ...(m.catchAll === undefined ? {} : { catch_all: m.catchAll }),
    ...(m.storeForwardedEmails === undefined ? {} : { store_forwarded_emails: m.storeForwardedEmails }),
    ...(m.aliases === undefined ? {} : { aliases: [...m.aliases] }),
    ...(m.forwardings === undefined ? {} : { forwardings: [...m.forwardings] }),
  };
}
