/** The error document (src/render/error-json.ts): what each kind of error becomes, as data. */
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { PanelHttpError } from '../../src/panel/errors.js';
import { renderErrorJson } from '../../src/render/error-json.js';

describe('renderErrorJson', () => {
  it('a ProvisionError: code, message, hint (null when none), meta, details; located problems as errors', () => {
    const error = new ProvisionError(
      'unknown_hosting_plan',
      'the manifest names 1 hosting plan the panel does not have',
      {
        details: ['hosting plan "Gold" is not on the panel'],
        located: [{ file: 'm.yaml', line: 4, column: 11, message: 'hosting plan "Gold" is not on the panel' }],
        meta: { file: 'm.yaml', skipped: undefined, ratio: Number.NaN },
      },
    );
    expect(JSON.parse(renderErrorJson(error))).toEqual({
      format_version: '1.0',
      error: {
        code: 'unknown_hosting_plan',
        message: 'the manifest names 1 hosting plan the panel does not have',
        hint: null,
        meta: { file: 'm.yaml' },
        details: ['hosting plan "Gold" is not on the panel'],
      },
      errors: [
        {
          severity: 'error',
          file: 'm.yaml',
          line: 4,
          column: 11,
          message: 'hosting plan "Gold" is not on the panel',
        },
      ],
    });
  });

  it("a panel's error status: its facts as meta, names as data (JSON's escapes, no raw control character)", () => {
    const text = renderErrorJson(
      new PanelHttpError({
        method: 'PUT',
        path: '/api/v2/clients/7',
        status: 400,
        panelMessage: 'name "a\u001b[2Jb\u202e" taken',
      }),
    );
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
    expect(JSON.parse(text)).toMatchObject({
      error: {
        code: 'panel_http',
        meta: {
          method: 'PUT',
          path: '/api/v2/clients/7',
          status: 400,
          panel_message: 'name "a\u001b[2Jb\u202e" taken',
        },
      },
      errors: [],
    });
  });

  it('an unexpected error (a bug): code internal, no stack', () => {
    const text = renderErrorJson(new TypeError('x is not a function'));
    expect(text).toMatchInlineSnapshot(`
      "{
        "format_version": "1.0",
        "error": {
          "code": "internal",
          "message": "internal error: x is not a function",
          "hint": "this is a bug in panel-provision: please report it with the command you ran and its output with PROVISION_DEBUG=1 (a stack trace)",
          "meta": {},
          "details": []
        },
        "errors": []
      }
      "
    `);
  });
});
