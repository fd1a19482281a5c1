import type { Desired } from '../manifest/types.js';
import type { Change, ChangeId } from './types.js';
import { phaseOf } from './types.js';
import { KINDS, type KindName, kindOf } from '../kinds/index.js';

/**
 * The kinds in the order of changes (each kind's Kind.order `after`): every kind after those it
 * names, the table's order between kinds that name none of each other. Creates and updates go in
 * this order, deletes in its reverse. Throws when a kind names one the table lacks, or the kinds
 * name each other in a circle (test/plan/order-kinds.test.ts holds both).
 */
export function kindsInOrder(
  table: { readonly [name: string]: { readonly order: { readonly after: readonly string[] } } } = KINDS,
): string[] {
  const names = Object.keys(table);
  const placed: string[] = [];
  const done = new Set<string>();
  while (placed.length < names.length) {
    const next = names.find(
      (name) =>
        !done.has(name) &&
        (table[name]?.order.after ?? []).every((after) => {
          if (!(after in table)) throw new Error(`kind ${name} is ordered after ${after}, which is not a kind`);
          return done.has(after);
        }),
    );
    if (next === undefined)
      throw new Error(
        `the kinds ${names.filter((n) => !done.has(n)).join(', ')} are ordered after each other in a circle`,
      );
    placed.push(next);
    done.add(next);
  }
  return placed;
}

const ORDER = kindsInOrder() as KindName[];

/**
 * The plan's order, derived from each kind's place (Kind.order): creates and updates first, the
 * kinds in their order; a kind outside the manifest's clients (a hosting plan) as a block, the
 * others walked in manifest order: each client followed by its domains (created or updated, then
 * their zones). Then deletes, the kinds in reverse order (domains before clients before hosting
 * plans), each kind's in the order given. Within a kind, changes keep the order given. Every
 * change comes after those it depends on (a parent domain created for a client listed later is
 * pulled ahead; a subdomain's delete goes before its parent's). Dependencies point only at kinds
 * placed before, at shorter domain names, or (for deletes) at longer ones of the same phase, or
 * from a zone's change at creates (nothing waits for a zone's change), so there are no cycles.
 *
 * `parts`: the changes, in the order given, as the planner made them in lists (read as one list,
 * never copied into one: memory, at 100,000 changes).
 */
export function orderChanges(desired: Desired, parts: readonly (readonly Change[])[]): Change[] {
  const all = afterCreatesBelow(parts);
  // The changes not yet placed, by id: each leaves the map as it is placed (no set of the
  // placed beside it: memory, at 100,000 changes).
  const byId = new Map<ChangeId, Change>();
  for (const part of all) for (const change of part) byId.set(change.id, change);
  const ordered: Change[] = [];
  // Iterative depth-first (a long chain of subdomains must not overflow the stack).
  const visit = (root: Change): void => {
    if (!byId.delete(root.id)) return;
    // Each change's `dependsOn` read once (a create may make it when read: kinds/domain/create.ts).
    type Frame = { change: Change; deps: readonly ChangeId[]; next: number };
    const frame = (change: Change): Frame => ({ change, deps: change.dependsOn, next: 0 });
    const stack: Frame[] = [frame(root)];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Frame;
      const dep = top.deps[top.next++];
      if (dep === undefined) {
        ordered.push(top.change);
        stack.pop();
        continue;
      }
      const first = byId.get(dep);
      if (first === undefined) continue;
      byId.delete(dep);
      stack.push(frame(first));
    }
  };
  // Each kind's changes of a phase, in the order given: a pass over the parts (no list by kind).
  const visitKind = (name: KindName, phase: 0 | 1): void => {
    for (const part of all)
      for (const change of part) if (change.type === name && phaseOf(change) === phase) visit(change);
  };
  let walked = false;
  for (const name of ORDER) {
    if (KINDS[name].order.at === undefined) visitKind(name, 0);
    else if (!walked) {
      walked = true;
      // In manifest order from the parts as they are when they already are (a first pass that
      // visits nothing says so); else through maps of the entries.
      if (walkParts(desired, all, () => undefined)) walkParts(desired, all, visit);
      else walkManifest(desired, all, visit);
    }
  }
  for (const name of [...ORDER].reverse()) visitKind(name, 1);
  return ordered;
}

