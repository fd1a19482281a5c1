import pLimit from 'p-limit';
import { quote } from '../escape.js';
import { messageOf } from '../util.js';
import { ProvisionError } from '../errors.js';
import type { FailureCode } from '../plan/outcome.js';

/** A unit of work and the ones that must succeed before it starts. */
interface WalkNode<Id extends string> {
  readonly id: Id;
  readonly dependsOn: readonly Id[];
}

/**
 * What happened to one node. A failure carries its error's one-line message, and its machine
 * code when the error has one (a ProvisionError's, `zone_changed`).
 */
export type Visited<N, Id, R> =
  | { readonly node: N; readonly status: 'succeeded'; readonly value: R }
  | { readonly node: N; readonly status: 'failed'; readonly error: string; readonly code?: FailureCode }
  | { readonly node: N; readonly status: 'skipped'; readonly because: Id | 'interrupted' };

/**
 * What a visit runs its requests through: at most `concurrency` at once, over all visits. A
 * visit's other work (the secrets file's flushes before and after its request) runs outside
 * it, so a flush never keeps a request from being sent.
 */
export interface Slot {
  /**
   * Runs `work` once a place is free. After an abort it runs nothing and throws Interrupted:
   * for the visit's first request the node is then skipped as 'interrupted' (nothing of it
   * was sent); for a later one it is a failure that says so.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/** The slot of work done outside a walk (a change applied alone): runs `work` at once. */
export const NO_SLOT: Slot = { run: (work) => work() };

/**
 * An error's machine code: a ProvisionError's (`panel_http`), or an object changed since the plan
 * (a zone: kinds/zone/write.ts; a domain's settings, a hosting plan: whole-write.ts); else undefined.
 */
function codeOf(error: unknown): FailureCode | undefined {
  if (error instanceof ProvisionError) return error.code;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return code === 'zone_changed' || code === 'object_changed' ? code : undefined;
}

/** Thrown by Slot.run after an abort, instead of starting the work. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted: not sent');
    this.name = 'Interrupted';
  }
}

interface WalkOptions<N, Id, R> {
  /** How many requests (Slot.run) may run at once, over all visits (at least 1). */
  readonly concurrency: number;
  /**
   * false (default): a visit holds a slot from its start to its end, so at most `concurrency`
   * visits run at once, and each is reported before its slot is given to the next node (an
   * abort from onVisited stops that one). true: a visit holds a slot only inside Slot.run, for
   * each request; at most twice `concurrency` visits are under way (waiting for a slot,
   * holding one, or doing their other work), which bounds the work begun ahead of a request
   * (a password written ahead of a POST not sent yet).
   */
  readonly perRequest?: boolean;
  /**
   * Whether `node` only waits for `dep`: it starts once `dep` is done, whether that succeeded,
   * failed or was skipped (not interrupted). Default: it needs `dep` to succeed.
   */
  readonly waitsOnly?: (node: N, dep: Id) => boolean;
  /** Aborted: nodes not yet visited are skipped as 'interrupted'; visits under way finish. */
  readonly signal?: AbortSignal;
  /** Called as each node is done (succeeded, failed or skipped), in that order. */
  readonly onVisited?: (visited: Visited<N, Id, R>) => void;
}

/**
 * Visits every node of a dependency graph once, knowing nothing of what a node is (the model is
 * Terraform's dag/walk.go): a node starts once all it depends on have succeeded, ready nodes
 * in the order given; its requests go through a Slot (at most `concurrency` at a time over
 * all visits), at most `visits` visits under way. A failure (the visit throws) skips
 * its dependents, transitively, and nothing else; a skip names the node that failed (or
 * 'interrupted'). Nothing throws for a failed node: the results, one per node in the order they
 * finished, say what happened.
 *
 * Throws before visiting anything when the graph is not one: an id twice, a dependency that is
 * not a node, a cycle.
 */
