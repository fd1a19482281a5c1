/**
 * Exit codes, in one place (README "Exit codes"): commands return these, `main` (src/cli) maps every
 * error through EXIT_FOR_ERROR, and the action's comment (src/action) words each; no other code is
 * written anywhere. On the ground floor so that both can read it.
 */
export const EXIT = {
  ok: 0,
  /** Any other failure. */
  failure: 1,
  /** `plan --detailed-exitcode` found changes; `export --into --check` found the manifest would change. */
  changes: 2,
  /** A saved plan no longer matches the panel; nothing was sent. */
  stalePlan: 3,
  /** The plan creates or deletes more than its limit allows (--max-creates, --max-deletes); nothing was sent. */
  massChange: 4,
  /** apply stopped by SIGINT/SIGTERM (128 + SIGINT), after its summary. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
