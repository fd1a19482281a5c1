/**
 * What the kinds say of the run's ask (plan/reads.ts): each kind's part of what one read of the
 * panel is asked, for a manifest (Kind.readsForManifest) and for a saved plan's change
 * (Kind.readsAgain), and the manifest as those parts read it. Pure, types only.
 */
import type { ClientWants } from './client/fields.js';

/**
 * A kind's part of the run's ask (Kind.readsAgain, Kind.readsForManifest): keys of src/kinds/index.ts
 * ReadAsk, each a list, a set, a flag or an object of those (plan/reads.ts merges the parts).
 */
export type RunAsk = { readonly [key: string]: unknown };

/** A domain item of the manifest, as a kind's part of the run's ask reads it. */
export interface ManifestAskDomain {
  /** Lowercase ASCII. */
  readonly name: string;
  /** Its zone, when it manages DNS. */
  readonly dns?: unknown;
}

/** A client item of the manifest, as a kind's part of the run's ask reads it (its managed fields beside). */
export interface ManifestAskClient extends ClientWants {
  readonly username: string;
  readonly state: 'present' | 'absent';
  readonly domains: readonly ManifestAskDomain[];
}

/** The manifest as the kinds' parts of the run's ask read it (Kind.readsForManifest). */
export interface ManifestAskView {
  /** The clients the scope (`--clients`) covers, in manifest order. */
  readonly clients: readonly ManifestAskClient[];
  /** Every client the manifest lists. */
  readonly all: readonly ManifestAskClient[];
  /** Whether the run may delete a client (prune.clients, or a client of the scope marked absent). */
  readonly deletes: boolean;
}
