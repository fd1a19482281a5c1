/**
 * An FTP user's update and delete carried out, through what the apply stage hands in
 * (../apply.ts); its create is the one write-ahead create with a secret (apply/create-secret.ts:
 * the password made here, written ahead, added to the planned request as it is sent; a panel that
 * names the user itself is told by secret.ts's panelNaming). An update is the fields that differ:
 * a partial PUT, retried as any idempotent request. A delete whose answer was lost is looked for
 * again in the panel's list.
 */
import type { ApplyStage } from '../apply.js';
import type { KindApply } from '../kind.js';
import { contract, shape } from '../panel-record.js';
import { type FtpUserChange, ftpUserRequest } from './changes.js';
import { FTP_USERS_PATH, parseFtpUserRecord } from './record.js';

/** How apply carries out an FTP user's update and delete (Kind.apply). */
export const FTP_USER_APPLY: KindApply<FtpUserChange> = {
  async update(change, stage) {
    await stage.send(ftpUserRequest(change, stage.newIds));
    return { id: change.ftpUserId };
  },
  delete: {
    id: (change) => change.ftpUserId,
    stillThere: (change, stage) => listed(stage, change.ftpUserId),
  },
};

/**
 * Whether GET /ftp-users holds a record with id `id` (read whole: the API documents no look-up
 * that tells a deleted record from a missing path). Read on the rare path of a delete whose
 * answer was lost.
 */
async function listed(stage: Pick<ApplyStage, 'panel'>, id: number): Promise<boolean> {
  const answer = await stage.panel.get(FTP_USERS_PATH);
  const where = stage.panel.describe('GET', FTP_USERS_PATH);
  if (!Array.isArray(answer)) throw contract(where, `expected a list, got ${shape(answer)}`);
  return answer.some((record: unknown, i) => parseFtpUserRecord(record, `${where}[${i}]`).id === id);
}
