/**
 * A client's update and delete carried out, through what the apply stage hands in (../apply.ts);
 * its create is apply/create.ts's (the write-ahead password, adoption, settling). An update is the
 * fields that differ, each whole: a partial PUT, retried as any idempotent request. A delete whose
 * answer was lost is read back by the client's id.
 */
import type { KindApply } from '../kind.js';
import { type ClientChange, clientRequest } from './changes.js';

/** How apply carries out a client's update and delete (Kind.apply). */
export const CLIENT_APPLY: KindApply<ClientChange> = {
  async update(change, stage) {
    await stage.send(clientRequest(change, stage.newIds));
    return { id: change.clientId };
  },
  delete: {
    id: (change) => change.clientId,
    stillThere: async (change, stage) => (await stage.lookUp.clientById(change.clientId)) !== undefined,
  },
};
