import { plural } from '../util.js';
import { kindOf } from '../kinds/index.js';
import type { PlanView } from './common.js';
import { conflictLine, goesWith, NOUNS, requestLine, sign, subject, unknownLine, verb } from './common.js';
import { type Style, paint as paintIf } from './paint.js';
import { changeLine, changeParts } from './parts.js';
import { changeSummary, hasUnmanaged, scopeLine, unmanagedByKind, unmanagedCounts } from './summary.js';
import { safeText } from '../escape.js';
import { batched } from '../plan/json-pieces.js';

/** The plan for people, Terraform-like. `color` only when writing to a terminal without NO_COLOR. */
export function renderPlanText(view: PlanView, options: { color: boolean }): string {
  return [...planTextPieces(view, options)].join('');
}

/**
 * renderPlanText in pieces of about 16 K characters (plan/json-pieces.ts RUN_LENGTH), each made
 * as it is taken (a change's lines at a time), never split inside a line: for a plan too big to
 * hold as one text, written as it is made.
 */
export function planTextPieces(view: PlanView, options: { color: boolean }): Iterable<string> {
  return batched(planLines(view, options));
}

/** The plan's lines, each with its line break, one change's at a time. */
function* planLines(view: PlanView, options: { color: boolean }): Generator<string> {
  const paint = (style: Style, text: string): string => paintIf(style, text, options.color);
  const { plan } = view;
  // Each change's lines go out together: a piece never ends inside one.
  let out: string[] = [];
  const flush = (): string => {
    const text = out.length === 0 ? '' : `${out.join('\n')}\n`;
    out = [];
    return text;
  };

  const scope = scopeLine(plan);
  if (scope !== undefined) out.push(paint('bold', `Plan ${safeText(scope)}.`));
  for (const note of view.notes) out.push(paint('dim', `note: ${safeText(note)}`));
  if (view.notes.length > 0 || scope !== undefined) out.push('');

  if (plan.changes.length > 0) {
    out.push(`Changes to ${safeText(view.panelUrl)}:`, '');
    for (const change of plan.changes) {
      // What its kind's room says beside its subject and after its reason.
      const { what, after } = kindOf(change).details(change);
      out.push(
        paint(
          'dim',
          `  # ${subject(change)}${what} ${verb(change)}${goesWith(change)}: ${safeText(change.reason)}${after}`,
        ),
      );
      const mark = sign(change);
      const style = SIGN_STYLE[mark];
      const described = changeParts(change);
      if (described?.marks !== undefined && described.parts.length > 1) {
        // A zone's records, each a line of its own in its own sign (its colour says what happens to it).
        out.push(`  ${paint(style, mark)} ${described.subject}:`);
        described.parts.forEach((part, i) => {
          const own = described.marks?.[i] ?? mark;
          out.push(`  ${paint(SIGN_STYLE[own], own)}     ${part}`);
        });
      } else {
        const line = changeLine(change);
        if (line !== undefined) out.push(`  ${paint(style, mark)} ${line}`);
      }
      out.push(`  ${paint(style, mark)} ${requestLine(change)}`);
      yield flush();
    }
    out.push('');
  }

  if (plan.conflicts.length > 0) {
    out.push(paint('red', 'Conflicts: apply will send nothing until the manifest or the panel is changed:'));
    for (const c of plan.conflicts) {
      out.push(`  ${paint('red', '✗')} ${conflictLine(c)}`);
      yield flush();
    }
    out.push('');
  }
  const warnings = [...(view.warnings ?? []), ...plan.unknowns.map(unknownLine)];
  if (warnings.length > 0) {
    out.push(paint('yellow', 'Warnings:'));
    for (const w of warnings) {
      out.push(`  ${paint('yellow', '!')} ${safeText(w)}`);
      yield flush();
    }
    out.push('');
  }
  if (hasUnmanaged(plan.unmanaged)) {
    out.push(`Not in the manifest, left alone: ${unmanagedCounts(plan.unmanaged)}.`);
    if (view.showUnmanaged) {
      for (const { kind, names } of unmanagedByKind(plan.unmanaged))
        for (const name of names ?? []) {
          out.push(`  ${NOUNS[kind].one} ${safeText(name)}`);
          yield flush();
        }
    } else {
      out.push('  (--show-unmanaged lists their names)');
    }
    out.push('');
  }

  const findings = [
    plan.conflicts.length > 0 ? paint('red', plural(plan.conflicts.length, 'conflict')) : '',
    warnings.length > 0 ? paint('yellow', plural(warnings.length, 'warning')) : '',
  ].filter(Boolean);
  const summary =
    plan.changes.length === 0
      ? plan.scope === undefined
        ? 'No changes: the panel matches the manifest'
        : 'No changes within the scope: the panel matches the manifest for the clients it covers'
      : `Plan: ${changeSummary(plan.changes)}`;
  out.push(paint('bold', `${summary}${findings.length > 0 ? `; ${findings.join(', ')}` : ''}.`));
  yield flush();
}

const SIGN_STYLE: Readonly<Record<'+' | '~' | '-', Style>> = {
  '+': 'green',
  '~': 'yellow',
  '-': 'red',
};
