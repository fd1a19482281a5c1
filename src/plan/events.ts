import type { PanelEvent } from '../events.js';
import type { Live } from '../panel/types.js';
import type { Outcome } from './outcome.js';
import type { Plan } from './types.js';

/**
 * The one events interface of a run: what the core tells while it reads, plans and applies,
 * for whoever watches (the CLI's progress and --verbose lines, the library's callers, the
 * GitHub step summary). Each stage takes one `onEvent` in its options object and calls it as
 * things happen; nothing is printed there. A handler that does not care about a type ignores
 * it: a switch over `type` ends in assertNever only where every type is answered.
 *
 * - `read`: the panel was read for a plan (what it holds, as the plan sees it).
 * - `planned`: a plan was made (or a saved plan checked against the panel), before anything is sent.
 * - `sent`, `retry`: from the panel's client (src/events.ts), `note` from the live read too.
 * - `outcome`: one change of the plan finished (succeeded, failed or skipped).
 * - `note`: a sentence worth telling (a look-up, a wait for a new account, a repair of the secrets file).
 * - `warning`: a sentence the user must see (a password lost, a secrets file git would commit).
 */
export type ProvisionEvent =
  | PanelEvent
  | { readonly type: 'read'; readonly panelUrl: string; readonly live: Live }
  | { readonly type: 'planned'; readonly plan: Plan }
  | { readonly type: 'outcome'; readonly outcome: Outcome }
  | { readonly type: 'warning'; readonly message: string };

/** The handler a stage's options take. */
export type OnEvent = (event: ProvisionEvent) => void;
