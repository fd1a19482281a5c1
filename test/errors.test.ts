/**
 * Errors as data (src/errors.ts, src/panel/errors.ts): each error's facts are in `meta`,
 * JSON-safe, and never more than its message says (a key pasted where a path belongs stays out).
 */
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../src/errors.js';
import { notSentAgain, PanelHttpError, unreachableError } from '../src/panel/errors.js';
import { notJson } from '../src/panel/interpret.js';

describe('ProvisionError meta', () => {
  it('is what the thrower gives, without undefined or non-finite numbers', () => {
    const error = new ProvisionError('usage', 'm', { meta: { flag: '--x', gone: undefined, n: Number.NaN, k: null } });
    expect(error.meta).toEqual({ flag: '--x', k: null });
    expect(new ProvisionError('usage', 'm').meta).toEqual({});
  });

  it("holds the errno of a failed system call in its causes, through a rewrapping, but never the call's path", () => {
    const cause = Object.assign(new Error("ENOENT: no such file or directory, open 'KEY'"), {
      code: 'ENOENT',
      syscall: 'open',
      path: 'KEY',
    });
    const inner = new ProvisionError('io', 'cannot read the API key file of --api-key-file: ENOENT', { cause });
    const outer = new ProvisionError('io', inner.message, { cause: inner });
    expect(outer.meta).toEqual({ errno: 'ENOENT' });
    expect(JSON.stringify(outer.meta)).not.toContain('KEY');
    // A code that is no system call's (an HTTP library's) is no errno.
    expect(new ProvisionError('io', 'm', { cause: Object.assign(new Error('x'), { code: 'ERR_X' }) }).meta).toEqual({});
  });
});

describe("the panel's errors", () => {
  it('an HTTP error status: method, path, status and the panel message; kept when not sent again', () => {
    const error = new PanelHttpError({ method: 'POST', path: '/api/v2/clients', status: 400, panelMessage: 'Taken.' });
    const meta = { method: 'POST', path: '/api/v2/clients', status: 400, panel_message: 'Taken.' };
    expect(error.meta).toEqual(meta);
    expect(new PanelHttpError({ method: 'GET', path: '/api/v2/ping', status: 503 }).meta).toEqual({
      method: 'GET',
      path: '/api/v2/ping',
      status: 503,
    });
    expect(notSentAgain(error).meta).toEqual(meta);
  });

  it('an answer that is not JSON: method, path and status', () => {
    expect(notJson('GET', '/api/v2/clients', 200, 'HTML', true).meta).toEqual({
      method: 'GET',
      path: '/api/v2/clients',
      status: 200,
    });
  });

  it('no answer: method, URL, path, network code and whether it can have been sent', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' });
    expect(unreachableError('GET', 'https://panel.example/api/v2/clients', refused).meta).toEqual({
      method: 'GET',
      url: 'https://panel.example/api/v2/clients',
      path: '/api/v2/clients',
      network_code: 'ECONNREFUSED',
      errno: 'ECONNREFUSED',
      sent: false,
    });
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(unreachableError('POST', 'https://panel.example/api/v2/clients', reset).meta).toMatchObject({
      network_code: 'UND_ERR_SOCKET',
      sent: true,
    });
  });
});
