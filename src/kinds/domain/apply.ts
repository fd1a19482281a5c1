/**
 * A domain's changes carried out, through what the apply stage hands in (../apply.ts); its
 * create is apply/create.ts's (adoption, settling). A settings update that sends a nested object
 * (`security`, `target`) whole is a whole-object write (apply/whole-write.ts): the domain is read
 * again just before its PUT (`GET /domains/{id}`), the objects are built from that read with only
 * the settings the change writes changed, so a key someone changed in the panel since the plan is
 * carried as it is now; a setting the change writes that moved since the plan read it fails the
 * change as stale (nothing sent). A `php_version` alone is a partial PUT, retried as any
 * idempotent request. A delete whose answer was lost is read back by the domain's name.
 */
import { quote } from '../../escape.js';
import type { KindApply } from '../kind.js';
import { type DomainChange, domainRequest, settingText } from './changes.js';
import { rebuildSettings, settingsLanded } from './rebuild.js';

/** How apply carries out a domain's update and delete (Kind.apply). */
export const DOMAIN_APPLY: KindApply<DomainChange> = {
  async update(change, stage) {
    if (change.body.security === undefined && change.body.target === undefined) {
      await stage.send(domainRequest(change));
      return { id: change.domainId };
    }
    return stage.writeManagedKeys({
      what: `the settings of domain ${quote(change.name)}`,
      id: change.domainId,
      read: () => stage.lookUp.domainById(change.domainId),
      rebuild: (fresh) => rebuildSettings(change.fields, fresh.settings),
      request: (body) => domainRequest({ ...change, body }),
      landed: (now) => settingsLanded(change.fields, now.settings),
      show: settingText,
      unread: 'not readable now',
    });
  },
  delete: {
    id: (change) => change.domainId,
    stillThere: async (change, stage) => (await stage.lookUp.domainNamed(change.name))?.id === change.domainId,
  },
};
