/**
 * What a kind's doctor check is (Kind.doctor; src/api/doctor.ts runs them, docs/doctor.md says
 * what each means), and what the checks share: an error as a report line says it. Pure.
 */
import { ProvisionError } from '../errors.js';
import type { PanelLookUps, PanelReader } from './apply.js';
import type { KindNoun } from './common.js';

/** An error's message and what to do about it, on one line. */
export function withHint(error: ProvisionError): string {
  const message = error.message.replace(/\s+/g, ' ').replace(/\.$/, '');
  return error.hint === undefined ? message : `${message}; what to do: ${error.hint}`;
}

/** A ProvisionError as thrown; anything else (a bug) is thrown on. */
export function asProvisionError(error: unknown): ProvisionError {
  if (error instanceof ProvisionError) return error;
  throw error;
}

/**
 * The ids of the kinds' own doctor lines, as the report names them
 * (schemas/doctor-result.schema.json): a kind's new line is added here and to the schema.
 */
export type KindDoctorCheckId = 'client_fields' | 'domain_fields' | 'zones';

/** `ok`: holds; `failed`: does not (the message says what to do); `not_checked`: nothing to look at, or an earlier check failed (the message says why). */
export type DoctorStatus = 'ok' | 'failed' | 'not_checked';

/** One line of doctor's report as a kind's check says it. */
export interface DoctorLine {
  readonly status: DoctorStatus;
  readonly message: string;
}

/** A doctor line of `status` saying `message`. */
export function line(status: DoctorStatus, message: string): DoctorLine {
  return { status, message };
}

/**
 * A list as doctor read it: its records; the error that stopped the read; or `missing`, the
 * status by which the panel said it has no such list (DoctorList.mayLack).
 */
export type DoctorListRead<R = unknown> =
  { readonly records: readonly R[] } | { readonly error: ProvisionError } | { readonly missing: number };

/**
 * What doctor reads of a kind, as data the stage runs (src/api/doctor.ts): the GETs, their
 * order and the deadline are the stage's; what is read, and what it means, the kind's. A check
 * that fails is `failed` (plan or apply would stop, or a manifest key could never be compared):
 * the only check never failed, the panel's version, is the stage's own.
 */
export interface KindDoctor {
  /** The kind's list, read whole as plan reads it (the `lists` line); absent for a kind read by another's id (a zone: by its domain's). */
  readonly list?: DoctorList;
  /** The kind's own line after the lists, in the table's order; absent when its list says all (the `lists` line). */
  readonly check?: DoctorKindCheck;
}

/** A kind's list as doctor reads it. */
export interface DoctorList {
  /** Its path: `/clients`. */
  readonly path: string;
  /** How the `lists` line counts its records: the kind's noun (`120 clients`). */
  readonly noun: KindNoun;
  /** A record of it, read as plan reads it (`where` names it in errors). */
  parse(record: unknown, where: string): unknown;
  /**
   * Whether this list is the one read first, alone, to prove the key (only a list read proves
   * it; after a refusal nothing more is sent): one kind's. The others are read after it, in the
   * table's order, and the `lists` line counts them in that order.
   */
  readonly provesKey: boolean;
  /**
   * When a panel may lack the list: the statuses that say so (404, 405), and what its absence
   * costs, as the `lists` line says it (the line still holds). Absent: every failure fails.
   */
  readonly mayLack?: { readonly statuses: readonly number[]; readonly costs: string };
}

/** What a kind's check is handed to read more than its list: the stage's GETs (no slot: doctor reads one at a time). */
export interface DoctorStage {
  readonly panel: PanelReader;
  readonly lookUp: PanelLookUps;
}

/** A kind's own line in doctor's report. */
export interface DoctorKindCheck {
  /** Its id in the report (and the JSON). */
  readonly id: KindDoctorCheckId;
  /** Its name in the text report: `client fields`. */
  readonly label: string;
  /** The kind whose list it looks at: its own, or another's (a zone's check: a listed domain's). */
  readonly looksAt: string;
  /** The request it may send beyond the lists, as the deadline's message names it (`/dns/{id}`); absent when it sends none. */
  readonly sends?: string;
  /** What its failed line says to do or what cannot be used, last: `a manifest's dns cannot be used on this panel`. */
  readonly hint: string;
  /**
   * Its line, judged from `list` (the list of `looksAt` as read), reading through `stage` what it
   * must (the stage's reader, GETs only). Never throws for what the panel answers: that is a line.
   */
  run(list: DoctorListRead, stage: DoctorStage): DoctorLine | Promise<DoctorLine>;
}
