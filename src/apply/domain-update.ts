/**
 * A domain's settings update carried out. One that sends a nested object (`security`, `target`)
 * whole is a whole-object write (whole-write.ts): the domain is read again just before its PUT
 * (`GET /domains/{id}`), the objects are built from that read with only the settings the change
 * writes changed, so a key someone changed in the panel since the plan is carried as it is now; a
 * setting the change writes that moved since the plan read it fails the change as stale (nothing
 * sent). A `php_version` alone is a partial PUT, retried as any idempotent request.
 */
import { quote } from '../escape.js';
import { settingText, type UpdateDomain } from '../kinds/domain.js';
import { rebuildSettings, settingsLanded } from '../kinds/domain/rebuild.js';
import type { PanelClient } from '../panel/client.js';
import { readDomainById } from '../panel/object-reads.js';
import { requestFor } from '../plan/requests.js';
import type { Applied } from './execute.js';
import { send } from './send.js';
import type { Slot } from './walk.js';
import { writeManagedKeys } from './whole-write.js';

/** Carries out domain settings updates. */
export function domainUpdater(
  panel: PanelClient,
  signal: AbortSignal | undefined,
  tell: (message: string) => void,
): (change: UpdateDomain, slot: Slot) => Promise<Applied> {
  return async (change, slot) => {
    if (change.body.security === undefined && change.body.target === undefined) {
      await slot.run(() => send(panel, requestFor(change), signal));
      return { id: change.domainId };
    }
    return writeManagedKeys(
      panel,
      {
        what: `the settings of domain ${quote(change.name)}`,
        id: change.domainId,
        read: () => readDomainById(panel, change.domainId),
        rebuild: (fresh) => rebuildSettings(change.fields, fresh.settings),
        request: (body) => requestFor({ ...change, body }),
        landed: (now) => settingsLanded(change.fields, now.settings),
        show: settingText,
        unread: 'not readable now',
      },
      slot,
      signal,
      tell,
    );
  };
}
