/**
 * What the panel's client and the live read say as they work: the lowest events of a run, below
 * everything that talks to the panel. Never the key or a password. They are members of
 * ProvisionEvent (src/plan/events.ts), the one events interface of a run, so a handler of
 * ProvisionEvent takes these too.
 */
export type PanelEvent =
  /** A request went out and was answered (`status` 0: no answer came); `ms` its time, retries apart. */
  | {
      readonly type: 'sent';
      readonly method: string;
      readonly path: string;
      readonly status: number;
      readonly ms: number;
    }
  /** Before a wait for a retry, one sentence: 'GET /api/v2/clients answered 503: retrying in 2.0 s (attempt 2)'. */
  | { readonly type: 'retry'; readonly message: string }
  /** A sentence worth telling: a partial read (no domain list), a read that costs more requests, a look-up, a wait. */
  | { readonly type: 'note'; readonly message: string };

/** Where a part below the stages sends its events: one function, told each as it happens. */
export type OnPanelEvent = (event: PanelEvent) => void;
