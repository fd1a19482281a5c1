import type { ErrorCode } from '../errors.js';

import { EXIT, type ExitCode } from '../exit-codes.js';

export { EXIT, type ExitCode } from '../exit-codes.js';

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
export function exitCodesHelp(
  codes: readonly (keyof typeof EXIT)[] = Object.keys(EXIT) as (keyof typeof EXIT)[],
): string {
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
  github_api: EXIT.failure,
  stale_plan: EXIT.stalePlan,
  mass_change: EXIT.massChange,
};
