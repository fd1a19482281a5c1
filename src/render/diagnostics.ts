import { safeText, workflowData, workflowProperty } from '../escape.js';
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
