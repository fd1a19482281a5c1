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
  /**
   * Told each node as it is done (succeeded, failed or skipped), in that order: what happened
   * to a node is only told, never kept (a plan of 90,000 changes kept 5 MB of results its
   * caller had already taken).
   */
  readonly onVisited: (visited: Visited<N, Id, R>) => void;
}

/**
 * Visits every node of a dependency graph once, knowing nothing of what a node is (the model is
 * Terraform's dag/walk.go): a node starts once all it depends on have succeeded, ready nodes
 * in the order they became ready (at the start, and among those one node's end makes ready, in
 * the order given); its requests go through a Slot (at most `concurrency` at a time over all
 * visits), at most `visits` visits under way. A failure (the visit throws) skips its
 * dependents, transitively, and nothing else; a skip names the node that failed (or
 * 'interrupted'). Nothing throws for a failed node: onVisited is told of each node as it ends,
 * and that says what happened.
 *
 * What waits holds no promise: a node is a count of the dependencies it still waits for and its
 * place in a queue, and only the visits under way are promises (a plan of 60,000 creates held
 * an async function, its promises and closures for every change, about 1 kB each).
 *
 * Throws before visiting anything when the graph is not one: an id twice, a dependency that is
 * not a node, a cycle.
 */
export async function walk<Id extends string, N extends WalkNode<Id>, R>(
  nodes: readonly N[],
  visit: (node: N, slot: Slot) => Promise<R>,
  options: WalkOptions<N, Id, R>,
): Promise<void> {
  const graph = checkGraph(nodes);
  const concurrency = Math.max(1, options.concurrency);
  const perRequest = options.perRequest === true;
  const requests = pLimit(concurrency);
  const aborted = (): boolean => options.signal?.aborted === true;
  const visiting = new Visiting(graph, perRequest ? 2 * concurrency : concurrency);

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

  /** Whether `dependent` may still start after `dep` ended as `result` (else: skipped, because). */
  const blocks = (dependent: N, dep: N, result: Visited<N, Id, R>): Id | 'interrupted' | undefined => {
    if (result.status === 'succeeded') return undefined;
    if (result.status === 'failed') return options.waitsOnly?.(dependent, dep.id) === true ? undefined : dep.id;
    return result.because === 'interrupted' || options.waitsOnly?.(dependent, dep.id) !== true
      ? result.because
      : undefined;
  };

  return new Promise((resolve, reject) => {
    let failed = false;
    /** The walk fails (an onVisited that throws; a visit's error that cannot be told): nothing new starts. */
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      // What was thrown, as an Error (one that cannot be made a string still ends the walk).
      let reason: Error;
      try {
        reason = error instanceof Error ? error : new Error(String(error));
      } catch {
        reason = new Error('a visit or its report threw a value that is not an Error');
      }
      reject(reason);
    };
    /** Node `at` ended as `visited`: told, and so are the dependents its end skips, transitively. */
    const end = (at: number, visited: Visited<N, Id, R>): void => {
      // In the order they end: the node, then what it skips, in the order given, then theirs.
      const ending: [number, Visited<N, Id, R>][] = [[at, visited]];
      for (let k = 0; k < ending.length; k++) {
        const [i, result] = ending[k] as [number, Visited<N, Id, R>];
        options.onVisited(result);
        const dep = graph.nodes[i] as N;
        for (const d of visiting.ended(i, (d) => blocks(graph.nodes[d] as N, dep, result) !== undefined)) {
          const node = graph.nodes[d] as N;
          ending.push([d, { node, status: 'skipped', because: blocks(node, dep, result) as Id | 'interrupted' }]);
        }
      }
    };
    const pump = (): void => {
      if (failed) return;
      if (visiting.done) {
        resolve();
        return;
      }
      for (let i = visiting.take(); i !== undefined; i = visiting.take()) {
        const at = i;
        void run(graph.nodes[at] as N).then((visited) => {
          if (failed) return;
          try {
            // Reported before its place is given to the next node: without perRequest, an
            // abort from onVisited stops that one.
            end(at, visited);
          } catch (error) {
            fail(error);
            return;
          }
          visiting.left();
          pump();
        }, fail);
      }
    };
    pump();
  });
}

/** A graph once checked (checkGraph): its nodes as given, and by index what walk keeps of each. */
interface Graph<N> {
  readonly nodes: readonly N[];
  /**
   * The indexes in an order where each node comes after its dependencies: the given one when it
   * is one already (then Visiting's queue).
   */
  readonly order: Int32Array;
  /** How many dependencies each node has (one listed twice counts twice; then Visiting's counts). */
  readonly waiting: Int32Array;
  /** The dependents of node i are `dependents[from[i]]` up to `dependents[from[i + 1]]`, in `order`. */
  readonly from: Int32Array;
  readonly dependents: Int32Array;
}

/**
 * The walk's bookkeeping, a number or two per node: how many dependencies each still waits for,
 * the ready nodes (a queue), how many visits are under way, and how many nodes have ended.
 */
