import { ProvisionError } from '../errors.js';

/** What to do about a missing or bad key. */
export const API_KEY_HINT = 'set PROVISION_API_KEY, or pass --api-key-file <file> holding the key on one line';

/**
 * The API key from PROVISION_API_KEY, trimmed (the CLI reads --api-key-file itself and checks
 * its content with checkApiKey). Never from the manifest. Errors name the source, never the key.
 */
export function apiKeyFromEnv(env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = env.PROVISION_API_KEY;
  if (fromEnv === undefined) {
    throw new ProvisionError('usage', 'no API key: PROVISION_API_KEY is not set and no --api-key-file was given', {
      hint: API_KEY_HINT,
    });
  }
  return checkApiKey(fromEnv.trim(), 'PROVISION_API_KEY');
}

/**
 * Refuses an empty key and one with spaces, line breaks or non-ASCII characters (a key file
 * with a second line, say): such a key cannot be sent in a header, and the HTTP library's
 * own error could quote it.
 */
export function checkApiKey(key: string, source: string): string {
  if (key === '')
    throw new ProvisionError('usage', `the API key from ${source} is empty`, {
      hint: API_KEY_HINT,
    });
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ProvisionError(
      'usage',
      `the API key from ${source} contains spaces, line breaks or non-ASCII characters`,
      {
        hint: 'the key is one line of printable ASCII; check that nothing else is in the variable or file',
      },
    );
  }
  return key;
}
