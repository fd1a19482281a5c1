import { ProvisionError } from '../errors.js';

const API_PATH = '/api/v2';
const URL_HINT = 'give the panel address from --url or PROVISION_URL, e.g. https://panel.example (/api/v2 is appended)';

/**
 * The API's base URL from what the user typed: trimmed, http(s) only, `/api/v2` appended when
 * missing (with or without a trailing slash), no trailing slash. A panel installed under a
 * sub-path keeps it ('https://host/panel' -> 'https://host/panel/api/v2').
 *
 * Refused, with ProvisionError('usage'): credentials, a query or a fragment (the key travels
 * in a header, never in the URL; such parts are not echoed back as they may hold secrets),
 * another API version, and plain http:// to anything but a loopback address (localhost,
 * 127.0.0.0/8, [::1]) unless `allowHttp`: the API key would cross the network in clear text.
 */
export function normalizeBaseUrl(raw: string, options: { allowHttp: boolean }): string {
  const trimmed = raw.trim();
  if (trimmed === '') throw new ProvisionError('usage', 'the panel URL is empty', { hint: URL_HINT });
  if (/[?#]/.test(trimmed)) {
    throw new ProvisionError('usage', 'the panel URL must not contain a query (?) or a fragment (#)', {
      hint: URL_HINT,
    });
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ProvisionError('usage', 'the panel URL is not a valid URL', {
      hint: `${URL_HINT}; include the scheme https://`,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProvisionError('usage', `the panel URL must start with https:// (got ${url.protocol}//...)`, {
      hint: `${URL_HINT}; include the scheme https://`,
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new ProvisionError('usage', 'the panel URL must not contain a user name or password', {
      hint: 'remove "user:password@" from the URL; the API key comes from PROVISION_API_KEY or --api-key-file',
    });
  }
  if (url.protocol === 'http:' && !options.allowHttp && !isLoopback(url.hostname)) {
    throw new ProvisionError(
      'usage',
      `the panel URL uses plain http:// for ${url.hostname}, which would send the API key unencrypted`,
      {
        hint:
          'use https:// (with --ca-file for a private certificate authority); ' +
          'plain http:// is accepted for localhost only, or with --allow-http on a network you trust',
      },
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  const version = /\/api\/(v[^/]*)$/.exec(path)?.[1];
  if (version !== undefined && version !== 'v2') {
    throw new ProvisionError('usage', `the panel URL points at API ${version}; panel-provision speaks API v2`, {
      hint: 'give the panel address without the API path, e.g. https://panel.example',
    });
  }
  if (path.endsWith('/api')) path += '/v2';
  else if (!path.endsWith(API_PATH)) path += API_PATH;
  return `${url.protocol}//${url.host}${path}`;
}

/** localhost, 127.0.0.0/8 and [::1]: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
