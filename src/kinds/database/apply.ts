/**
 * A database's update and delete carried out, through what the apply stage hands in (../apply.ts);
 * its create is the one write-ahead create with a secret (apply/create-secret.ts: the password
 * made here, written ahead, added to the planned request as it is sent). An update is the fields
 * that differ (`remote_hosts` a whole list): a partial PUT, retried as any idempotent request. A
 * delete whose answer was lost is looked for again in the panel's list.
 */
import type { ApplyStage } from '../apply.js';
import type { KindApply } from '../kind.js';
import { contract, shape } from '../panel-record.js';
import { type DatabaseChange, databaseRequest } from './changes.js';
import { DATABASES_PATH, parseDatabaseRecord } from './record.js';

/** How apply carries out a database's update and delete (Kind.apply). */
export const DATABASE_APPLY: KindApply<DatabaseChange> = {
  async update(change, stage) {
    await stage.send(databaseRequest(change, stage.newIds));
    return { id: change.databaseId };
  },
  delete: {
    id: (change) => change.databaseId,
    stillThere: (change, stage) => listed(stage, DATABASES_PATH, change.databaseId),
  },
};

/**
 * Whether the list at `path` holds a record with id `id` (read whole: the API documents no
 * look-up that tells a deleted record from a missing path). Read on the rare path of a delete
 * whose answer was lost.
 */
async function listed(stage: Pick<ApplyStage, 'panel'>, path: string, id: number): Promise<boolean> {
  const answer = await stage.panel.get(path);
  const where = stage.panel.describe('GET', path);
  if (!Array.isArray(answer)) throw contract(where, `expected a list, got ${shape(answer)}`);
  return answer.some((record: unknown, i) => parseDatabaseRecord(record, `${where}[${i}]`).id === id);
}
