/**
 * The clients and domains of Desired as a read keeps them (issue 30, 7f: what a read keeps is
 * a few bytes for each byte of the manifest). A manifest of 125,000 clients keeps 375,000 of
 * them until the plan is made, so each keeps no more than it must:
 *
 * - its place as one number (line and column packed: packPlace) beside its file (a string every
 *   item of a file shares), with the `Location` the public types give out (`loc`, `planLoc`) made
 *   on demand, each time it is read;
 * - its strings as copies of their own (ownString): a string cut out of the manifest's text may
 *   be a slice of it in V8, which keeps the whole text alive as long as the item;
 * - its list of domains no longer than it is.
 *
 * `loc` and `planLoc` are own enumerable properties (getters, one descriptor shared by all
 * items, so all items of one shape share one hidden class): spreading an item, comparing it
 * (vitest's toEqual) or listing its keys sees them as it sees a plain object's. Keys stand in
 * the order the plain objects had them.
 */
import type { DesiredClient, DesiredDomain, Location } from './types.js';

/**
 * A place as kept: `line * COLUMNS + column` for a column below COLUMNS (a small integer); for a
 * wider one (a long line: JSON written on one line, a flow mapping), `-(line * WIDE + column) - 1`
 * (a small integer on the first lines); else the Location.
 */
export type Place = number | Location;

/** Columns the first packed form holds. */
const COLUMNS = 1024;

/** Columns the second packed form holds (a 64 MB line). */
const WIDE = 2 ** 26;

/** `loc` as kept. */
export function packPlace(loc: Location): Place {
  const { line, column } = loc;
  if (!Number.isInteger(line) || line < 0 || !Number.isInteger(column) || column < 0)
    return { file: loc.file, line, column };
  if (column < COLUMNS && Number.isSafeInteger(line * COLUMNS + column)) return line * COLUMNS + column;
  if (column < WIDE && Number.isSafeInteger(line * WIDE + column + 1)) return -(line * WIDE + column) - 1;
  return { file: loc.file, line, column };
}

/** The Location of a place kept by packPlace, in `file`. */
export function placeIn(file: string, place: Place): Location {
  if (typeof place !== 'number') return place;
  const wide = place < 0;
  const packed = wide ? -place - 1 : place;
  const per = wide ? WIDE : COLUMNS;
  const column = packed % per;
  return { file, line: (packed - column) / per, column };
}

/** A domain of Desired as a read keeps it (see above); `loc` is where its name stands. */
export class DesiredDomainItem implements DesiredDomain {
  readonly #file: string;
  readonly #at: Place;
  readonly name: string;
  readonly input: string;
  readonly state: 'present' | 'absent';
  declare readonly settings?: NonNullable<DesiredDomain['settings']>;
  declare readonly dns?: NonNullable<DesiredDomain['dns']>;
  declare readonly sections?: NonNullable<DesiredDomain['sections']>;
  declare readonly loc: Location;

  static readonly #LOC: PropertyDescriptor = {
    enumerable: true,
    get(this: DesiredDomainItem): Location {
      return placeIn(this.#file, this.#at);
    },
  };

  /** `name` and `input` are kept as given (one string when they are equal: ownString them first). */
  constructor(
    name: string,
    input: string,
    state: 'present' | 'absent',
    settings: DesiredDomain['settings'],
    dns: DesiredDomain['dns'],
    loc: Location,
  ) {
    this.#file = loc.file;
    this.#at = packPlace(loc);
    this.name = name;
    this.input = input;
    this.state = state;
    if (settings !== undefined) (this as { settings?: DesiredDomain['settings'] }).settings = settings;
    if (dns !== undefined) (this as { dns?: DesiredDomain['dns'] }).dns = dns;
    Object.defineProperty(this, 'loc', DesiredDomainItem.#LOC);
  }
}

/** What a client item gives beside its username, state and place. */
export interface ClientItemParts {
  /** The managed fields (and create-only keys) it gives, in the order they are to stand. */
  readonly wants: Readonly<Record<string, string | boolean>>;
  readonly planLoc?: Location | undefined;
  readonly domains: readonly DesiredDomain[];
  readonly sections?: DesiredClient['sections'] | undefined;
}

/** A client of Desired as a read keeps it (see above). */
export class DesiredClientItem implements DesiredClient {
  readonly #file: string;
  readonly #at: Place;
  readonly #planAt: Place | undefined;
  readonly username: string;
  readonly state: 'present' | 'absent';
  declare readonly domains: readonly DesiredDomain[];
  declare readonly sections?: NonNullable<DesiredClient['sections']>;
  declare readonly planLoc?: Location;
  declare readonly loc: Location;

  static readonly #LOC: PropertyDescriptor = {
    enumerable: true,
    get(this: DesiredClientItem): Location {
      return placeIn(this.#file, this.#at);
    },
  };

  static readonly #PLAN_LOC: PropertyDescriptor = {
    enumerable: true,
    get(this: DesiredClientItem): Location | undefined {
      return this.#planAt === undefined ? undefined : placeIn(this.#file, this.#planAt);
    },
  };

  constructor(username: string, state: 'present' | 'absent', loc: Location, parts: ClientItemParts) {
    this.#file = loc.file;
    this.#at = packPlace(loc);
    this.#planAt = parts.planLoc === undefined ? undefined : packPlace(parts.planLoc);
    this.username = username;
    this.state = state;
    const self = this as unknown as Record<string, unknown>;
    for (const key in parts.wants) self[key] = parts.wants[key];
    if (parts.planLoc !== undefined) Object.defineProperty(this, 'planLoc', DesiredClientItem.#PLAN_LOC);
    // A list of its own length: a list grown by push keeps room for more.
    self.domains = parts.domains.length === 0 ? [] : parts.domains.slice();
    if (parts.sections !== undefined) self.sections = parts.sections;
    Object.defineProperty(this, 'loc', DesiredClientItem.#LOC);
  }
}
