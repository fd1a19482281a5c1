import pLimit from 'p-limit';
import { quote } from '../escape.js';
import { messageOf } from '../util.js';

/** A unit of work and the ones that must succeed before it starts. */
export interface WalkNode<Id extends string> {
  readonly id: Id;
  readonly dependsOn: readonly Id[];
}

/** What happened to one node. A failure carries its error's one-line message. */
export type Visited<N, Id, R> =
  | { readonly node: N; readonly status: 'succeeded'; readonly value: R }
  | { readonly node: N; readonly status: 'failed'; readonly error: string }
  | { readonly node: N; readonly status: 'skipped'; readonly because: Id | 'interrupted' };

export interface WalkOptions<N, Id, R> {
  /** How many visits may run at once (at least 1). */
  readonly concurrency: number;
  /** Aborted: nodes not yet visited are skipped as 'interrupted'; visits under way finish. */
  readonly signal?: AbortSignal;
  /** Called as each node is done (succeeded, failed or skipped), in that order. */
  readonly onVisited?: (visited: Visited<N, Id, R>) => void;
}

/**
 * Visits every node of a dependency graph once, knowing nothing of what a node is (the model is
 * Terraform's dag/walk.go): a node starts once all it depends on have succeeded, at most
 * `concurrency` at a time, ready nodes in the order given. A failure (the visit throws) skips
 * its dependents, transitively, and nothing else; a skip names the node that failed (or
 * 'interrupted'). Nothing throws for a failed node: the results, one per node in the order they
 * finished, say what happened.
 *
 * Throws before visiting anything when the graph is not one: an id twice, a dependency that is
 * not a node, a cycle.
 */
export async function walk<Id extends string, N extends WalkNode<Id>, R>(
  nodes: readonly N[],
  visit: (node: N) => Promise<R>,
  options: WalkOptions<N, Id, R>,
): Promise<Visited<N, Id, R>[]> {
  const { byId, order } = checkGraph(nodes);
  const limit = pLimit(Math.max(1, options.concurrency));
  const results: Visited<N, Id, R>[] = [];
  const started = new Map<Id, Promise<Visited<N, Id, R>>>();

  const done = (visited: Visited<N, Id, R>): Visited<N, Id, R> => {
    results.push(visited);
    options.onVisited?.(visited);
    return visited;
  };

  const run = async (node: N): Promise<Visited<N, Id, R>> => {
    if (options.signal?.aborted === true) return { node, status: 'skipped', because: 'interrupted' };
    try {
      return { node, status: 'succeeded', value: await visit(node) };
    } catch (error) {
      return { node, status: 'failed', error: messageOf(error) };
    }
  };

  const start = async (node: N): Promise<Visited<N, Id, R>> => {
    for (const dep of node.dependsOn) {
      const before = await resultOf(dep);
      if (before.status === 'failed') return done({ node, status: 'skipped', because: dep });
      if (before.status === 'skipped') return done({ node, status: 'skipped', because: before.because });
    }
    // Reported before its slot is given to the next node: an abort from onVisited stops that one.
    return limit(async () => done(await run(node)));
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

  // Dependencies first, so that starting a node never has to start a chain of others.
  await Promise.all(order.map((node) => resultOf(node.id)));
  return results;
}

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
