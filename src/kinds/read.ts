/**
 * What a kind's list read gets from the stage that reads the panel (panel/read.ts readLive) and
 * from the snapshot code (api/snapshot-*.ts), and what it gives back (Kind.read). The rooms stay
 * pure: the stage hands in its GETs, its list reader (paged lists refused), its bounded
 * look-ups and its notes. Also the one check every list read makes: ids and names unique.
 */
import { ProvisionError } from '../errors.js';
import type { JsonValue } from '../util.js';
import type { PanelReader } from './apply.js';

export type { PanelReader } from './apply.js';

/** The panel as a kind's list read sees it: what the stage hands in. */
export interface PanelListReader extends PanelReader {
  /** The API's path on the panel (`/api/v2`), for notes naming a path with a placeholder. */
  readonly basePath: string;
  /**
   * A list endpoint read whole, each record made by `parse` (`where`: `GET /api/v2/domains[3]`,
   * made only for a record `parse` refuses: it must be pure, as a record's parser is);
   * a list that looks paged is a contract error (panel/list-read.ts readRecords).
   */
  list<T>(path: string, parse: (record: unknown, where: string) => T): Promise<T[]>;
  /** GET /<collection>/name/<name>, undefined on 404. */
  findByName(collection: 'clients' | 'domains' | 'hosting-plans', name: string): Promise<unknown>;
  /** The HTTP status of a failed request (`error` thrown by get, list or findByName), else undefined. */
  statusOf(error: unknown): number | undefined;
  /** `work` of each of `items`, `concurrency` at a time; the results in the items' order. */
  each<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]>;
  /** Tells the run a note, in a sentence (a partial read, or one that costs more requests). */
  note(message: string): void;
  /** How many look-ups one by one (a domain by name, a client by id) run at once. */
  readonly lookups: number;
  /** How many reads of one object each (a domain's zone) run at once: apply's bound. */
  readonly reads: number;
}

/**
 * How one read of the panel takes in a kind's records: `P` its part of the live panel (Live,
 * src/kinds/index.ts), `A` what it reads of the run's ask (the manifest's and the scope's reads:
 * panel/read.ts ReadLiveOptions is every kind's), `E` the parts of other kinds it reads beside its
 * own, by kind name (Live must hold them: src/kinds/reads.ts READ_ORDER fails to compile
 * otherwise), `X` its index (`index`), `B` the kinds of `E` it is read after (`after`): its
 * `list` sees only theirs, its `check` every part of its wave and those before.
 */
export interface KindRead<P, A, E, X = never, B extends keyof E & string = never> {
  /**
   * The kinds, by name, whose parts its read needs first (a zone's: the domains, by which it is
   * read): the stage reads it after them. Kinds with none are read at once, concurrently.
   */
  readonly after: readonly B[];
  /** Whether a read asks for the kind at all; when not, no request is sent and its part is `empty`. */
  needed(ask: A): boolean;
  /** The part when the kind is not read. */
  readonly empty: P;
  /**
   * Reads the kind's records (its list, or what stands in for it), parsed: its wave's reads run
   * concurrently, so `earlier` holds only the parts of `after` (the others are not read yet).
   */
  list(panel: PanelListReader, ask: A, earlier: Pick<E, B>): Promise<P>;
  /**
   * What is checked once every kind of its wave is read, one kind after the other in the read
   * order (ids and names unique, each domain's owner known): a contract error stops the read.
   */
  check?(part: P, panel: PanelListReader, ask: A, earlier: E): Promise<void>;
  /** What is read more once every kind of its wave is checked (a client's details); the part completed. */
  complete?(part: P, panel: PanelListReader, ask: A): Promise<P>;
  /** Its part of a snapshot's document (schemas/snapshot.schema.json). */
  readonly snapshot: SnapshotPart<P>;
  /**
   * Its records as its facts and the stages look them up (by name): built from its part on first
   * use, once per read (plan/live-index.ts LiveIndex.indexOf). Absent when nothing looks them up.
   */
  index?(part: P): X;
  /**
   * How the secrets code finds its things (apply/secret-lookups.ts): in its part, by name, by id.
   * Every kind with a `secret` has them; absent for a kind without one.
   */
  readonly lookUps?: KindLookUps<P>;
}

/** Any kind's list read, whatever its part, ask, parts read beside and index: what the table holds (Kind.read). */
export type AnyKindRead = KindRead<unknown, never, never, unknown, string>;

/** A thing as a look-up finds it: the panel's id of it is all the secrets code needs. */
export interface FoundThing {
  readonly id: number;
}

/** How a kind's things are found (KindRead.lookUps): in one read's part, and on the panel by name and by id. */
export interface KindLookUps<P> {
  /**
   * The things `part` holds, by name and id: every one on the panel, or undefined when the part
   * does not hold the kind whole (then none of its things is judged gone).
   */
  inPart(part: P): readonly { readonly name: string; readonly id: number }[] | undefined;
  /** The thing named `name`, as the panel answers a look-up of it; undefined when it has none. */
  find(panel: PanelListReader, name: string): Promise<FoundThing | undefined>;
  /** The thing the panel knows as `id`; undefined when it has none (deleted meanwhile). */
  findById(panel: PanelListReader, id: number): Promise<FoundThing | undefined>;
}

