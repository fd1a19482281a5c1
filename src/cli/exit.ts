import type { ErrorCode } from '../errors.js';

/**
 * Exit codes, in one place (README "Exit codes"): commands return these, and `main` maps every
 * error through EXIT_FOR_ERROR; no other code is written anywhere.
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

/** What each code means, for the help texts (written from here, never by hand). */
const MEANING: Readonly<Record<keyof typeof EXIT, string>> = {
  ok: 'success',
  failure: 'failure',
  changes: 'changes found (plan --detailed-exitcode, export --into --check)',
  stalePlan: 'stale saved plan',
  massChange: 'mass create or delete refused',
  interrupted: 'apply interrupted',
};

/** `Exit codes: <code> <meaning>; …` for the codes a command returns (all by default). */
export function exitCodesHelp(codes: readonly (keyof typeof EXIT)[] = Object.keys(EXIT) as (keyof typeof EXIT)[]): string {
  return `Exit codes: ${codes.map((code) => `${EXIT[code]} ${MEANING[code]}`).join('; ')}.`;
}

/** The exit code of each error code: 1 unless a code refines it. */
export const EXIT_FOR_ERROR: Readonly<Record<ErrorCode, ExitCode>> = {
  usage: EXIT.failure,
  io: EXIT.failure,
  manifest_invalid: EXIT.failure,
  panel_http: EXIT.failure,
  panel_unreachable: EXIT.failure,
  panel_contract: EXIT.failure,
  unknown_hosting_plan: EXIT.failure,
  plan_conflict: EXIT.failure,
  secrets: EXIT.failure,
  approval_required: EXIT.failure,
  plan_file: EXIT.failure,
  stale_plan: EXIT.stalePlan,
  mass_change: EXIT.massChange,
};
