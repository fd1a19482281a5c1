/**
 * A plan's counts in words, for the text's last line and the Markdown's head: its changes by
 * action and kind, what updates remove (a zone's records), what the panel holds unmanaged, and
 * what a scoped plan leaves out. Each kind's noun and counts are its room's. Pure.
 */
import { plural } from '../util.js';
import type { Change, ChangeAction, Plan } from '../plan/types.js';
import { quote } from '../escape.js';
import { KIND_NAMES, KINDS, kindOf, type KindName } from '../kinds/index.js';
import type { KindNoun } from '../kinds/common.js';
import { countOf, NOUNS } from './common.js';
import { weight } from '../plan/guards.js';

/**
 * What a plan scoped by --clients leaves out, one sentence (patterns as data, quoted); undefined
 * for a plan of the whole manifest.
 */
export function scopeLine(plan: Plan): string | undefined {
  if (plan.scope === undefined) return undefined;
  const patterns = plan.scope.clients.map((p) => quote(p)).join(', ');
  return (
    `scoped by --clients to ${patterns}: only matching clients, their domains and zones are planned, ` +
    'and prune acts only within them; other clients and the hosting plans are left alone'
  );
}

/**
 * `3 to create (1 client, 2 domains), 1 to update (1 zone), 2 to delete (2 domains), 4 DNS
 * records to remove` or `no changes`: what an update removes (a zone's records) counts too.
 * Deletes are counted as `--max-deletes` counts them (plan/guards.ts): a delete with what goes
 * with it (`3 to delete (1 client, and 2 resources that go with it)`); with records to remove
 * too, the line ends with the guard's total (`: 7 deletes in all`). One count of deletes
 * everywhere: the text, the Markdown and the guard say the same number.
 */
export function changeSummary(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  const counts = new Map<`${ChangeAction}:${KindName}`, number>();
  for (const { action, type } of changes) counts.set(`${action}:${type}`, (counts.get(`${action}:${type}`) ?? 0) + 1);
  const parts: string[] = [];
  const deletes = deleteWeight(changes);
  for (const action of ['create', 'update', 'delete'] as const) {
    const each = KIND_NAMES.map((kind) => ({ kind, n: counts.get(`${action}:${kind}`) ?? 0 })).filter(({ n }) => n > 0);
    if (each.length === 0) continue;
    const total = each.reduce((sum, { n }) => sum + n, 0);
    const kinds = each.map(({ kind, n }) => countOf(n, kind)).join(', ');
    parts.push(
      action === 'delete'
        ? `${deletes.total} to delete (${kinds}${goingWith(deletes, total)})`
        : `${total} to ${action} (${kinds})`,
    );
  }
  let removedInAll = 0;
  for (const { noun, removed } of removalsByKind(changes))
    if (removed > 0) {
      parts.push(`${plural(removed, noun.one, noun.many)} to remove`);
      removedInAll += removed;
    }
  const line = parts.join(', ');
  return deletes.total > 0 && removedInAll > 0
    ? `${line}: ${plural(deletes.total + removedInAll, 'delete')} in all`
    : line;
}

/** What the plan's deletes destroy, as the guard counts them; `uncounted`: deletes whose share nobody could count. */
function deleteWeight(changes: readonly Change[]): { total: number; uncounted: number } {
  let total = 0;
  let uncounted = 0;
  for (const change of changes) {
    if (change.action !== 'delete') continue;
    const w = weight(change);
    total += w.deletes;
    if (w.unknown === true) uncounted++;
  }
  return { total, uncounted };
}

/** `, and 2 resources that go with them` after the deletes' kinds; '' when each delete goes alone. */
function goingWith(deletes: { total: number; uncounted: number }, changes: number): string {
  const them = changes === 1 ? 'it' : 'them';
  const more = deletes.total - changes;
  const counted = more > 0 ? `, and ${plural(more, 'resource')} that ${more === 1 ? 'goes' : 'go'} with ${them}` : '';
  const uncounted =
    deletes.uncounted === 0
      ? ''
      : `, and what goes with ${deletes.uncounted === changes ? them : `${deletes.uncounted} of them`}, uncounted`;
  return counted + uncounted;
}

/** What the plan's updates of one kind remove (a zone's records), for the summaries: each counts as a delete. */
export interface KindRemovals {
  readonly kind: KindName;
  /** How people's text names what goes: `DNS records`. */
  readonly noun: KindNoun;
  /** How the Markdown's list counts what it leaves out: `record`. */
  readonly item: string;
  /** How many things go, counted. */
  readonly removed: number;
  /** What goes, one line each (`dns "a.example": A @ 192.0.2.10 (ttl 3600)`), in plan order. */
  readonly lines: readonly string[];
  /** What goes that is known only after apply, one line per change (a new domain's zone pruned). */
  readonly uncounted: readonly string[];
  /** ` and the defaults of 2 new zones` beside the count; '' for none. */
  readonly uncountedBeside: string;
  /** `3 records leave their zones, ...`: a sentence over the lines. */
  readonly sentence: string;
}

/** What each kind's updates remove in the plan, for the kinds whose updates can remove anything, in the table's order. */
export function removalsByKind(changes: readonly Change[]): KindRemovals[] {
  return KIND_NAMES.flatMap((name) => {
    const removals = KINDS[name].removals;
    if (removals === undefined) return [];
    let removed = 0;
    const lines: string[] = [];
    const uncounted: string[] = [];
    for (const change of changes) {
      if (change.type !== name) continue;
      const own = kindOf(change).removals;
      if (own === undefined) continue;
      removed += own.count(change);
      lines.push(...own.lines(change));
      const more = own.uncounted(change);
      if (more !== undefined) uncounted.push(more);
    }
    return [
      {
        kind: name,
        noun: removals.noun,
        item: removals.item,
        removed,
        lines,
        uncounted,
        uncountedBeside: removals.uncountedBeside(uncounted.length),
        sentence: removals.sentence(removed, uncounted.length),
      },
    ];
  });
}

/**
 * What the panel holds unmanaged, by kind in the table's order: its names, undefined when the
 * panel cannot list them. A kind never unmanaged on its own (a zone goes with its domain) is not
 * there, nor one whose names the plan leaves out (plans when the manifest defines none).
 */
export function unmanagedByKind(
  u: Plan['unmanaged'],
): readonly { readonly kind: KindName; readonly names: readonly string[] | undefined }[] {
  const held = u as unknown as Readonly<Record<string, readonly string[] | undefined>>;
  return KIND_NAMES.flatMap((kind) => {
    const where = KINDS[kind].unmanaged;
    if (where === undefined) return [];
    const names = held[where.key];
    return names === undefined && where.absent === 'omitted' ? [] : [{ kind, names }];
  });
}

/** `2 clients, 5 domains` (domains "not counted" when the panel could not list them). */
export function unmanagedCounts(u: Plan['unmanaged']): string {
  return unmanagedByKind(u)
    .map(({ kind, names }) =>
      names === undefined
        ? `${NOUNS[kind].many} not counted (the panel cannot list them)`
        : countOf(names.length, kind),
    )
    .join(', ');
}

export function hasUnmanaged(u: Plan['unmanaged']): boolean {
  return unmanagedByKind(u).some(({ names }) => (names?.length ?? 0) > 0);
}
