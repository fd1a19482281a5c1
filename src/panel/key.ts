import { readFile } from 'node:fs/promises';
import { ProvisionError } from '../errors.js';

const KEY_HINT = 'set PROVISION_API_KEY, or pass --api-key-file <file> holding the key on one line';

/**
 * The API key: from `apiKeyFile` when given (an explicit flag wins over the environment), else
 * from PROVISION_API_KEY. Trimmed. Never from the manifest. Errors name the source, never the
 * key or the file's content.
 */
export async function readApiKey(env: Readonly<Record<string, string | undefined>>, apiKeyFile: string | undefined): Promise<string> {
  if (apiKeyFile !== undefined) {
    let content: string;
    try {
      content = await readFile(apiKeyFile, 'utf8');
    } catch (err) {
      const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : 'unreadable';
      throw new ProvisionError('io', `cannot read the API key file ${apiKeyFile} (${code})`, { hint: KEY_HINT });
    }
    return checkApiKey(content.trim(), `the API key file ${apiKeyFile}`);
  }
  const fromEnv = env.PROVISION_API_KEY;
  if (fromEnv === undefined) {
    throw new ProvisionError('usage', 'no API key: PROVISION_API_KEY is not set and no --api-key-file was given', { hint: KEY_HINT });
  }
  return checkApiKey(fromEnv.trim(), 'PROVISION_API_KEY');
}

/**
 * Refuses an empty key and one with spaces, line breaks or non-ASCII characters (a key file
 * with a second line, say): such a key cannot be sent in a header, and the HTTP library's
 * own error could quote it.
 */
export function checkApiKey(key: string, source: string): string {
  if (key === '') throw new ProvisionError('usage', `the API key from ${source} is empty`, { hint: KEY_HINT });
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ProvisionError('usage', `the API key from ${source} contains spaces, line breaks or non-ASCII characters`, {
      hint: 'the key is one line of printable ASCII; check that nothing else is in the variable or file',
    });
  }
  return key;
}
