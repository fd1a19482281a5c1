import type { Diagnostic } from '../manifest/types.js';

/** "file:line:column: severity: message", the form editors and CI annotations understand. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

/**
 * A manifest diagnostic as a GitHub Actions workflow command, so it shows as an annotation on
 * the manifest's line in the pull request: `::error file=F,line=L,col=C::message`. Escaped as
 * the runner expects: `%`, CR and LF in the message; also `:` and `,` in property values.
 */
export function githubAnnotation(d: Diagnostic): string {
  const level = d.severity === 'error' ? 'error' : 'warning';
  return `::${level} file=${escapeProperty(d.file)},line=${d.line},col=${d.column}::${escapeData(d.message)}`;
}

export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
