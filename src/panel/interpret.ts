import { ProvisionError } from '../errors.js';
import type { Redactions } from '../redact.js';
import { PanelHttpError } from './errors.js';
import { MAX_PANEL_MESSAGE_CHARS } from './limits.js';
import type { AttemptResult, Method } from './retry.js';

/**
 * What one answer of the panel means: its value, or the error it is (status, panel message,
 * a body that is not JSON), with the key blanked out of anything the panel said.
 */

export function interpret(
  method: Method,
  path: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  keyForms: Redactions,
): AttemptResult {
  const contentType = header(headers, 'content-type') ?? '';
  const html = /html/i.test(contentType) || /^\s*</.test(text);
  let json: unknown;
  let isJson = false;
  if (!html && text.trim() !== '') {
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      // Not JSON: handled below, by status.
    }
  }
  if (status < 200 || status >= 300) {
    const location = header(headers, 'location');
    return {
      ok: false,
      error: new PanelHttpError({
        method,
        path,
        status,
        panelMessage: isJson ? panelMessage(json, keyForms) : undefined,
        retryAfter: header(headers, 'retry-after'),
        location: location === undefined ? undefined : originOf(location),
      }),
    };
  }
  if (status === 204) return { ok: true, value: undefined, headers };
  if (isJson) return { ok: true, value: json, headers };
  // PUT and DELETE answers are not documented: any 2xx but an HTML page is done.
  if (!html && (method === 'PUT' || method === 'DELETE')) return { ok: true, value: undefined, headers };
  const what = html
    ? 'HTML'
    : text.trim() === ''
      ? 'an empty body'
      : `a body that is not JSON (${contentType || 'no content type'})`;
  return { ok: false, error: notJson(method, path, status, what, html) };
}

export function notJson(method: Method, path: string, status: number, what: string, html: boolean): ProvisionError {
  return new ProvisionError('panel_contract', `${method} ${path}: ${status} answered ${what}, not JSON`, {
    hint: html
      ? "is the REST API enabled in the panel's settings? " +
        'Also check that --url / PROVISION_URL points at the panel itself'
      : 'check that --url / PROVISION_URL points at the panel; a proxy in between may rewrite answers',
    meta: { method, path, status },
  });
}

/** The `message` of the panel's JSON error body, on one line, shortened, the key blanked out. */
function panelMessage(json: unknown, keyForms: Redactions): string | undefined {
  if (typeof json !== 'object' || json === null || !('message' in json) || typeof json.message !== 'string')
    return undefined;
  let message = keyForms.redact(json.message).replace(/\s+/g, ' ').trim();
  if (message.length > MAX_PANEL_MESSAGE_CHARS) message = `${message.slice(0, MAX_PANEL_MESSAGE_CHARS)}…`;
  return message === '' ? undefined : message;
}

export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Only the origin of a redirect target: its path or query could carry anything. */
function originOf(location: string): string | undefined {
  try {
    return new URL(location).origin;
  } catch {
    return undefined;
  }
}
