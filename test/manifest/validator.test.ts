import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGETS, generateValidatorSource } from '../../scripts/generate-validator.js';
import { schema, validate } from '../../src/manifest/validator.generated.js';

describe('the build-time (standalone) manifest validator', () => {
  it.each(TARGETS.map((target) => [target.schema.slice(target.schema.lastIndexOf('schemas/')), target] as const))(
    'is in sync with %s (run npm run build when this fails)',
    (_, target) => {
      const schemaText = readFileSync(target.schema, 'utf8');
      expect(readFileSync(target.generated, 'utf8')).toBe(generateValidatorSource(schemaText, target));
    },
  );

  it('carries the schema it was compiled from', () => {
    expect(schema).toEqual(JSON.parse(readFileSync(TARGETS[0]?.schema ?? '', 'utf8')));
  });

  it("reports every error (allErrors), with ajv's error objects", () => {
    const check = validate as unknown as ((data: unknown) => boolean) & {
      errors?: { keyword: string; instancePath: string }[] | null;
    };
    expect(check({ version: 1, clients: [{ username: 'alice', domains: ['a.example'] }] })).toBe(true);
    expect(check({ version: 2, clients: [{ usernme: 'x' }, { username: 'Bob' }] })).toBe(false);
    expect(check.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual([
      '/version const',
      '/clients/0 required',
      '/clients/0 additionalProperties',
      '/clients/1/username pattern',
    ]);
  });

  it('does not load ajv at run time', () => {
    const loader = readFileSync(new URL('../../src/manifest/schema.ts', import.meta.url), 'utf8');
    expect(loader).not.toMatch(/^import (?!type)[^\n]*from 'ajv/m);
  });
});
