/**
 * A hosting plan's create and update carried out. Create: `POST /hosting-plans`, its id kept for
 * the clients created on it in the same run; a POST whose answer was lost is settled by the plan's
 * name (names are unique on the panel): found, it was created; not found, the failure stands.
 * Update: a whole-object write (whole-write.ts): the plan is read again just before its PUT
 * (`GET /hosting-plans/{id}`) and each object it sends is built from that read with only the
 * change's keys written; a key the change writes that moved since the plan read it fails the
 * change as stale (nothing sent); any other key is carried as it is now.
 */
import { jsonText, quote } from '../escape.js';
import { type CreateHostingPlan, type UpdateHostingPlan } from '../kinds/hosting-plan.js';
import { planLanded, rebuildPlanBody } from '../kinds/hosting-plan/rebuild.js';
import type { PanelClient } from '../panel/client.js';
import { readHostingPlanById } from '../panel/object-reads.js';
import { findHostingPlan } from '../panel/read.js';
import { ambiguity } from '../panel/retry.js';
import { requestFor } from '../plan/requests.js';
import { idOf } from './create-failures.js';
import type { Applied } from './execute.js';
import { send } from './send.js';
import type { Slot } from './walk.js';
import { writeManagedKeys } from './whole-write.js';

/** Creates plans. */
export function planCreator(
  panel: PanelClient,
  signal: AbortSignal | undefined,
  tell: (message: string) => void,
): {
  create(change: CreateHostingPlan, slot: Slot): Promise<Applied>;
} {
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
  return { create };
}

/** Carries out hosting plan updates (see the file's comment). */
export function planUpdater(
  panel: PanelClient,
  signal: AbortSignal | undefined,
  tell: (message: string) => void,
): (change: UpdateHostingPlan, slot: Slot) => Promise<Applied> {
  return (change, slot) =>
    writeManagedKeys(
      panel,
      {
        what: `hosting plan ${quote(change.name)}`,
        id: change.planId,
        read: () => readHostingPlanById(panel, change.planId),
        rebuild: (fresh) => rebuildPlanBody(change.fields, fresh.objects),
        request: (body) => requestFor({ ...change, body }),
        landed: (now) => planLanded(change.fields, now.objects),
        show: jsonText,
        unread: 'not in its record now',
      },
      slot,
      signal,
      tell,
    );
}
