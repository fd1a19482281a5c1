/**
 * The run's redaction set: every credential the run learns (the API key, each new password)
 * is added here as soon as it is in hand, and every output of the run passes through
 * `redact`, so a bug elsewhere cannot print one. Belt and braces: the code never formats a
 * credential into text in the first place, and the leak test checks that without this filter.
 */
export type Redactions = Set<string>;

/** What a redacted credential is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not redacted: blanking every "a" or "12" of the output would
 * garble it, and no key or generated password is that short.
 */
export const MIN_REDACTED_LENGTH = 4;

/** `text` with every registered value of at least MIN_REDACTED_LENGTH characters blanked. */
export function redact(text: string, redactions: ReadonlySet<string>): string {
  let safe = text;
  for (const value of redactions) if (value.length >= MIN_REDACTED_LENGTH) safe = safe.replaceAll(value, REDACTED);
  return safe;
}
