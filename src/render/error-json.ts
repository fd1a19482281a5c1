import { jsonText } from '../escape.js';
import { ProvisionError } from '../errors.js';
import { BUG_HINT } from './diagnostics.js';

/**
 * A failure under `--format json`, as one document on stdout (schemas/error.schema.json):
 * `error` says what failed (a stable `code`, the message and hint of the text form, the facts
 * as `meta`), `errors` each problem at a place in a file, in the item shape of validate's
 * diagnostics. The text form (diagnostics.ts formatError) still goes to stderr.
 */

/** The format of the error document; a reader accepts any minor of its major (newer minors only add fields). */
export const ERROR_FORMAT_VERSION = '1.0';

/** The code of an error the program did not throw on purpose (a bug): not an ErrorCode. */
export const INTERNAL_ERROR_CODE = 'internal';

/** The error document of `error`, snake_case like the other documents, ending in a newline. */
export function renderErrorJson(error: unknown): string {
  if (error instanceof ProvisionError) {
    return document(
      {
        code: error.code,
        message: error.message,
        hint: error.hint ?? null,
        meta: error.meta,
        details: error.details,
      },
      error.located.map((p) => ({
        severity: 'error',
        file: p.file,
        line: p.line,
        column: p.column,
        message: p.message,
      })),
    );
  }
  // No stack and no cause: a bug's details belong in the text form, with PROVISION_DEBUG.
  const message = error instanceof Error ? error.message : String(error);
  return document(
    {
      code: INTERNAL_ERROR_CODE,
      message: `internal error: ${message}`,
      hint: BUG_HINT,
      meta: {},
      details: [],
    },
    [],
  );
}

function document(error: object, errors: readonly object[]): string {
  return `${jsonText({ format_version: ERROR_FORMAT_VERSION, error, errors }, 2)}\n`;
}
