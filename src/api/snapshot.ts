/**
 * Snapshots (schemas/snapshot.schema.json): the panel as plan reads it, saved as one JSON
 * document for planning without the panel and its key. Split by job: the format and its types
 * (./snapshot-format.ts), taking and writing one (./snapshot-take.ts), reading one back
 * (./snapshot-read.ts), planning against one (./snapshot-plan.ts).
 */
export {
  DIGEST_SHOWN,
  emailDigest,
  SNAPSHOT_FORMAT_VERSION,
  type Snapshot,
  type KindReading,
  type SnapshotReads,
} from './snapshot-format.js';
export { snapshotDocument, type SnapshotOptions, takeSnapshot } from './snapshot-take.js';
export { parseSnapshot } from './snapshot-read.js';
export {
  digestUpdates,
  snapshotFromFuture,
  snapshotGaps,
  snapshotNote,
  withEmailDigests,
  withEmailsRestored,
} from './snapshot-plan.js';