/** Whether a change is a create or update of a kind walked at the manifest's entries of kind `at`. */
function walkedAt(change: Change, at: 'client' | 'domain'): boolean {
  return phaseOf(change) === 0 && kindOf(change).order.at === at;
}

/** The manifest entry a change of a walked kind stands under: its own name, or the one its kind names (Kind.placedAt). */
function entryOf(change: Change): string {
  return kindOf(change).placedAt?.(change) ?? change.name;
}

/** One part's changes walked at one kind of entry (`at`), in the order given, read from the front. */
class Run {
  private at = -1;
  /** The entry of the change in front (undefined: none left). */
  private entry: string | undefined;

  constructor(
    private readonly part: readonly Change[],
    private readonly kind: 'client' | 'domain',
  ) {
    this.next();
  }

  get done(): boolean {
    return this.entry === undefined;
  }

  /** The change in front when it stands under `entry`, taken off the front; else undefined. */
  take(entry: string): Change | undefined {
    if (this.entry !== entry) return undefined;
    const change = this.part[this.at];
    this.next();
    return change;
  }

  private next(): void {
    this.entry = undefined;
    for (this.at++; this.at < this.part.length; this.at++) {
      const change = this.part[this.at] as Change;
      if (!walkedAt(change, this.kind)) continue;
      this.entry = entryOf(change);
      return;
    }
  }
}

/**
 * walkManifest's walk, without its maps, when each part already lists the changes of the kinds
 * walked at clients (and those walked at domains) in manifest order, as the planner makes them:
 * at each entry, the changes in front of each part that stand under it. Visits them and says
 * true when that is walkManifest's order: every change was taken at its entry and no client's
 * entry had two; false, having stopped, when not. The
 * manifest lists each username and domain name once (src/manifest/build.ts), so an entry is
 * walked once.
 */
function walkParts(desired: Desired, parts: readonly (readonly Change[])[], visit: (change: Change) => void): boolean {
  const atClient = parts.map((part) => new Run(part, 'client')).filter((run) => !run.done);
  const atDomain = parts.map((part) => new Run(part, 'domain')).filter((run) => !run.done);
  if (atClient.length === 0 && atDomain.length === 0) return true;
  for (const client of desired.clients) {
    let taken: Change | undefined;
    for (const run of atClient)
      for (let change = run.take(client.username); change !== undefined; change = run.take(client.username)) {
        if (taken !== undefined) return false;
        taken = change;
      }
    if (taken !== undefined) visit(taken);
    if (atDomain.length === 0) continue;
    for (const domain of client.domains)
      for (const run of atDomain)
        for (let change = run.take(domain.name); change !== undefined; change = run.take(domain.name)) visit(change);
  }
  return atClient.every((run) => run.done) && atDomain.every((run) => run.done);
}

/**
 * The creates and updates of the kinds walked at the manifest's entries (Kind.order `at`), in
 * manifest order: at each client, those at its name (its own); then at each of its domains,
 * those at the domain's name (the domain's own, then its zone's), each after what it depends on.
 * Looked up by name, not by a built id: no string per manifest client. Those at no entry, after.
 */