/** How a kind's part is written to a snapshot's document and read back from it. */
export interface SnapshotPart<P> {
  /** Its keys in the document and their values, in the order they are written. */
  write(part: P): { readonly [key: string]: JsonValue };
  /** Its part read back from the document, each record by the parser that reads the panel's. */
  read(reading: SnapshotReading): P;
  /** Its part with every email address replaced by `digest(address)`; absent for a kind without one. */
  digested?(part: P, digest: (address: string) => string): P;

  // --- Which kinds a snapshot read (api/snapshot-take.ts, snapshot-plan.ts) ---
  /**
   * Whether the snapshot's `reads` name which of its things were asked for (the zones: by the
   * domains whose zones the take's manifest manages), so that a plan from it finds what it lacks
   * thing by thing: the kind is then held as read whether the take's ask needed it or not.
   * Absent: the kind is read when the take's ask needs it (`needed`), else held as not read, and
   * a plan whose ask needs it is refused (docs/snapshots.md).
   */
  readonly byThing?: boolean;
}

/** What reading a snapshot's document hands a kind's part. */
export interface SnapshotReading {
  /** The document's `key`, as it holds it. */
  value(key: string): unknown;
  /** `file: "clients"`: how a record's parser names where it is. */
  at(key: string): string;
  /** The document's `key` as a list, else an error. */
  list(key: string): unknown[];
  /** An error saying the snapshot `problem`s (`needs "zones" as an object`). */
  bad(problem: string): Error;
  /** Whether the snapshot holds emails as digests (`emails: "digest"`), and what a digest looks like. */
  readonly digests: boolean;
  isDigest(text: string): boolean;
}

/**
 * Refuses a list in which two records share `key`: ids and names are what the plan resolves
 * by, and two records for one of them leave it guessing (which "alice" owns the domain? which
 * "Basic" is meant?). Keys of one type in strictly increasing order (ids as a panel lists
 * them, names it sorts) are all different: that is checked first, with nothing allocated; any
 * other list is checked with a map of the keys seen.
 */
export function unique<T>(
  records: readonly T[],
  key: (record: T) => string | number,
  where: string,
  field: string,
): void {
  if (!increasing(records, key)) repeated(records, key, where, field);
}

/** Whether the keys are of one type and each greater than the one before (so no two are equal). */
function increasing<T>(records: readonly T[], key: (record: T) => string | number): boolean {
  if (records.length === 0) return true;
  let last = key(records[0] as T);
  const type = typeof last;
  for (let i = 1; i < records.length; i++) {
    const value = key(records[i] as T);
    if (typeof value !== type || !(value > last)) return false;
    last = value;
  }
  return true;
}

/** unique's check by a map: refuses the list naming every key seen twice (the first five). */
function repeated<T>(records: readonly T[], key: (record: T) => string | number, where: string, field: string): void {
  const seen = new Map<string | number, number>();
  const twice: string[] = [];
  records.forEach((record, i) => {
    const value = key(record);
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else twice.push(`[${first}] and [${i}] (${JSON.stringify(value)})`);
  });
  if (twice.length === 0) return;
  const shown = twice.slice(0, 5).join(', ') + (twice.length > 5 ? `, and ${twice.length - 5} more` : '');
  throw new ProvisionError('panel_contract', `${where}: records share one "${field}": ${shown}`, {
    hint:
      'the panel answered a list panel-provision cannot plan on (each id and name must be unique); ' +
      'report the panel version and this message',
  });
}

/** A look-up that answered the record of another thing than the one asked for. */
export function notAsked(where: string, what: string, hint: string = NAME_HINT): ProvisionError {
  return new ProvisionError('panel_contract', `${where} answered the record of ${what}, not the one asked for`, {
    hint,
  });
}

const NAME_HINT =
  'the panel (or a proxy in front of it) answers name look-ups wrongly: nothing was adopted; ' +
  'check it before running apply again';

/** The hint of a look-up by id that answered another record. */
export const ID_HINT =
  'the panel (or a proxy in front of it) answers look-ups by id wrongly; check it before running plan or apply again';

/**
 * `GET <path>/{id}` of a kind without a look-up of its own, parsed by `parse`; undefined on 404
 * (none, or deleted meanwhile); a record with another id is a contract error naming it
 * (`what`: `mailbox "info@a.example"`).
 */
export async function findById<T extends { readonly id: number }>(
  panel: Pick<PanelListReader, 'get' | 'describe' | 'statusOf'>,
  path: string,
  id: number,
  parse: (record: unknown, where: string) => T,
  what: (record: T) => string,
): Promise<T | undefined> {
  const at = `${path}/${id}`;
  let found: unknown;
  try {
    found = await panel.get(at);
  } catch (err) {
    if (panel.statusOf(err) === 404) return undefined;
    throw err;
  }
  const where = panel.describe('GET', at);
  const record = parse(found, where);
  if (record.id !== id) throw notAsked(where, `${what(record)} (id ${record.id})`, ID_HINT);
  return record;
}
