import type { ErrorCode } from '../errors.js';
import type { Change, ChangeId } from './types.js';

/**
 * What came of each change of a plan once applied: the words apply reports in and the
 * renderers print, below both.
 */

/**
 * What happened to one change. Failures carry a one-line message (never a secret), and the
 * error's machine code when it has one (errors.ts ErrorCode, or `zone_changed`).
 */
export type Outcome =
  | {
      readonly change: Change;
      readonly status: 'succeeded';
      readonly id: number;
      readonly note?: string;
    }
  | { readonly change: Change; readonly status: 'failed'; readonly error: string; readonly code?: FailureCode }
  | {
      readonly change: Change;
      readonly status: 'skipped';
      readonly because: ChangeId | 'interrupted';
    };

/**
 * A failure's machine code: a ProvisionError's, a DNS zone changed since the plan (kinds/zone/write.ts),
 * or a domain's settings or a hosting plan changed since the plan (apply/whole-write.ts).
 */
export type FailureCode = ErrorCode | 'zone_changed' | 'object_changed';

/** succeeded / failed / skipped counts. */
export function tally(outcomes: readonly Outcome[]): Record<Outcome['status'], number> {
  const counts = { succeeded: 0, failed: 0, skipped: 0 };
  for (const o of outcomes) counts[o.status]++;
  return counts;
}
