import { ProvisionError } from '../errors.js';
import type { PanelClient } from '../panel/client.js';
import { PanelHttpError } from '../panel/errors.js';
import { findClientById, findDomain, findHostingPlan } from '../panel/read.js';
import { readRecords } from '../panel/list-read.js';
import { parseClientRecord } from '../panel/records.js';
import { clientsOnPlan } from '../kinds/hosting-plan.js';
import { quote } from '../escape.js';
import { ambiguity } from '../panel/retry.js';
import { createsClients } from '../plan/guards.js';
import { requestFor } from '../plan/requests.js';
import type {
  Change,
  ChangeId,
  DeleteClient,
  DeleteDomain,
  DeleteHostingPlan,
  UpdateClient,
  UpdateDomain,
  UpdateHostingPlan,
} from '../plan/types.js';
import { domainUpdater } from './domain-update.js';
import { planCreator, planUpdater } from './hosting-plan.js';
import { zoneWriter } from './zone.js';
import { assertNever, messageOf, plural } from '../util.js';
import type { PanelAdapterOptions } from './adapter-options.js';
import { creator } from './create.js';
import { send } from './send.js';
import { NO_SLOT, type Slot } from './walk.js';
import type { Applied, ChangeAdapter } from './execute.js';

/**
 * The ChangeAdapter apply uses against a real panel: each change is sent as exactly the request
 * plan/requests.ts makes of it.
 *
 * - Creates: apply/create.ts (write-ahead passwords, adoption after an ambiguous answer,
 *   settling). With `newPassword` a POST /clients carries its request's body plus the
 *   `password` made for it, added as it is sent: the plan never holds one.
 * - Updates: `PUT /clients/{id}` with the fields that differ; the client retries it where a
 *   repeat is safe (it is idempotent). Any 2xx is done, whatever its body. Whole-object writes
 *   (whole-write.ts: built from a read just before them, never resent as they were): a domain's
 *   settings with a nested object (domain-update.ts), a hosting plan's objects (hosting-plan.ts),
 *   a zone's records (zone.ts).
 * - Deletes: `DELETE /clients/{id}` or `/domains/{id}`, retried the same way. A 404 means it is
 *   gone already: done, with a note. When no answer came (after the retries), the record is
 *   read back: gone means done; still there, the failure stands.
 */
export function panelAdapter(panel: PanelClient, options: PanelAdapterOptions): ChangeAdapter {
  const tell = (message: string): void => options.onEvent?.({ type: 'note', message });
  /** The ids of what this run created, by change id: what a later change names takes them from here. */
  const newIds = new Map<ChangeId, number>();
  const plans = planCreator(panel, options.signal, tell);
  const creates = creator(panel, options, newIds);
  const writeZone = zoneWriter(panel, (name) => creates.domainIdOf(name), options.signal, tell);

  const updateDomain = domainUpdater(panel, options.signal, tell);
  const updatePlan = planUpdater(panel, options.signal, tell);

  const update = async (change: UpdateClient | UpdateDomain | UpdateHostingPlan, slot: Slot): Promise<Applied> => {
    switch (change.type) {
      case 'client':
        // Fields that differ, each whole: a partial PUT, retried as any idempotent request.
        await slot.run(() => send(panel, requestFor(change, newIds), options.signal));
        return { id: change.clientId };
      case 'domain':
        return updateDomain(change, slot);
      case 'hosting_plan':
        return updatePlan(change, slot);
      default:
        return assertNever(change);
    }
  };

  /**
   * A plan is deleted only when no client is on it (design.md): its clients are read again just
   * before the DELETE, since a move off it that failed in this run leaves one there; the panel's
   * refusal is not relied on. A list that does not say who is on it: the panel decides.
   */
  const stillUnused = async (change: DeleteHostingPlan, slot: Slot): Promise<void> => {
    const clients = await slot.run(() => readRecords(panel, '/clients', parseClientRecord));
    const on = clientsOnPlan(change.planId, clients);
    if (on === null || on.length === 0) return;
    throw new Error(
      `hosting plan ${quote(change.name)} still has ${plural(on.length, 'client')} on it ` +
        `(${on
          .slice(0, 5)
          .map((n) => quote(n))
          .join(', ')}${on.length > 5 ? ', ...' : ''}): nothing was sent to delete it`,
    );
  };

  const remove = async (
    change: DeleteClient | DeleteDomain | DeleteHostingPlan,
    id: number,
    stillThere: () => Promise<boolean>,
    slot: Slot,
  ): Promise<Applied> => {
    const request = requestFor(change);
    const described = panel.describe(request.method, request.path);
    try {
      await slot.run(() => send(panel, request, options.signal));
      return { id };
    } catch (error) {
      if (error instanceof PanelHttpError && error.status === 404) return { id, note: 'it was gone already (404)' };
      const why = ambiguity(error);
      if (why === undefined) throw error;
      tell(`${described} ${why}: reading it back to see whether it was deleted`);
      let present: boolean;
      try {
        present = await slot.run(stillThere);
      } catch (readError) {
        throw new ProvisionError(
          'panel_unreachable',
          `${described} ${why}, and reading it back failed too (${messageOf(readError)}): it may or may not be deleted`,
          {
            hint: 'run plan again: it shows whether the delete is still to do',
            cause: error,
          },
        );
      }
      if (present) throw error;
      return { id, note: `the answer was lost (${why}), but it is gone` };
    }
  };

  const dispatch = async (change: Change, slot: Slot): Promise<Applied> => {
    switch (change.action) {
      case 'create':
        switch (change.type) {
          case 'client':
            // check() refused a plan that creates clients without a secrets sink.
            if (options.secrets === undefined)
              throw new Error('creating clients needs a secrets file for their passwords');
            return creates.createClient(change, options.secrets, slot);
          case 'domain':
            return creates.createDomain(change, slot);
          case 'hosting_plan':
            return plans.create(change, slot);
          default:
            return assertNever(change);
        }
      case 'update':
        return change.type === 'dns_zone' ? writeZone(change, slot) : update(change, slot);
      case 'delete':
        switch (change.type) {
          case 'client':
            return remove(
              change,
              change.clientId,
              async () => (await findClientById(panel, change.clientId)) !== undefined,
              slot,
            );
          case 'domain':
            return remove(
              change,
              change.domainId,
              async () => (await findDomain(panel, change.name))?.id === change.domainId,
              slot,
            );
          case 'hosting_plan':
            await stillUnused(change, slot);
            return remove(
              change,
              change.planId,
              async () => (await findHostingPlan(panel, change.name))?.id === change.planId,
              slot,
            );
          default:
            return assertNever(change);
        }
      default:
        return assertNever(change);
    }
  };

  return {
    // Each request runs through the executor's slot; the secrets file's flushes run outside it.
    perRequest: true,
    check(changes) {
      if (options.secrets === undefined && createsClients(changes)) {
        throw new ProvisionError(
          'secrets',
          'creating clients needs a secrets file for their passwords: nothing was sent',
        );
      }
    },
    async apply(change: Change, slot: Slot = NO_SLOT): Promise<Applied> {
      const applied = await dispatch(change, slot);
      if (change.action === 'create') newIds.set(change.id, applied.id);
      return applied;
    },
  };
}
