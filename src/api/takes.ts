/**
 * The lists a planned delete takes things of, read only when such a delete is planned (a plan
 * without one sends no request more): after the diff, each taken kind's list the first read did
 * not hold is read on its own (readLive's `again`: no GET /ping, only that list), and the plan's
 * deletes carry their counts (plan/takes.ts). A panel without such a list (404, 405) leaves that
 * kind's count unknown, as before.
 */
import type { ReadKindName } from '../kinds/index.js';
import { type Live, type PanelClient, PanelHttpError, readLive, type ReadLiveOptions } from '../panel/index.js';
import { takesAsks, withTakes } from '../plan/takes.js';
import type { Plan } from '../plan/types.js';

/** `plan` with what its deletes take counted, `live` with the lists read for it, and the kinds whose lists were read. */
export async function countTaken(
  panel: PanelClient,
  plan: Plan,
  live: Live,
): Promise<{ plan: Plan; live: Live; read: readonly string[] }> {
  const asks = takesAsks(plan, live);
  if (asks.length === 0) return { plan: withTakes(plan, live), live, read: [] };
  const reads = await Promise.all(
    asks.map(async ({ kind, ask }) => {
      try {
        // Only the kind's own ask matters: `again` reads that kind alone.
        const options = ask as unknown as ReadLiveOptions;
        return await readLive(panel, options, { live, kinds: [kind as ReadKindName] });
      } catch (err) {
        // A panel without the list: what goes with the delete stays uncounted.
        if (err instanceof PanelHttpError && (err.status === 404 || err.status === 405)) return undefined;
        throw err;
      }
    }),
  );
  const parts: Record<string, unknown> = { ...live };
  const read: string[] = [];
  asks.forEach(({ kind }, i) => {
    const again = reads[i];
    if (again === undefined) return;
    parts[kind] = (again as unknown as Readonly<Record<string, unknown>>)[kind];
    read.push(kind);
  });
  const counted = parts as unknown as Live;
  return { plan: withTakes(plan, counted), live: counted, read };
}