export async function walk<Id extends string, N extends WalkNode<Id>, R>(
  nodes: readonly N[],
  visit: (node: N, slot: Slot) => Promise<R>,
  options: WalkOptions<N, Id, R>,
): Promise<Visited<N, Id, R>[]> {
  const { byId, order } = checkGraph(nodes);
  const concurrency = Math.max(1, options.concurrency);
  const perRequest = options.perRequest === true;
  const requests = pLimit(concurrency);
  const visits = perRequest ? pLimit(2 * concurrency) : requests;
  const aborted = (): boolean => options.signal?.aborted === true;
  const results: Visited<N, Id, R>[] = [];
  const started = new Map<Id, Promise<Visited<N, Id, R>>>();

  const done = (visited: Visited<N, Id, R>): Visited<N, Id, R> => {
    results.push(visited);
    options.onVisited?.(visited);
    return visited;
  };

  const run = async (node: N): Promise<Visited<N, Id, R>> => {
    if (aborted()) return { node, status: 'skipped', because: 'interrupted' };
    /** Whether a request of this visit has started (set inside Slot.run). */
    const state = { sent: false };
    const slot: Slot = {
      run: <T>(work: () => Promise<T>): Promise<T> => {
        const once = (): Promise<T> => {
          if (aborted()) throw new Interrupted();
          state.sent = true;
          return work();
        };
        // Without perRequest the visit holds its slot already.
        return perRequest ? requests(once) : Promise.resolve().then(once);
      },
    };
    try {
      return { node, status: 'succeeded', value: await visit(node, slot) };
    } catch (error) {
      if (!state.sent && error instanceof Interrupted) return { node, status: 'skipped', because: 'interrupted' };
      const code = codeOf(error);
      return { node, status: 'failed', error: messageOf(error), ...(code === undefined ? {} : { code }) };
    }
  };

  const start = async (node: N): Promise<Visited<N, Id, R>> => {
    for (const dep of node.dependsOn) {
      const before = await resultOf(dep);
      if (before.status === 'succeeded') continue;
      if (before.status === 'failed' && options.waitsOnly?.(node, dep) !== true)
        return done({ node, status: 'skipped', because: dep });
      if (before.status === 'skipped' && (before.because === 'interrupted' || options.waitsOnly?.(node, dep) !== true))
        return done({ node, status: 'skipped', because: before.because });
    }
    // Reported before its place is given to the next node: without perRequest, an abort from
    // onVisited stops that one.
    return visits(async () => done(await run(node)));
  };

  const resultOf = (id: Id): Promise<Visited<N, Id, R>> => {
    let result = started.get(id);
    if (result === undefined) {
      // checkGraph has made sure every dependency is a node.
      result = start(byId.get(id) as N);
      started.set(id, result);
    }
    return result;
  };

  // Dependencies first, so that starting a node never has to start a chain of others. In
  // slices, with a turn of the event loop between them: the first visits begin (their requests
  // leave) while the rest are started, instead of after all of them (30,000 nodes: about 100 ms).
  const all: Promise<Visited<N, Id, R>>[] = [];
  const failure = { seen: false };
  for (const [i, node] of order.entries()) {
    const result = resultOf(node.id);
    // Seen here and by Promise.all below (an onVisited that throws): not unhandled while later
    // slices start, and no later slice starts after it.
    result.catch(() => {
      failure.seen = true;
    });
    all.push(result);
    if (i % START_SLICE === START_SLICE - 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (failure.seen) break;
    }
  }
  await Promise.all(all);
  return results;
}

/** How many nodes walk starts before it lets the visits begun so far go on. */
const START_SLICE = 256;

/**
 * The nodes by id, once the graph is known to be one (see walk), and in an order where each
 * comes after its dependencies: the given order when it is one already.
 */
function checkGraph<Id extends string, N extends WalkNode<Id>>(nodes: readonly N[]): { byId: Map<Id, N>; order: N[] } {
  const byId = new Map<Id, N>();
  for (const node of nodes) {
    if (byId.has(node.id)) throw new Error(`${quote(node.id)} appears twice in the graph`);
    byId.set(node.id, node);
  }
  for (const node of nodes) {
    for (const dep of node.dependsOn) {
      if (!byId.has(dep)) throw new Error(`${quote(node.id)} depends on ${quote(dep)}, which is not in the graph`);
    }
  }
  // Depth-first, without recursion (a long chain must not overflow the stack): 1 on the path, 2 done.
  const state = new Map<Id, 1 | 2>();
  const order: N[] = [];
  for (const root of nodes) {
    if (state.has(root.id)) continue;
    const stack: { node: N; next: number }[] = [{ node: root, next: 0 }];
    state.set(root.id, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: N; next: number };
      const dep = top.node.dependsOn[top.next++];
      if (dep === undefined) {
        state.set(top.node.id, 2);
        order.push(top.node);
        stack.pop();
      } else if (state.get(dep) === 1) {
        throw new Error(`${quote(dep)} depends on itself through ${quote(top.node.id)}: the graph has a cycle`);
      } else if (!state.has(dep)) {
        state.set(dep, 1);
        stack.push({ node: byId.get(dep) as N, next: 0 });
      }
    }
  }
  return { byId, order };
}
