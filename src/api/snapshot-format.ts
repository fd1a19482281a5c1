import type { ReadKindName } from '../kinds/index.js';
import type { Live, ManagedField } from '../panel/index.js';
import { sha256Hex } from '../util.js';

/**
 * A snapshot (schemas/snapshot.schema.json): the panel as plan reads it, saved as one JSON
 * document, so that `plan --from-snapshot` plans without the panel and without its key (a
 * pull request's job, forks included). Its records are kept in the panel's own shapes, reduced
 * to what the engine reads, and read back by the same parsers that read the panel: a plan from
 * a snapshot sees exactly what a plan made at the snapshot's time saw. Its emails are digests
 * (`sha256:` of the lowercase address) unless taken with `withEmails`: the manifest's are
 * hashed alike before planning (planSnapshot in prepare.ts), and given back to the plan after.
 *
 * Format "major.minor": a reader accepts any minor of its own major and refuses a newer major.
 */
export const SNAPSHOT_FORMAT_VERSION = '1.1';
/** The major format this version reads (parseSnapshot refuses another). */
export const SUPPORTED_MAJOR = 1;

/** How an email the panel holds stands in an update's `before` when the snapshot holds only its digest. */
export const DIGEST_SHOWN = '(digest)';

/** What the snapshot read beside the four lists: what a manifest planned against it may rely on. */
export interface SnapshotReads {
  /** sha256 (hex) of the manifest it was taken for; null when taken without one. */
  readonly manifestSha256: string | null;
  /** The domains looked up by name (only when the panel has no domain list). */
  readonly domainNames: readonly string[];
  /** The clients whose managed fields were read one by one where GET /clients lacks them, and those fields. */
  readonly clientDetails: { readonly usernames: readonly string[]; readonly fields: readonly ManagedField[] };
  /** The domains whose DNS zones were asked for (those on the panel were read). */
  readonly zones: readonly string[];
  /**
   * Each kind with a list read (src/kinds/reads.ts), read or not: a kind not read is not empty on
   * the panel, and its part in `live` (its read's `empty`) stands for nothing; a plan whose ask
   * needs it is refused (snapshotGaps). Written since format 1.1; a snapshot of 1.0 is read as
   * having read the kinds of that time (KINDS_OF_FIRST_SNAPSHOTS).
   */
  readonly kinds: { readonly [N in ReadKindName]: KindReading };
}

/** Whether a snapshot read a kind's list: read, or not read and why (`taken without a manifest`). */
export type KindReading = { readonly read: true } | { readonly read: false; readonly reason: string };

export interface Snapshot {
  readonly formatVersion: string;
  readonly panelUrl: string;
  /** ISO 8601, UTC. */
  readonly takenAt: string;
  /** `digest`: each email is `sha256:<hex>` of the lowercase address; `address`: as the panel holds it. */
  readonly emails: 'digest' | 'address';
  readonly reads: SnapshotReads;
  readonly live: Live;
  /** The read's notes, as a live plan prints them. */
  readonly notes: readonly string[];
}

/** `sha256:<hex>` of the lowercase address: how a snapshot holds an email, and how a manifest's is compared. */
export function emailDigest(address: string): string {
  return `sha256:${sha256Hex(address.toLowerCase())}`;
}

/** An email as a digest snapshot holds it. */
export const DIGEST = /^sha256:[0-9a-f]{64}$/;
