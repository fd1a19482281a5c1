/**
 * A hosting plan's create carried out: `POST /hosting-plans`, its id kept for the clients
 * created on it in the same run. A POST whose answer was lost is settled by the plan's name
 * (names are unique on the panel): found, it was created; not found, the failure stands.
 */
import { quote } from '../escape.js';
import { type CreateHostingPlan } from '../kinds/hosting-plan.js';
import type { PanelClient } from '../panel/client.js';
import { findHostingPlan } from '../panel/read.js';
import { ambiguity } from '../panel/retry.js';
import { requestFor } from '../plan/requests.js';
import { idOf } from './create-failures.js';
import type { Applied } from './execute.js';
import { send } from './send.js';
import type { Slot } from './walk.js';

/** Creates plans; `ids` holds the id of each plan created in this run. */
export function planCreator(
  panel: PanelClient,
  signal: AbortSignal | undefined,
  tell: (message: string) => void,
): {
  create(change: CreateHostingPlan, slot: Slot): Promise<Applied>;
  /** The plans created in this run, by name. */
  readonly ids: ReadonlyMap<string, number>;
} {
  const ids = new Map<string, number>();
  const create = async (change: CreateHostingPlan, slot: Slot): Promise<Applied> => {
    const request = requestFor(change);
    const described = panel.describe(request.method, request.path);
    /** The plan's id, by its name (names are unique on the panel); undefined when it is not there. */
    const lookUp = async (): Promise<number | undefined> =>
      (await slot.run(() => findHostingPlan(panel, change.name)))?.id;
    let answer: unknown;
    try {
      answer = await slot.run(() => send(panel, request, signal));
    } catch (error) {
      const why = ambiguity(error);
      if (why === undefined) throw error;
      tell(`${described} for hosting plan ${quote(change.name)} ${why}: looking it up by name`);
      const id = await lookUp();
      if (id === undefined) throw error;
      return { id, note: `the answer was lost (${why}), but the plan is there` };
    }
    try {
      return { id: idOf(answer, described) };
    } catch (error) {
      // Created (a 2xx), but the answer names no id: its name does.
      const id = await lookUp();
      if (id === undefined) throw error;
      return { id, note: 'the answer had no id: looked the plan up by name' };
    }
  };
  return {
    async create(change, slot) {
      const applied = await create(change, slot);
      ids.set(change.name, applied.id);
      return applied;
    },
    ids,
  };
}
