/** The manifest's JSON Schema file itself: what editors and the validator read. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAN_OBJECTS as PLAN_OBJECT_NAMES } from '../../src/kinds/hosting-plan/fields.js';

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
});
