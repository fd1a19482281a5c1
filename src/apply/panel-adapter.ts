import { ProvisionError } from '../errors.js';
import type { ApplyStage } from '../kinds/apply.js';
import { kindOf } from '../kinds/index.js';
import type { PanelClient } from '../panel/client.js';
import { PanelHttpError } from '../panel/errors.js';
import { panelLookUps } from '../panel/look-ups.js';
import { ambiguity } from '../panel/retry.js';
import { secretNouns } from '../plan/guards.js';
import { requestFor } from '../plan/requests.js';
import type { Change, ChangeId } from '../plan/types.js';
import { assertNever, messageOf } from '../util.js';
import type { PanelAdapterOptions } from './adapter-options.js';
import { creator } from './create.js';
import { idOf } from './create-failures.js';
import { send } from './send.js';
import { NO_SLOT, type Slot } from './walk.js';
import type { Applied, ChangeAdapter } from './execute.js';
import { writeManagedKeys, writeWhole } from './whole-write.js';

/**
 * The ChangeAdapter apply uses against a real panel: each change is sent as exactly the request
 * plan/requests.ts makes of it.
 *
 * It asks each change's kind how (Kind.apply, implemented in each room's apply.ts) and hands the
 * room what touches the world (kinds/apply.ts ApplyStage: the slot, the signal, the panel's
 * reads, the whole-object write).
 *
 * - Creates: the kind's own (a hosting plan's, settled by its name), or apply/create.ts (write-ahead
 *   passwords for every kind with a secret, adoption after an ambiguous answer, settling). With
 *   `newPassword` a POST /clients carries its request's body plus the `password` made for it,
 *   added as it is sent: the plan never holds one.
 * - Updates: the kind's. A plain PUT with the fields that differ (a client's); the client retries
 *   it where a repeat is safe (it is idempotent); any 2xx is done, whatever its body. Or a
 *   whole-object write (whole-write.ts: built from a read just before it, never resent as it
 *   was): a domain's settings with a nested object, a hosting plan's objects, a zone's records.
 * - Deletes: the kind's request (`DELETE /clients/{id}`, ...), retried the same way, after what
 *   the kind says must hold first. A 404 means it is gone already: done, with a note. When no
 *   answer came (after the retries), the record is read back as the kind says: gone means done;
 *   still there, the failure stands.
 */
export function panelAdapter(panel: PanelClient, options: PanelAdapterOptions): ChangeAdapter {
  const tell = (message: string): void => options.onEvent?.({ type: 'note', message });
  /** The ids of what this run created, by change id: what a later change names takes them from here. */
  const newIds = new Map<ChangeId, number>();
  const creates = creator(panel, options, newIds);
  const lookUp = panelLookUps(panel);

  /** What a kind's room is handed to carry out a change whose requests go through `slot`. */
  const stageOf = (slot: Slot): ApplyStage => ({
    panel,
    lookUp,
    newIds,
    run: (work) => slot.run(work),
    send: (request) => slot.run(() => send(panel, request, options.signal)),
    writeWhole: (write) => writeWhole(panel, write, slot, options.signal, tell),
    writeManagedKeys: (write) => writeManagedKeys(panel, write, slot, options.signal, tell),
    idOf,
    ambiguity,
    tell,
  });

  const remove = async (
    change: Extract<Change, { action: 'delete' }>,
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
      case 'create': {
        const how = kindOf(change).apply;
        if (how.create !== undefined) return how.create(change, stageOf(slot));
        // The kinds whose creates apply/create.ts carries out: every kind with a secret, through
        // the one write-ahead create (the client's checks its own part first); adoption, settling.
        if (kindOf(change).secret !== undefined) {
          // check() refused a plan that creates things with a password without a secrets sink.
          if (options.secrets === undefined)
            throw new Error(`creating ${kindOf(change).noun.many} needs a secrets file for their passwords`);
          return change.type === 'client'
            ? creates.createClient(change, options.secrets, slot)
            : creates.createSecret(change, options.secrets, slot);
        }
        if (change.type === 'domain') return creates.createDomain(change, slot);
        throw new Error(`${kindOf(change).subject(change)}: its kind says no way to create it`);
      }
      case 'update':
        return kindOf(change).apply.update(change, stageOf(slot));
      case 'delete': {
        const how = kindOf(change).apply.delete;
        if (how === undefined) throw new Error(`${kindOf(change).subject(change)}: its kind says no way to delete it`);
        const stage = stageOf(slot);
        // What must hold first (a hosting plan: no client on it), read just before the DELETE.
        await how.before?.(change, stage);
        return remove(change, how.id(change), () => how.stillThere(change, stage), slot);
      }
      default:
        return assertNever(change);
    }
  };

  return {
    // Each request runs through the executor's slot; the secrets file's flushes run outside it.
    perRequest: true,
    check(changes) {
      const nouns = options.secrets === undefined ? secretNouns(changes) : undefined;
      if (nouns !== undefined)
        throw new ProvisionError(
          'secrets',
          `creating ${nouns} needs a secrets file for their passwords: nothing was sent`,
        );
    },
    async apply(change: Change, slot: Slot = NO_SLOT): Promise<Applied> {
      const applied = await dispatch(change, slot);
      if (change.action === 'create') newIds.set(change.id, applied.id);
      return applied;
    },
  };
}