function walkManifest(desired: Desired, parts: readonly (readonly Change[])[], visit: (change: Change) => void): void {
  // One change at most entries: an array only where there are more (memory, at 100,000
  // domains). Never one in place of another: a section's thing placed at clients by its own
  // name, named like a client, stands at that client's entry beside the client's own change.
  const atClient = new Map<string, Change | Change[]>();
  const atDomain = new Map<string, Change | Change[]>();
  for (const part of parts)
    for (const c of part) {
      if (phaseOf(c) !== 0) continue;
      const at = kindOf(c).order.at;
      if (at === undefined) continue;
      // The entry it stands under: its own name, or the one its kind names (Kind.placedAt).
      const entries = at === 'client' ? atClient : atDomain;
      const entry = entryOf(c);
      const list = entries.get(entry);
      if (list === undefined) entries.set(entry, c);
      else if (Array.isArray(list)) list.push(c);
      else entries.set(entry, [list, c]);
    }
  if (atClient.size === 0 && atDomain.size === 0) return;
  for (const client of desired.clients) {
    visitAll(atClient.get(client.username), visit);
    if (atDomain.size === 0) continue;
    for (const domain of client.domains) visitAll(atDomain.get(domain.name), visit);
  }
  // A change at no entry of the manifest (a kind's name that is no client's or domain's, as a
  // section's things are named) is never left out: after the walk, in the order given.
  for (const list of atClient.values()) visitAll(list, visit);
  for (const list of atDomain.values()) visitAll(list, visit);
}

/** Visits one change or each of several. */
function visitAll(changes: Change | readonly Change[] | undefined, visit: (change: Change) => void): void {
  if (changes === undefined) return;
  if (Array.isArray(changes)) for (const c of changes as readonly Change[]) visit(c);
  else visit(changes as Change);
}

/** The kind a change's id names (`domain:a.example` → `domain`). */
function kindOfId(id: ChangeId): string {
  return id.slice(0, id.indexOf(':'));
}

/**
 * Whether `change` only waits for `dep` (apply/walk.ts `waitsOnly`): a change whose kind waits for
 * the creates below its name (Kind.waitsForCreatesBelow: a zone's), for such a create of a kind
 * it is ordered after (afterCreatesBelow). One that failed added nothing the change must keep (or,
 * landed after all, makes the zone stale, nothing sent): the zone is written all the same.
 */
export function waitsOnly(change: Change, dep: ChangeId): boolean {
  const kind = kindOf(change);
  return kind.waitsForCreatesBelow && kind.order.after.includes(kindOfId(dep)) && dep.endsWith(`.${change.name}`);
}

/**
 * Each change whose kind waits for the creates below its name (a zone's) waits for the creates in
 * the same apply, of the kinds it is ordered after (domains), of the names below its own: a
 * subdomain's POST adds its records to its parent's zone, and the zone's PUT, built from a read
 * taken after them, must not drop them (the zone's write, kinds/zone/write.ts, keeps them). A
 * create below a zone that turns out to be a zone of its own costs an order, nothing more.
 */
function afterCreatesBelow(parts: readonly (readonly Change[])[]): readonly (readonly Change[])[] {
  const waiting = (c: Change): boolean => kindOf(c).waitsForCreatesBelow;
  // By the kind of the creates waited for, then the name they are below.
  const below = new Map<string, Map<string, ChangeId[]>>();
  for (const part of parts)
    for (const c of part) {
      if (phaseOf(c) !== 0 || !waiting(c)) continue;
      for (const after of kindOf(c).order.after) {
        const names = below.get(after) ?? new Map<string, ChangeId[]>();
        names.set(c.name, []);
        below.set(after, names);
      }
    }
  if (below.size === 0) return parts;
  for (const part of parts)
    for (const c of part) {
      const names = below.get(c.type);
      if (names === undefined || c.action !== 'create') continue;
      for (let dot = c.name.indexOf('.'); dot !== -1; dot = c.name.indexOf('.', dot + 1))
        names.get(c.name.slice(dot + 1))?.push(c.id);
    }
  const widened = (c: Change): Change => {
    if (phaseOf(c) !== 0 || !waiting(c)) return c;
    const creates = kindOf(c).order.after.flatMap((after) => below.get(after)?.get(c.name) ?? []);
    const added = creates.filter((id) => !c.dependsOn.includes(id));
    return added.length === 0 ? c : { ...c, dependsOn: [...c.dependsOn, ...added] };
  };
  // Only the parts holding a change that waits are copied.
  return parts.map((part) => (part.some(waiting) ? part.map(widened) : part));
}
