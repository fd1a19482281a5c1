/**
 * A hosting plan's changes carried out, through what the apply stage hands in (../apply.ts).
 * Create: `POST /hosting-plans`, its id kept for the clients created on it in the same run; a POST
 * whose answer was lost is settled by the plan's name (names are unique on the panel): found, it
 * was created; not found, the failure stands. Update: a whole-object write (apply/whole-write.ts):
 * the plan is read again just before its PUT (`GET /hosting-plans/{id}`) and each object it sends
 * is built from that read with only the change's keys written; a key the change writes that moved
 * since the plan read it fails the change as stale (nothing sent); any other key is carried as it
 * is now. Delete: only when no client is on the plan, read again just before the DELETE.
 */
import { jsonText, quote } from '../../escape.js';
import { plural } from '../../util.js';
import type { Applied, ApplyStage } from '../apply.js';
import type { KindApply } from '../kind.js';
import {
  type CreateHostingPlan,
  type DeleteHostingPlan,
  type HostingPlanChange,
  hostingPlanRequest,
} from './changes.js';
import { clientsOnPlan } from './diff.js';
import { planLanded, rebuildPlanBody } from './rebuild.js';

/** How apply carries out a hosting plan's changes (Kind.apply). */
export const HOSTING_PLAN_APPLY: KindApply<HostingPlanChange> = {
  create: createPlan,
  update: (change, stage) =>
    stage.writeManagedKeys({
      what: `hosting plan ${quote(change.name)}`,
      id: change.planId,
      read: () => stage.lookUp.hostingPlanById(change.planId),
      rebuild: (fresh) => rebuildPlanBody(change.fields, fresh.objects),
      request: (body) => hostingPlanRequest({ ...change, body }),
      landed: (now) => planLanded(change.fields, now.objects),
      show: jsonText,
      unread: 'not in its record now',
    }),
  delete: {
    id: (change) => change.planId,
    before: stillUnused,
    stillThere: async (change, stage) => (await stage.lookUp.hostingPlanNamed(change.name))?.id === change.planId,
  },
};

async function createPlan(change: CreateHostingPlan, stage: ApplyStage): Promise<Applied> {
  const request = hostingPlanRequest(change);
  const described = stage.panel.describe(request.method, request.path);
  /** The plan's id, by its name (names are unique on the panel); undefined when it is not there. */
  const lookUp = async (): Promise<number | undefined> =>
    (await stage.run(() => stage.lookUp.hostingPlanNamed(change.name)))?.id;
  let answer: unknown;
  try {
    answer = await stage.send(request);
  } catch (error) {
    const why = stage.ambiguity(error);
    if (why === undefined) throw error;
    stage.tell(`${described} for hosting plan ${quote(change.name)} ${why}: looking it up by name`);
    const id = await lookUp();
    if (id === undefined) throw error;
    return { id, note: `the answer was lost (${why}), but the plan is there` };
  }
  try {
    return { id: stage.idOf(answer, described) };
  } catch (error) {
    // Created (a 2xx), but the answer names no id: its name does.
    const id = await lookUp();
    if (id === undefined) throw error;
    return { id, note: 'the answer had no id: looked the plan up by name' };
  }
}

/**
 * A plan is deleted only when no client is on it (docs/manifest.md): its clients are read again
 * just before the DELETE, since a move off it that failed in this run leaves one there; the
 * panel's refusal is not relied on. A list that does not say who is on it: the panel decides.
 */
async function stillUnused(change: DeleteHostingPlan, stage: ApplyStage): Promise<void> {
  const clients = await stage.run(() => stage.lookUp.clients());
  const on = clientsOnPlan(change.planId, clients);
  if (on === null || on.length === 0) return;
  throw new Error(
    `hosting plan ${quote(change.name)} still has ${plural(on.length, 'client')} on it ` +
      `(${on
        .slice(0, 5)
        .map((n) => quote(n))
        .join(', ')}${on.length > 5 ? ', ...' : ''}): nothing was sent to delete it`,
  );
}
