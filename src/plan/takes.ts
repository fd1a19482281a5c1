/**
 * Deletes that take other kinds' things with them (kinds/takes.ts): after the diff, the planned
 * deletes whose kind takes things (Kind.takes) are counted against the lists of the kinds taken
 * with them (Kind.takenWith), and carry the counts (what they destroy, each counted for
 * --max-deletes); the lists a run has not read are asked for only when such a delete is planned
 * (api/takes.ts reads them); the counts are facts of a saved plan's fingerprint. Loops over the
 * table and names no kind. Pure.
 */
import { KIND_NAMES, KINDS, kindOf } from '../kinds/index.js';
import type { RunAsk } from '../kinds/ask.js';
import type { Fact } from '../kinds/facts.js';
import type { KindTakenWith, KindTakes, Takes } from '../kinds/takes.js';
import type { Live } from '../panel/types.js';
import type { Change, Plan } from './types.js';

/** A kind whose things go with another's delete, by name. */
interface TakenKind {
  readonly name: string;
  readonly taken: KindTakenWith<unknown>;
}

/** The kinds whose things go with another kind's delete (Kind.takenWith), in the table's order. */
const TAKEN_KINDS: readonly TakenKind[] = KIND_NAMES.flatMap((name) => {
  const taken = (KINDS[name] as { readonly takenWith?: KindTakenWith<unknown> }).takenWith;
  return taken === undefined ? [] : [{ name, taken }];
});

/** What a change's kind says of the things its deletes take; undefined for a kind whose deletes take none. */
function takesOf(change: Change): KindTakes<Change> | undefined {
  return (kindOf(change) as { readonly takes?: KindTakes<Change> }).takes;
}

/** A kind's part of the live panel. */
function partOf(live: Live, name: string): unknown {
  return (live as unknown as Readonly<Record<string, unknown>>)[name];
}

/** The kinds whose things `change` takes with it: none unless it is a delete of a kind that takes some. */
function takenBy(change: Change): readonly TakenKind[] {
  if (takesOf(change)?.scope(change) === undefined) return [];
  return TAKEN_KINDS.filter((kind) => kind.taken.parents.includes(change.type));
}

/**
 * What the run must read more to count what the plan's deletes take: the ask of each taken
 * kind's list that `live` does not hold, one part per kind (api/takes.ts reads each on its own);
 * none when the plan has no such delete or every list is read.
 */
export function takesAsks(plan: Plan, live: Live): { readonly kind: string; readonly ask: RunAsk }[] {
  const asks = new Map<string, RunAsk>();
  for (const change of plan.changes)
    for (const { name, taken } of takenBy(change))
      if (!asks.has(name) && !taken.read(partOf(live, name))) asks.set(name, taken.asks);
  return [...asks].map(([kind, ask]) => ({ kind, ask }));
}

/**
 * What a saved plan's change must have read again to check its counts: the asks of the kinds it
 * counted (plan/reads.ts readsForSavedPlan).
 */
export function takesReadAgain(change: Change): readonly RunAsk[] {
  const takes = takesOf(change)?.of(change);
  if (takes === undefined) return [];
  return TAKEN_KINDS.filter((kind) => kind.name in takes.counts).map((kind) => kind.taken.asks);
}

/**
 * What `change` takes of other kinds, counted in `live`: each taken kind whose list `live` holds
 * whole (one it could not read is left out: unknown); undefined when it takes nothing countable.
 */
export function countTakes(change: Change, live: Live): Takes | undefined {
  const scope = takesOf(change)?.scope(change);
  if (scope === undefined) return undefined;
  const counts: Record<string, number> = {};
  const unattributed: Record<string, number> = {};
  let destroysData = false;
  let counted = false;
  for (const { name, taken } of takenBy(change)) {
    const part = partOf(live, name);
    if (!taken.read(part)) continue;
    const n = taken.count(part, scope);
    counts[name] = n;
    counted = true;
    // Things that cannot be told whose they are may go too: counted apart, as if they went.
    const more = taken.unattributed?.(part, scope) ?? 0;
    if (more > 0) unattributed[name] = more;
    if (n + more > 0 && taken.destroysData) destroysData = true;
  }
  if (!counted) return undefined;
  return Object.keys(unattributed).length === 0 ? { counts, destroysData } : { counts, destroysData, unattributed };
}

/**
 * The plan with each delete that takes things carrying its counts (Kind.takes `with`); the plan
 * itself when none does (a plan of creates: no copy of its list of changes, 800 KB at 100,000).
 */
export function withTakes(plan: Plan, live: Live): Plan {
  let changes: Change[] | undefined;
  plan.changes.forEach((change, i) => {
    const takes = countTakes(change, live);
    const kind = takesOf(change);
    if (takes === undefined || kind === undefined) return;
    const counted = kind.with(change, takes);
    if (counted === change) return;
    changes ??= [...plan.changes];
    changes[i] = counted;
  });
  return changes === undefined ? plan : { ...plan, changes };
}

/**
 * `<kind>:2 <kind>:1`: counts as a fact's value, in the table's order (`unknown` for a kind not
 * read), each followed by `+?3` when 3 more cannot be told whose they are.
 */
function countsText(takes: Partial<Takes>, kinds: readonly string[]): string {
  return kinds
    .map((kind) => {
      const more = takes.unattributed?.[kind];
      return `${kind}:${String(takes.counts?.[kind] ?? 'unknown')}${more === undefined ? '' : `+?${more}`}`;
    })
    .join(' ');
}

/**
 * The fact a delete's counts are (a saved plan is stale once what it takes differs): what the
 * plan says it takes, against the lists read again. None for a change without counts.
 */
export function takesFacts(change: Change): Fact<{ readonly live: Live }>[] {
  const takes = takesOf(change)?.of(change);
  if (takes === undefined) return [];
  const kinds = TAKEN_KINDS.map((kind) => kind.name).filter((name) => name in takes.counts);
  const expected = countsText(takes, kinds);
  return [
    {
      topic: 'takes',
      subject: change.id,
      expected,
      actual: (now) => countsText(countTakes(change, now.live) ?? {}, kinds),
      reason: (actual) =>
        `what the delete of ${kindOf(change).subject(change)} takes changed: ${actual}; ` +
        `the plan was made when it was ${expected}`,
    },
  ];
}
