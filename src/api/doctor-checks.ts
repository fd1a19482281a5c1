/**
 * The checks of `provision doctor` and their order (doctor.ts runs them, within its deadline):
 * the stage's own (reachable, API on, the key, the lists' shapes, the panel's version) around
 * the kinds' (Kind.doctor, in the order of the table of kinds: src/kinds/doctors.ts KIND_DOCTORS);
 * and the helpers every check shares. Messages hold the panel's names and values as data (quoted).
 */
import type { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { KIND_DOCTORS } from '../kinds/doctors.js';
import type { KindName } from '../kinds/index.js';
import {
  asProvisionError,
  type DoctorKindCheck,
  type DoctorList,
  type DoctorListRead,
  type DoctorStatus,
  type KindDoctorCheckId,
  withHint,
} from '../kinds/doctor.js';
import type { PanelClient } from '../panel/client.js';
import { PanelHttpError } from '../panel/errors.js';
import { readRecords } from '../panel/list-read.js';
import { isRecord, plural } from '../util.js';

export { asProvisionError, withHint } from '../kinds/doctor.js';
export type { DoctorStatus } from '../kinds/doctor.js';

const NAMES = Object.keys(KIND_DOCTORS) as readonly KindName[];

/** The kinds' own checks, in the table's order. */
export const KIND_CHECKS: readonly DoctorKindCheck[] = NAMES.flatMap((name) => {
  const { check } = KIND_DOCTORS[name];
  return check === undefined ? [] : [check];
});

/** The kinds' lines' names in the text report (Kind.doctor.check.label): `client fields`. */
export const KIND_CHECK_LABELS = Object.fromEntries(KIND_CHECKS.map((check) => [check.id, check.label])) as Readonly<
  Record<KindDoctorCheckId, string>
>;

/** A kind's list as doctor reads it: the kind's name, and its list (Kind.doctor.list). */
export interface KindList {
  readonly kind: KindName;
  readonly list: DoctorList;
}

/** The kinds' lists in the order they are read and counted: the one that proves the key first, the others in the table's order. */
export const KIND_LISTS: readonly KindList[] = (() => {
  const lists = NAMES.flatMap((name) => {
    const { list } = KIND_DOCTORS[name];
    return list === undefined ? [] : [{ kind: name, list }];
  });
  const key = lists.filter((l) => l.list.provesKey);
  if (key.length !== 1) throw new Error(`one kind's list proves the key, not ${key.length}`);
  return [...key, ...lists.filter((l) => !l.list.provesKey)];
})();

/** The checks, in the order they run and are reported. */
export const DOCTOR_CHECKS: readonly DoctorCheckId[] = [
  'reachable',
  'api',
  'key',
  'lists',
  ...KIND_CHECKS.map((check) => check.id),
  'version',
];

export type DoctorCheckId = 'reachable' | 'api' | 'key' | 'lists' | KindDoctorCheckId | 'version';

export type Outcome = readonly [DoctorCheckId, DoctorStatus, string];
export type Read<T> = { readonly records: T[] } | { readonly error: ProvisionError };

export async function attempt<T>(read: () => Promise<T[]>): Promise<Read<T>> {
  try {
    return { records: await read() };
  } catch (error) {
    return { error: asProvisionError(error) };
  }
}

/** A kind's list, read whole; `missing` when the panel answers a status by which it may lack it. */
export async function readKindList(panel: PanelClient, { list }: KindList): Promise<DoctorListRead> {
  const read = await attempt(() => readRecords(panel, list.path, (record, where) => list.parse(record, where)));
  if ('error' in read && read.error instanceof PanelHttpError && list.mayLack?.statuses.includes(read.error.status))
    return { missing: read.error.status };
  return read;
}

/** The lists' shapes: each read whole, counted in the order read; a list the panel may lack said with its cost. */
export function listsCheck(panel: PanelClient, reads: readonly (KindList & { read: DoctorListRead })[]): Outcome {
  const failures = reads.flatMap(({ read }) => ('error' in read ? [withHint(read.error)] : []));
  if (failures.length > 0) return ['lists', 'failed', failures.join(' | ')];
  const counts = reads.flatMap(({ list, read }) =>
    'records' in read ? [plural(read.records.length, list.noun.one, list.noun.many)] : [],
  );
  const lacking = reads.flatMap(({ list, read }) =>
    'missing' in read
      ? [
          `no ${list.noun.one} list (${panel.describe('GET', list.path)} answered ${read.missing}): ` +
            (list.mayLack?.costs ?? ''),
        ]
      : [],
  );
  if (lacking.length > 0) return ['lists', 'ok', `complete (${counts.join(', ')}); ${lacking.join('; ')}`];
  return ['lists', 'ok', `complete, each read whole (${counts.join(', ')})`];
}

/** GET /server's `version`, as data; never failed (the engine does not use it). */
export async function versionCheck(panel: PanelClient): Promise<Outcome> {
  const where = panel.describe('GET', '/server');
  let answer: unknown;
  try {
    answer = await panel.get('/server');
  } catch (error) {
    const failure = asProvisionError(error);
    const why =
      failure instanceof PanelHttpError
        ? `${where} answered ${failure.status}${failure.status === 403 ? ' (the key may not read it)' : ''}`
        : failure.message;
    return ['version', 'not_checked', `${why}: the panel does not say its version here (the engine does not need it)`];
  }
  const version = isRecord(answer) ? answer.version : undefined;
  const said = version === undefined ? [] : leaves(version, '', 0);
  if (said.length === 0) return ['version', 'not_checked', `${where} answered without a "version"`];
  const shown = said.slice(0, MAX_VERSION_VALUES).join(', ');
  const more = said.length > MAX_VERSION_VALUES ? `, and ${said.length - MAX_VERSION_VALUES} values more` : '';
  return ['version', 'ok', `${where}: version ${shown}${more}`];
}

/** How many of `version`'s values are shown, and how much of each string. */
const MAX_VERSION_VALUES = 6;
const MAX_VERSION_CHARS = 64;
const MAX_VERSION_DEPTH = 4;

/**
 * The values of `version` in whatever shape the panel gives it: a string or number as it is, an
 * object's (or array's) values each after its key path (`build 1234`), strings quoted and cut.
 */
function leaves(value: unknown, path: string, depth: number): string[] {
  const at = path === '' ? '' : `${path} `;
  if (typeof value === 'string') {
    const cut = value.length > MAX_VERSION_CHARS ? `${value.slice(0, MAX_VERSION_CHARS)}…` : value;
    return value.trim() === '' ? [] : [`${at}${quote(cut)}`];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [`${at}${String(value)}`];
  if (typeof value !== 'object' || value === null || depth >= MAX_VERSION_DEPTH) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const name = /^[A-Za-z0-9_.-]{1,40}$/.test(key) ? key : quote(key.slice(0, MAX_VERSION_CHARS));
    return leaves(inner, path === '' ? name : `${path}.${name}`, depth + 1);
  });
}
