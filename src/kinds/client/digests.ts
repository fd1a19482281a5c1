/**
 * A client's email in a plan made against a digest snapshot (api/snapshot-plan.ts): the snapshot
 * holds each email as the digest of its address, the manifest's are hashed alike before the
 * diff, and the plan gets the manifest's addresses back after it (Kind.emailDigests).
 */
import type { EmailDigests } from '../kind.js';
import type { ClientChange } from './changes.js';

export const CLIENT_EMAIL_DIGESTS: EmailDigests<ClientChange> = {
  restored(change, address, shown) {
    if (change.action === 'create' && change.email !== undefined)
      return { ...change, email: address(change.name, change.email) };
    if (change.action !== 'update') return change;
    return {
      ...change,
      fields: change.fields.map((f) =>
        f.field === 'email'
          ? { ...f, before: f.before === null ? null : shown, after: address(change.name, f.after) }
          : f,
      ),
    };
  },
  fromDigest: (change, shown) =>
    change.action === 'update' && change.fields.some((f) => f.field === 'email' && f.before === shown),
};
