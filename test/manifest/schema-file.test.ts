/** The manifest's JSON Schema file itself: what editors and the validator read. */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KNOWN_KEYS, PLAN_OBJECTS as PLAN_OBJECT_NAMES } from '../../src/kinds/hosting-plan/fields.js';
import { parseManifest } from '../../src/manifest/load.js';

describe('the schema file', () => {
  const schema: unknown = JSON.parse(
    readFileSync(new URL('../../schemas/manifest.schema.json', import.meta.url), 'utf8'),
  );

  it('closes every object with additionalProperties: false, so typos are caught', () => {
    // A hosting plan's objects stay open: an unknown key there is the plan room's warning (releases differ).
    const open: string[] = [];
    const PLAN_OBJECTS = PLAN_OBJECT_NAMES.map((o) => `#/$defs/hosting_plan/properties/${o}`);
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if (record.type === 'object' && record.additionalProperties !== false && !PLAN_OBJECTS.includes(path))
        open.push(path);
      for (const [key, value] of Object.entries(record)) walk(value, `${path}/${key}`);
    };
    walk(schema, '#');
    expect(open).toEqual([]);
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: expect.any(String) as string,
    });
  });

  it("takes exactly the values the hosting plan's room takes, inside each object", () => {
    // The loader leaves a value inside a plan's object to the room's checks (schema.ts drops the
    // schema's refusal there), so a rule the two disagree on is silent in provision and refused by
    // editors and CI checks that use the published file (php_fpm.status: true, written by export).
    const published = new Ajv2020({ allErrors: true, strict: true }).compile(schema as object);
    const values: unknown[] = [true, false, null, 0, -1, -2, 1.5, 1e20, 'x', '512M', '-1', '', [], [1], {}, { a: 1 }];
    const differ: string[] = [];
    for (const object of PLAN_OBJECT_NAMES)
      for (const key of [...KNOWN_KEYS[object], 'not_known'])
        for (const value of values) {
          const text = JSON.stringify({
            version: 1,
            clients: [],
            hosting_plans: [{ name: 'P', [object]: { [key]: value } }],
          });
          const loaded = parseManifest(text, 'm.json').diagnostics.every((d) => d.severity !== 'error');
          if (published(JSON.parse(text)) !== loaded)
            differ.push(`${object}.${key}: ${JSON.stringify(value)} (provision ${loaded ? 'takes' : 'refuses'} it)`);
        }
    expect(differ).toEqual([]);
  });
});
