import { jsonText, safeText, workflowData, workflowProperty } from '../escape.js';
import { ProvisionError } from '../errors.js';
import type { Diagnostic } from '../manifest/types.js';

/** "file:line:column: severity: message", the form editors and CI annotations understand. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${safeText(d.file)}:${d.line}:${d.column}: ${d.severity}: ${safeText(d.message)}`;
}

/**
 * A manifest diagnostic as a GitHub Actions workflow command, so it shows as an annotation on
 * the manifest's line in the pull request: `::error file=F,line=L,col=C::message`. Escaped as
 * the runner expects (escape.ts): `%`, CR and LF in the message; also `:` and `,` in property values.
 */
export function githubAnnotation(d: Diagnostic): string {
  const level = d.severity === 'error' ? 'error' : 'warning';
  return `::${level} file=${workflowProperty(d.file)},line=${d.line},col=${d.column}::${workflowData(d.message)}`;
}

/** What to do about an error the program did not throw on purpose. */
export const BUG_HINT =
  'this is a bug in panel-provision: please report it with the command you ran ' +
  'and its output with PROVISION_DEBUG=1 (a stack trace)';

/**
 * `error: message`, detail lines, `hint: ...`; a stack trace only for an unexpected error (a bug)
 * and only with `stack` (PROVISION_DEBUG set). Problems at places in a file
 * come as `file:line:column: error: …` lines, and with `annotate` (GitHub Actions) also as
 * workflow annotations on those lines. The one form of an error for `provision` (cli/main.ts)
 * and `provision-pr-comment` (action/run.ts).
 */
export function formatError(error: unknown, { annotate = false, stack = false } = {}): string {
  if (error instanceof ProvisionError) {
    // Problems the command printed as it found them are not repeated (ProvisionError.locatedShown).
    const located = error.locatedShown ? [] : error.located.map((p) => ({ ...p, severity: 'error' as const }));
    const lines = [
      `error: ${error.message}`,
      ...located.map((d) => `  ${formatDiagnostic(d)}`),
      ...error.details.map((d) => `  ${d}`),
      ...(annotate ? located.map(githubAnnotation) : []),
    ];
    if (error.hint !== undefined) lines.push(`hint: ${error.hint}`);
    return `${lines.join('\n')}\n`;
  }
  const message = safeText(error instanceof Error ? error.message : String(error));
  // The stack only when asked (PROVISION_DEBUG): src/*.ts positions, as bin.ts then maps the bundle.
  const trace = stack && error instanceof Error && error.stack !== undefined ? `${error.stack}\n` : '';
  const hint = stack
    ? 'this is a bug in panel-provision: please report it with the command you ran and this output'
    : BUG_HINT;
  return `error: internal error: ${message}\n${trace}hint: ${hint}\n`;
}

/** One manifest as validate found it: its name, its diagnostics, its errors in all, its counts when valid. */
export interface ValidatedFile {
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  /** Errors in all (more than `diagnostics` lists when they were too many to list). */
  readonly errors: number;
  /**
   * Clients and domains, when valid; the hosting plans it defines when it defines some; a
   * directory's parts.
   */
  readonly counts?:
    | {
        readonly clients: number;
        readonly domains: number;
        readonly hostingPlans?: number | undefined;
        readonly parts?: number | undefined;
      }
    | undefined;
}

/**
 * The format of validate's JSON (schemas/validate-result.schema.json); a reader accepts any minor
 * of its major. 1.1: `hosting_plans` and a directory's `parts`.
 */
export const VALIDATE_FORMAT_VERSION = '1.1';

/**
 * `validate --format json`: every manifest with its diagnostics as data (snake_case, like the
 * plan document), in the order given. A manifest is valid when it has no error (warnings allowed).
 */
export function renderValidateJson(files: readonly ValidatedFile[]): string {
  const entries = files.map((f) => ({
    path: f.file,
    valid: f.errors === 0,
    error_count: f.errors,
    warning_count: f.diagnostics.filter((d) => d.severity === 'warning').length,
    ...(f.counts === undefined
      ? {}
      : {
          clients: f.counts.clients,
          domains: f.counts.domains,
          ...(f.counts.hostingPlans === undefined ? {} : { hosting_plans: f.counts.hostingPlans }),
          ...(f.counts.parts === undefined ? {} : { parts: f.counts.parts }),
        }),
    diagnostics: f.diagnostics.map((d) => ({
      severity: d.severity,
      file: d.file,
      line: d.line,
      column: d.column,
      message: d.message,
    })),
  }));
  const document = { format_version: VALIDATE_FORMAT_VERSION, valid: entries.every((e) => e.valid), files: entries };
  return `${jsonText(document, 2)}\n`;
}
