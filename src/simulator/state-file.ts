/**
 * The simulator's state file (`statePath`), its format and its writing; this module alone
 * knows them. JSON Lines: the first line is the whole state (a snapshot), each further line
 * one change made since, appended before the request that made it is answered. So a burst of
 * mutations costs what it changes, not the size of the panel. The file is compacted (rewritten
 * as one snapshot line: temp file in the same folder, then rename) when the simulator starts
 * and when it stops, so a stopped simulator leaves one line of plain JSON.
 *
 * Loading: the snapshot, then each change in order. A last line cut short (the process was
 * killed while appending) is dropped: its request was never answered. Any other line that is
 * not a change is refused, naming the file and the line. A file of one JSON document over
 * several lines (edited by hand) is read as a snapshot.
 *
 * Every failure is an error naming the file, what was done and the system's code, with what
 * to do.
 *
 * The snapshot holds `format`, `version`, the id sequences (`nextPlanId`...), each list of
 * the store (lists.ts) as an array of records, and each kind's mark (kind.ts StatePart); a
 * change line is a StoreChange. Each kind's module (kinds/) upgrades what older files lack.
 *
 * Compatible both ways within version 1: a domain of an older file, without settings, loads
 * with the defaults (kinds/domain.ts); fields are only ever added, so an older simulator reading a
 * newer file keeps them as it trusts every field. Zones (`zones` in the snapshot, `{"set":
 * "zones"}` lines) came later: a file without them loads with each top-level domain's default
 * zone, its subdomains' default records included (kinds/zone.ts). An older
 * simulator ignores the snapshot's `zones`, but refuses a log line that sets one: let a newer
 * simulator stop (compact) before an older one reads its file. Mailboxes (`mailboxes`,
 * `mailboxPasswords`, `nextMailboxId`) came later still, the same way: a file without them
 * loads with none; so did databases (`databases`, `databasePasswords`, `nextDatabaseId`) and
 * FTP users (`ftpUsers`, `ftpUserPasswords`, `nextFtpUserId`).
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { errnoCode, ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';
import { SIM_KIND_LIST } from './kinds/index.js';
import { type DeletableList, LIST_NAMES, type ListName, ruleOf } from './lists.js';
import { type SimulatorSeed, storeFromSeed } from './seed.js';
import { SimStore, type StoreChange } from './store.js';

/** Marks a state file, so that an unrelated JSON file is not silently taken for one. */
const STATE_FORMAT = 'panel-provision-simulator-state';

/** The marks of the kinds (StatePart `mark`): each snapshot sets them to true. */
const MARKS = SIM_KIND_LIST.flatMap((kind) => (kind.stateFile?.mark === undefined ? [] : [kind.stateFile.mark]));

const isList = (name: unknown): name is ListName => typeof name === 'string' && (LIST_NAMES as string[]).includes(name);

const isDeletable = (name: unknown): name is DeletableList => isList(name) && ruleOf(name).deletable === true;

/** A record has the fields its list's rule names (an `id...` field an integer, any other a string). */
function validRecord(list: ListName, record: unknown): boolean {
  return (
    isRecord(record) &&
    ruleOf(list).fields.every((field) =>
      field.startsWith('id') ? Number.isInteger(record[field]) : typeof record[field] === 'string',
    )
  );
}

/** A change's line: the change itself, which is already plain data (see StoreChange). */
function lineOf(change: StoreChange): string {
  return `${JSON.stringify(change)}\n`;
}

/** A line back into a change, or undefined when it is none. */
function changeOf(value: unknown): StoreChange | undefined {
  if (!isRecord(value)) return undefined;
  if (isDeletable(value.delete))
    return Number.isInteger(value.id) ? { delete: value.delete, id: value.id as number } : undefined;
  return isList(value.set) && validRecord(value.set, value.record) ? (value as StoreChange) : undefined;
}

/** A change as a simulator of today would have written it: each kind upgrades its own (kind.ts StatePart). */
function upgraded(change: StoreChange, store: SimStore, marks: ReadonlySet<string>): StoreChange {
  let result = change;
  for (const kind of SIM_KIND_LIST) {
    const part = kind.stateFile;
    if (part?.upgrade !== undefined)
      result = part.upgrade(result, store, part.mark === undefined || marks.has(part.mark));
  }
  return result;
}

function snapshotOf(store: SimStore): Record<string, unknown> {
  return {
    format: STATE_FORMAT,
    version: 1,
    ...store.idSequences(),
    ...Object.fromEntries(LIST_NAMES.map((list) => [list, store.records(list)])),
    ...Object.fromEntries(MARKS.map((mark) => [mark, true])),
  };
}

