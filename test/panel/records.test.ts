import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { parseClientRecord } from '../../src/panel/index.js';

const WHERE = 'GET /api/v2/clients[0]';
const parse = (fields: Record<string, unknown>) => parseClientRecord({ id: 7, username: 'Alice', ...fields }, WHERE);

function refusal(fields: Record<string, unknown>): ProvisionError {
  try {
    parse(fields);
  } catch (err) {
    expect(err).toBeInstanceOf(ProvisionError);
    return err as ProvisionError;
  }
  throw new Error('expected a refusal');
}

describe('parseClientRecord: the managed fields', () => {
  test.each([7, true, { code: 'de' }, ['de']])(
    'a language the engine cannot read (%j) is unknown, never a broken record',
    (language) => {
      expect(parse({ language }).language).toBeUndefined();
    },
  );

  test('a record without them: every field undefined (unknown)', () => {
    expect(parse({})).toStrictEqual({
      id: 7,
      username: 'alice',
      idHostingPlan: undefined,
      email: undefined,
      suspended: undefined,
      language: undefined,
    });
  });

  test.each([
    [{ id_hosting_plan: 3 }, 3],
    [{ hosting_plan_id: 3 }, 3],
    [{ id_hosting_plan: 3, hosting_plan_id: 3 }, 3],
    [{ id_hosting_plan: 0 }, null],
    [{ id_hosting_plan: null }, null],
    [{ hosting_plan_id: 0 }, null],
    [{ id_hosting_plan: null, hosting_plan_id: 0 }, null],
  ])('plan %j -> %j', (fields, expected) => {
    expect(parse(fields).idHostingPlan).toBe(expected);
  });

  test.each([
    [{ email: 'alice@example.com' }, 'alice@example.com'],
    [{ email: '' }, null],
    [{ email: null }, null],
  ])('email %j -> %j', (fields, expected) => {
    expect(parse(fields).email).toBe(expected);
  });

  test.each([
    [{ is_suspended: true }, true],
    [{ is_suspended: false }, false],
    [{ is_suspended: 1 }, true],
    [{ is_suspended: 0 }, false],
    [{ suspended: true }, true],
    [{ suspended: 0 }, false],
    [{ is_suspended: true, suspended: 1 }, true],
    // PHP panels send flags as strings too: the one flag reader (kinds/common.ts readFlag) takes them.
    [{ suspended: '1' }, true],
    [{ is_suspended: 'false' }, false],
  ])('suspended %j -> %j', (fields, expected) => {
    expect(parse(fields).suspended).toBe(expected);
  });

  test.each([
    [{ id_hosting_plan: '3' }, '"id_hosting_plan" must be an integer (a plan id; 0 or null: none), got a string'],
    [{ id_hosting_plan: 2.5 }, '"id_hosting_plan" must be an integer (a plan id; 0 or null: none), got a number'],
    [{ id_hosting_plan: -1 }, '"id_hosting_plan" must be an integer (a plan id; 0 or null: none), got -1'],
    [{ hosting_plan_id: true }, '"hosting_plan_id" must be an integer (a plan id; 0 or null: none), got a boolean'],
    [{ id_hosting_plan: 2, hosting_plan_id: 3 }, '"id_hosting_plan" and "hosting_plan_id" disagree (2 and 3)'],
    [{ email: 5 }, '"email" must be a string (an address; "" or null: none), got 5'],
    [{ email: ['a@b.example'] }, '"email" must be a string (an address; "" or null: none), got an array'],
    [{ is_suspended: 'yes' }, '"is_suspended" must be a boolean (or 0 or 1), got a string'],
    [{ is_suspended: 2 }, '"is_suspended" must be a boolean (or 0 or 1), got 2'],
    [{ is_suspended: null }, '"is_suspended" must be a boolean (or 0 or 1), got null'],
    [{ is_suspended: true, suspended: 0 }, '"is_suspended" and "suspended" disagree (a boolean and 0)'],
  ])('refuses %j', (fields, message) => {
    const error = refusal(fields);
    expect(error.code).toBe('panel_contract');
    expect(error.message).toBe(`${WHERE}: ${message}`);
    expect(error.hint).toMatch(/report the panel version/);
  });

  test('the identity rules stand: id and username checked first', () => {
    expect(() => parseClientRecord({ id: 0, username: 'a', email: 5 }, WHERE)).toThrow(
      /"id" must be a positive integer, got 0$/,
    );
    expect(() => parseClientRecord({ id: 1, email: 'a@b.example' }, WHERE)).toThrow(
      /"username" must be a non-empty string, got nothing$/,
    );
  });
});
