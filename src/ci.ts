/**
 * Whether the run is under CI, by the `CI` variable that CI systems set: any non-empty value
 * but `false` or `0` (any case, spaces around ignored). Not only `CI=true`: systems set
 * `CI=1`, `CI=yes` and the like, and a rule that keys on CI (no passwords in clear, no key
 * written where a log shows it) must not be skipped by the spelling of the value.
 */
export function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