class Visiting {
  /** Per node: its dependencies not ended yet; -1 once it is queued (then started and ended) or skipped. */
  private readonly waiting: Int32Array;
  /** The ready nodes, in the order queued, from `head` to `tail`: each node is queued at most once. */
  private readonly ready: Int32Array;
  private head = 0;
  private tail = 0;
  private underWay = 0;
  private endedCount = 0;

  constructor(
    private readonly graph: Graph<unknown>,
    private readonly limit: number,
  ) {
    // The graph is this walk's own (checkGraph made it for it): its counts are counted down in
    // place, and its order becomes the queue, the nodes that wait for nothing written over it
    // from the front, never ahead of the place read (a copy of each was 8 bytes a node more).
    this.waiting = graph.waiting;
    this.ready = graph.order;
    for (const i of graph.order) if (this.waiting[i] === 0) this.queue(i);
  }

  /** Every node has ended. */
  get done(): boolean {
    return this.endedCount === this.graph.nodes.length;
  }

  /** The next ready node when a visit may start (it is then under way), else undefined. */
  take(): number | undefined {
    if (this.underWay >= this.limit || this.head === this.tail) return undefined;
    this.underWay++;
    return this.ready[this.head++];
  }

  /** A visit under way has ended and been told: its place is free. */
  left(): void {
    this.underWay--;
  }

  /**
   * Node `i` ended: each dependent that `blocked` says may not start is skipped (returned:
   * it ends now), each other one counted, and queued when it waits for nothing more.
   */
  ended(i: number, blocked: (dependent: number) => boolean): number[] {
    this.endedCount++;
    const { dependents, from } = this.graph;
    const waiting = this.waiting;
    const skipped: number[] = [];
    for (let k = from[i] as number; k < (from[i + 1] as number); k++) {
      const d = dependents[k] as number;
      const left = waiting[d] as number;
      if (left === -1) continue;
      if (blocked(d)) {
        waiting[d] = -1;
        skipped.push(d);
      } else if (left === 1) this.queue(d);
      else waiting[d] = left - 1;
    }
    return skipped;
  }

  private queue(i: number): void {
    this.waiting[i] = -1;
    this.ready[this.tail++] = i;
  }
}

/**
 * The graph of `nodes` once it is known to be one (see walk): what walk keeps of it, by index.
 */
function checkGraph<Id extends string, N extends WalkNode<Id>>(nodes: readonly N[]): Graph<N> {
  const index = new Map<Id, number>();
  for (const [i, node] of nodes.entries()) {
    if (index.has(node.id)) throw new Error(`${quote(node.id)} appears twice in the graph`);
    index.set(node.id, i);
  }
  const waiting = new Int32Array(nodes.length);
  const from = new Int32Array(nodes.length + 1);
  for (const [i, node] of nodes.entries()) {
    for (const dep of node.dependsOn) {
      const at = index.get(dep);
      if (at === undefined) throw new Error(`${quote(node.id)} depends on ${quote(dep)}, which is not in the graph`);
      waiting[i] = (waiting[i] as number) + 1;
      from[at + 1] = (from[at + 1] as number) + 1;
    }
  }
  for (let i = 0; i < nodes.length; i++) from[i + 1] = (from[i + 1] as number) + (from[i] as number);
  const order = topological(nodes, index);
  // Each dependency's dependents in `order`: those its end makes ready start in that order.
  const dependents = new Int32Array(from[nodes.length] as number);
  const filled = from.slice(0, nodes.length);
  for (const i of order)
    for (const dep of (nodes[i] as N).dependsOn) {
      const at = index.get(dep) as number;
      const k = filled[at] as number;
      dependents[k] = i;
      filled[at] = k + 1;
    }
  return { nodes, order, waiting, from, dependents };
}

/**
 * The indexes of `nodes` in an order where each comes after its dependencies: the given order
 * when it is one already. Throws on a cycle. Depth-first, without recursion (a long chain must
 * not overflow the stack).
 */
function topological<Id extends string>(nodes: readonly WalkNode<Id>[], index: ReadonlyMap<Id, number>): Int32Array {
  /** 1 on the path, 2 done. */
  const state = new Uint8Array(nodes.length);
  const order = new Int32Array(nodes.length);
  let placed = 0;
  // Each node's `dependsOn` read once a visit (a change may make it when read: kinds/domain/create.ts).
  type Frame = { at: number; deps: readonly Id[]; next: number };
  const stack: Frame[] = [];
  const frame = (at: number): Frame => ({ at, deps: (nodes[at] as WalkNode<Id>).dependsOn, next: 0 });
  for (let root = 0; root < nodes.length; root++) {
    if (state[root] !== 0) continue;
    stack.push(frame(root));
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Frame;
      const dep = top.deps[top.next++];
      if (dep === undefined) {
        state[top.at] = 2;
        order[placed++] = top.at;
        stack.pop();
        continue;
      }
      const at = index.get(dep) as number;
      if (state[at] === 1)
        throw new Error(
          `${quote(dep)} depends on itself through ${quote((nodes[top.at] as WalkNode<Id>).id)}: the graph has a cycle`,
        );
      if (state[at] === 0) {
        state[at] = 1;
        stack.push(frame(at));
      }
    }
  }
  return order;
}