/** Rebuilds a store from the file's text; anything malformed is a usage error naming `source`. */
function parseState(text: string, source: string): SimStore {
  const fail = (message: string): never => {
    throw new ProvisionError('usage', `${source}: ${message}`, {
      hint: 'the file is not a simulator state file (or it was edited by hand): move it away to start fresh',
    });
  };
  const lines = text.split('\n');
  let data: unknown;
  try {
    data = JSON.parse(lines[0] ?? '');
  } catch {
    // One JSON document over several lines (pretty-printed by hand): a snapshot alone.
    try {
      data = JSON.parse(text);
      lines.length = 1;
    } catch (err) {
      throw new ProvisionError('usage', `${source}: the simulator state file is not valid JSON`, { cause: err });
    }
  }
  if (!isRecord(data) || data.format !== STATE_FORMAT || data.version !== 1) {
    return fail(`not a simulator state file (expected "format": "${STATE_FORMAT}", "version": 1)`);
  }
  const store = new SimStore();
  const marks = new Set(MARKS.filter((mark) => data[mark] === true));
  for (const list of LIST_NAMES) {
    if (ruleOf(list).optional === true) continue;
    const records = data[list];
    if (!Array.isArray(records)) return fail(`"${list}" must be an array`);
    for (const [index, record] of (records as unknown[]).entries())
      if (!validRecord(list, record)) fail(`${list}[${index}] needs ${ruleOf(list).fields.join(', ')}`);
  }
  // Shapes were checked above; the remaining fields are trusted as this module wrote them. An
  // optional list (absent from older files: a simulator that kept no passwords, no zones) may be
  // missing, and a record of it that is not one is skipped.
  for (const list of LIST_NAMES) {
    const records = data[list];
    if (!Array.isArray(records)) continue;
    for (const record of records as unknown[])
      if (validRecord(list, record)) store.apply(upgraded({ set: list, record } as StoreChange, store, marks));
  }
  const sequences = Object.fromEntries(
    Object.entries(store.idSequences()).map(([name]) => [
      name,
      Number.isInteger(data[name]) ? (data[name] as number) : 1,
    ]),
  );
  store.continueSequences(sequences);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const last = i === lines.length - 1;
    if (last && line === '') break;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last) break; // cut short by a kill while it was appended: its request was never answered
      return fail(`line ${i + 1} is not valid JSON`);
    }
    const change = changeOf(value);
    if (change === undefined) return fail(`line ${i + 1} is not a change the simulator wrote`);
    store.apply(upgraded(change, store, marks));
  }
  for (const kind of SIM_KIND_LIST) kind.stateFile?.afterLoad?.(store);
  return store;
}

/** The store from the state file when there is one, else from the seed (SimulatorOptions' two fields). */
export async function loadStore(
  options: { readonly statePath?: string | undefined; readonly seed?: SimulatorSeed | undefined },
  systemDomains: boolean,
): Promise<SimStore> {
  if (options.statePath !== undefined) {
    let text: string | undefined;
    try {
      text = await readFile(options.statePath, 'utf8');
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') {
        throw new ProvisionError(
          'io',
          `cannot read the simulator state file ${options.statePath} (${errnoCode(err)})`,
          {
            hint: 'check its permissions, or give another --state path',
            cause: err,
          },
        );
      }
    }
    if (text !== undefined) return parseState(text, options.statePath);
  }
  return storeFromSeed(options.seed ?? {}, {
    systemDomains,
    source: 'simulator seed',
    now: new Date(),
  });
}

/**
 * Keeps the state file in step with a store: `open` compacts it (and fails at once when the
 * path cannot be written), each `save` appends the changes made since the last one, `close`
 * compacts it again. A save requested while one runs waits for it and then writes once for
 * everyone who asked meanwhile. After a failed append the next save rewrites the whole file
 * (the log may end with a torn line, and must not go on after it).
 */
export class StateFile {
  private pending: string[] = [];
  private handle: FileHandle | undefined;
  private closed = false;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  private constructor(
    private readonly path: string,
    private readonly store: SimStore,
  ) {
    store.onChange = (change) => {
      this.pending.push(lineOf(change));
    };
  }

  static async open(path: string, store: SimStore): Promise<StateFile> {
    const file = new StateFile(path, store);
    await file.compact();
    return file;
  }

  /** Resolves once every change made so far is in the file. */
  save(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    if (this.running === undefined) {
      this.running = this.write().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.save();
      });
    return this.queued;
  }

  /**
   * After the last save, leaves the file as one snapshot line. A change made later still
   * reaches the file (its save rewrites it whole).
   */
  async close(): Promise<void> {
    this.closed = true;
    // The log holds every change saved: a compaction that fails leaves it to the next start.
    await this.save().catch(() => undefined);
  }

  private async write(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined || this.closed) {
      await this.compact();
      return;
    }
    const text = this.pending.join('');
    this.pending = [];
    if (text === '') return;
    try {
      await handle.write(text);
    } catch (err) {
      this.handle = undefined;
      await handle.close().catch(() => undefined);
      throw this.writeError(err);
    }
  }

  /** Rewrites the file as one snapshot line (temp file + rename), then appends to the new file. */
  private async compact(): Promise<void> {
    const previous = this.handle;
    this.handle = undefined;
    await previous?.close().catch(() => undefined);
    // Taken at once: changes made from here on are appended after it.
    const text = `${JSON.stringify(snapshotOf(this.store))}\n`;
    this.pending = [];
    const temp = `${this.path}.${process.pid.toString()}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text);
      await rename(temp, this.path);
      if (!this.closed) this.handle = await open(this.path, 'a');
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw this.writeError(err);
    }
  }

  private writeError(err: unknown): ProvisionError {
    return new ProvisionError('io', `cannot write the simulator state file ${this.path} (${errnoCode(err)})`, {
      hint: 'check that its directory exists and is writable, or give another --state path',
      cause: err,
    });
  }
}
