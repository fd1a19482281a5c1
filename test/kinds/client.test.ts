/**
 * The client's room: the field table read by every stage. These tests pin what each row says of
 * "none", of comparing and of sending; the stages' own tests pin what they make of it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_FIELDS,
  clientRequest,
  createClient,
  fieldFact,
  hostingPlans,
  readClientFields,
  clientFromJson,
  clientToJson,
  updateClient,
  withFieldsFrom,
  type ClientField,
  type LiveClient,
} from '../../src/kinds/client/index.js';
import type { FieldReader } from '../../src/kinds/common.js';
import { SETTING_ROWS } from '../../src/kinds/domain.js';
import { DATABASE_FIELDS } from '../../src/kinds/database/fields.js';
import { FTP_USER_FIELDS } from '../../src/kinds/ftp-user/fields.js';
import { MAILBOX_FIELDS } from '../../src/kinds/mailbox/fields.js';

const plans = hostingPlans([
  { id: 1, name: 'Basic' },
  { id: 2, name: 'Business' },
]);

/** The fields of a record, read as the panel's reader does, without its contract errors. */
function read(record: Record<string, unknown>): ReturnType<typeof readClientFields> {
  return readClientFields(<V>(keys: readonly string[], reader: FieldReader<V>): V | undefined => {
    for (const key of keys) {
      if (record[key] === undefined) continue;
      const result = reader(record[key]);
      if ('problem' in result) throw new Error(`${key}: ${result.problem}`);
      if ('unreadable' in result) continue;
      return result.value;
    }
    return undefined;
  });
}

describe('the client field table', () => {
  it('has one row per managed field, each with the panel key it sends first', () => {
    expect(CLIENT_FIELDS.map((row) => [row.key, row.panel[0]])).toEqual([
      ['plan', 'id_hosting_plan'],
      ['email', 'email'],
      ['suspended', 'is_suspended'],
      ['language', 'language'],
    ]);
  });

  it('reads "none" as null: a plan of 0 or null, an email of "" or null; a missing field as undefined', () => {
    expect(read({ id_hosting_plan: 0, email: '' })).toEqual({ idHostingPlan: null, email: null });
    expect(read({ hosting_plan_id: null, email: null, is_suspended: 1 })).toEqual({
      idHostingPlan: null,
      email: null,
      suspended: true,
    });
    expect(read({})).toEqual({ idHostingPlan: undefined, email: undefined, suspended: undefined });
    expect(() => read({ email: 3 })).toThrow('email: a string (an address; "" or null: none)');
  });

  it('diffs only the fields the manifest gives, unknown where the record lacks one', () => {
    const live: LiveClient = { id: 7, username: 'alice', idHostingPlan: 1, email: null };
    const unknown: ClientField[] = [];
    const update = updateClient(
      'alice',
      { plan: 'Business', email: 'a@example.com', suspended: true },
      live,
      plans,
      (f) => unknown.push(f),
    );
    expect(unknown).toEqual(['suspended']);
    expect(update?.fields).toEqual([
      { field: 'plan', before: 'Basic', after: 'Business' },
      { field: 'email', before: null, after: 'a@example.com' },
    ]);
    expect(update?.hostingPlan).toEqual({ name: 'Business', id: 2 });
    expect(update === undefined ? undefined : clientRequest(update)).toEqual({
      method: 'PUT',
      path: '/clients/7',
      body: { id_hosting_plan: 2, email: 'a@example.com' },
    });
    expect(updateClient('alice', { plan: 'Basic' }, live, plans, () => undefined)).toBeUndefined();
  });

  it('creates with each field the manifest gives, and the plan document holds it both ways', () => {
    const create = createClient('bob', { plan: 'Basic', suspended: false }, plans);
    expect(clientRequest(create)).toEqual({
      method: 'POST',
      path: '/clients',
      body: { username: 'bob', id_hosting_plan: 1, is_suspended: false, send_login_credentials: false },
    });
    const json = clientToJson(create);
    expect(json).toEqual({ hosting_plan: { name: 'Basic', id: 1 }, suspended: false, send_login_credentials: false });
    expect(clientFromJson({ action: 'create', ...json }, create)).toEqual(create);
  });

  it("takes from a second read only the fields the first one lacked, and fingerprints each field's value", () => {
    const listed: LiveClient = { id: 7, username: 'alice', idHostingPlan: 9, email: undefined };
    const merged = withFieldsFrom(listed, { id: 7, username: 'alice', idHostingPlan: 1, email: 'a@x.example' });
    expect(merged).toMatchObject({ idHostingPlan: 9, email: 'a@x.example' });
    expect(fieldFact(merged, 'plan', plans)).toBe('"#9"');
    expect(fieldFact(merged, 'email', plans)).toBe('"a@x.example"');
    expect(fieldFact(merged, 'suspended', plans)).toBe('unknown');
  });
});

describe('the language row', () => {
  it('reads "" or null as none, a code as is, anything else as unknown (a field managed only lately)', () => {
    expect(read({ language: '' }).language).toBeNull();
    expect(read({ language: null }).language).toBeNull();
    expect(read({ language: 'de' }).language).toBe('de');
    expect(read({ language: 1 }).language).toBeUndefined();
  });

  it('is not written by a fresh export, and kept up to date where a manifest gives it', () => {
    expect(CLIENT_FIELDS.filter((row) => row.exported).map((row) => row.key)).toEqual(['plan', 'email', 'suspended']);
  });
});

describe('the schemas hold every row', () => {
  const schema = (name: string): Record<string, unknown> =>
    JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

  it("the manifest schema has each row's key, of the row's type", () => {
    const { $defs } = schema('manifest.schema.json') as { $defs: { client: { properties: Record<string, unknown> } } };
    for (const row of CLIENT_FIELDS) expect($defs.client.properties[row.key]).toMatchObject({ type: row.type });
  });

  it("the plan schema's fields and unknowns name every row", () => {
    const text = JSON.stringify(schema('plan.schema.json'));
    const keys = CLIENT_FIELDS.map((row) => row.key);
    const enums = [...text.matchAll(/"enum":\[("plan"[^\]]*)\]/g)].map(
      (m) => JSON.parse(`[${m[1] ?? ''}]`) as string[],
    );
    const settings = SETTING_ROWS.map((row) => row.key);
    // The section kinds' fields, in the table's order.
    const sections = [MAILBOX_FIELDS, DATABASE_FIELDS, FTP_USER_FIELDS].flatMap((rows) => rows.map((row) => row.key));
    // unknowns: any field, then a client's alone; a client update's fields.
    expect(enums).toEqual([[...keys, ...settings, ...sections], keys, keys]);
    const { $defs } = schema('plan.schema.json') as { $defs: { setting: { enum: string[] } } };
    expect($defs.setting.enum).toEqual(settings);
  });
});
