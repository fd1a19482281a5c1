/**
 * What the panel adapter (panel-adapter.ts) is given, in a file of its own: the adapter and the
 * creates it dispatches to (create.ts) both read it, and neither imports the other for it.
 */
import type { PanelClock } from '../panel/client.js';
import type { OnEvent } from '../plan/events.js';
import type { SecretsSink } from '../secrets/journal.js';
import type { EarlierCreates } from '../secrets/recovery.js';

/** How long a POST /domains for a client created in the same run is retried while refused (30 s). */
export const DEFAULT_SETTLE_TIMEOUT_MS = 30_000;

export interface PanelAdapterOptions {
  /**
   * A POST /domains for a client created in this run that the panel refuses with 400 or 404
   * (it sets accounts up in the background after its 201) is retried with backoff until this
   * long after the first attempt (the CLI's --settle-timeout). 0: never.
   */
  readonly settleTimeoutMs: number;
  /** Where new clients' passwords go; a plan that creates clients is refused without one. */
  readonly secrets: SecretsSink | undefined;
  /** Recorded with each password so the user knows which panel it belongs to. */
  readonly panelUrl: string;
  /** Told a `note`, in one sentence, before each wait or look-up (never the key or a password). */
  readonly onEvent?: OnEvent;
  /** Default: the panel client's clock. */
  readonly clock?: Partial<PanelClock>;
  /**
   * Aborted (Ctrl-C): nothing that changes the panel is sent any more, a repeat or a retry included;
   * waits end at once.
   */
  readonly signal?: AbortSignal;
  /** The time stamped on secrets records. */
  readonly now?: () => Date;
  /**
   * Makes each new client's password here (apply --generate-passwords: secrets/password.ts),
   * written ahead as pending and sent in the POST's `password`; without it the panel makes
   * one and answers with it.
   */
  readonly newPassword?: () => string;
  /**
   * Usernames whose POST /clients an earlier run left unsettled (its create intent is open in
   * the secrets file) and that the panel did not list when this run read it, with what those
   * POSTs wrote ahead: the client is looked up again until the settle time after that POST
   * before another is sent, its pending password sent again when readable, and a password
   * that cannot be told is replaced (apply/create-client.ts).
   */
  readonly unsettled?: ReadonlyMap<string, EarlierCreates>;
}
