import { type Outcome, tally } from '../plan/outcome.js';
import { quote, safeText } from '../escape.js';
import { batched, indentedPieces, ItemList } from '../plan/json-pieces.js';
import { subject } from './common.js';
import { paint as paintIf } from './paint.js';
import type { Change, Plan } from '../plan/types.js';
import { assertNever } from '../util.js';
import { kindOf } from '../kinds/index.js';

/** One line for a finished change: `✓ created client "alice" (id 12)`. */
export function renderOutcomeLine(outcome: Outcome, options: { color: boolean }): string {
  const paint = (style: 'green' | 'red' | 'yellow', text: string): string => paintIf(style, text, options.color);
  const what = subject(outcome.change);
  switch (outcome.status) {
    case 'succeeded': {
      // What its kind says apply did (a zone's records), then apply's note after it.
      const did = kindOf(outcome.change).outcome?.(outcome.change);
      return (
        `${paint('green', '✓')} ${done(outcome.change)} ${what} (id ${outcome.id})` +
        (did === undefined ? '' : `: ${did}`) +
        (outcome.note === undefined
          ? ''
          : `${did === undefined ? ':' : ';'} ${paint('yellow', safeText(outcome.note))}`)
      );
    }
    case 'failed':
      return `${paint('red', '✗')} failed to ${outcome.change.action} ${what}: ${safeText(outcome.error)}`;
    case 'skipped':
      return outcome.because === 'interrupted'
        ? `${paint('yellow', '-')} skipped ${what}: interrupted before it was sent`
        : `${paint('yellow', '-')} skipped ${what}: ${changeName(outcome.because)} failed`;
  }
}

/** What a change did, once it succeeded. */
function done(change: Change): string {
  switch (change.action) {
    case 'create':
      return 'created';
    case 'update':
      return 'updated';
    case 'delete':
      return 'deleted';
    default:
      return assertNever(change);
  }
}

/** `client:alice` as people read it: `client "alice"` (data both: a saved plan's ids come from its file). */
function changeName(id: string): string {
  const colon = id.indexOf(':');
  return `${safeText(id.slice(0, colon))} ${quote(id.slice(colon + 1))}`;
}

/** `Apply: 3 succeeded, 1 failed, 2 skipped.` */
export function renderApplySummary(outcomes: readonly Outcome[]): string {
  const t = tally(outcomes);
  if (outcomes.length === 0) return 'Apply: no changes, nothing sent.';
  return (
    `Apply: ${t.succeeded} succeeded, ${t.failed} failed, ${t.skipped} skipped` +
    `${t.failed > 0 ? ': run apply again after fixing the cause; it sends only what is still to do' : ''}.`
  );
}

/** The apply result for scripts (schemas/apply-result.schema.json); outcomes in plan order. */
export function renderApplyJson(
  outcomes: readonly Outcome[],
  plan: Pick<Plan, 'changes' | 'scope'>,
  panelUrl: string,
): string {
  return [...applyJsonPieces(outcomes, plan, panelUrl)].join('');
}

/**
 * renderApplyJson in pieces of about 16 K characters (plan/json-pieces.ts RUN_LENGTH), each
 * outcome's JSON made as it is written.
 */
export function applyJsonPieces(
  outcomes: readonly Outcome[],
  plan: Pick<Plan, 'changes' | 'scope'>,
  panelUrl: string,
): Iterable<string> {
  const position = new Map(plan.changes.map((c, i) => [c.id, i]));
  const sorted = [...outcomes].sort((a, b) => (position.get(a.change.id) ?? 0) - (position.get(b.change.id) ?? 0));
  position.clear();
  const document = {
    // schemas/apply-result.schema.json's; 1.2: zone outcomes; 1.3: hosting plan outcomes, error_code
    format_version: '1.3',
    panel_url: panelUrl,
    // A plan scoped by --clients: the patterns it was made for (plan/types.ts Plan.scope).
    ...(plan.scope === undefined ? {} : { scope: { clients: plan.scope.clients } }),
    outcomes: new ItemList(sorted, outcomeJson),
    summary: tally(outcomes),
  };
  return batched(withNewline(indentedPieces(document)));
}

function* withNewline(pieces: Iterable<string>): Generator<string> {
  yield* pieces;
  yield '\n';
}

/** One outcome as the apply result holds it. */
function outcomeJson(o: Outcome): Record<string, unknown> {
  return {
    id: o.change.id,
    action: o.change.action,
    type: o.change.type,
    name: o.change.name,
    status: o.status,
    ...(o.status === 'succeeded'
      ? { panel_id: o.id, ...(o.note === undefined ? {} : { note: o.note }) }
      : o.status === 'failed'
        ? { error: o.error, ...(o.code === undefined ? {} : { error_code: o.code }) }
        : { because: o.because }),
  };
}

/**
 * The live progress line of an apply on a terminal: `Applying: 4/10 done (3 succeeded, 1 failed)`,
 * cut to fit `columns` so it never wraps (a wrapped line cannot be redrawn in place).
 */
export function renderProgressLine(counts: Record<Outcome['status'], number>, total: number, columns: number): string {
  const done = counts.succeeded + counts.failed + counts.skipped;
  const parts = [
    `${counts.succeeded} succeeded`,
    counts.failed > 0 ? `${counts.failed} failed` : '',
    counts.skipped > 0 ? `${counts.skipped} skipped` : '',
  ];
  const line = `Applying: ${done}/${total} done (${parts.filter(Boolean).join(', ')})`;
  return line.length < columns ? line : line.slice(0, Math.max(0, columns - 2)) + '…';
}
