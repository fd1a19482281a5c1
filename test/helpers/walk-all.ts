import { walk, type Visited } from '../../src/apply/walk.js';

/** walk, with what it tells of each node gathered: the results in the order the nodes ended. */
export async function walkAll<Id extends string, N extends { readonly id: Id; readonly dependsOn: readonly Id[] }, R>(
  nodes: readonly N[],
  visit: Parameters<typeof walk<Id, N, R>>[1],
  options: Omit<Parameters<typeof walk<Id, N, R>>[2], 'onVisited'> & {
    readonly onVisited?: (visited: Visited<N, Id, R>) => void;
  },
): Promise<Visited<N, Id, R>[]> {
  const results: Visited<N, Id, R>[] = [];
  await walk(nodes, visit, {
    ...options,
    onVisited: (visited) => {
      results.push(visited);
      options.onVisited?.(visited);
    },
  });
  return results;
}
