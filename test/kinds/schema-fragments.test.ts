/**
 * The published schemas are composed from a skeleton per document (src/kinds/schemas/) and a
 * fragment per kind (src/kinds/<room>/schema*.json) by scripts/compose-schemas.ts: the files
 * in schemas/ are what it writes (a fragment changed without `npm run build` fails here), each
 * self-contained, and every kind of the table has its fragment.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  composeSchemas,
  DOCUMENTS,
  type Fragment,
  publishedFile,
  readFragments,
} from '../../scripts/compose-schemas.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const SCHEMAS = new URL('../../schemas/', import.meta.url);

/** Every `$ref` in a schema, with where it stands. */
function refs(node: unknown, path: string): { ref: string; path: string }[] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ ref: value, path }] : refs(value, `${path}/${key}`),
  );
}

/** The node a local `$ref` (`#/$defs/x`) points at, or undefined. */
function resolvePointer(schema: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .filter((part) => part !== '')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], schema);
}

describe('the published schemas', () => {
  it('are what the skeletons and the kinds’ fragments compose (run npm run build when this fails)', async () => {
    const composed = composeSchemas();
    expect([...composed.keys()]).toEqual(DOCUMENTS);
    for (const [document, text] of composed)
      expect(await readFile(publishedFile(document), 'utf8'), document).toBe(text);
  });

  it('are self-contained: every $ref points inside its own file, at something there', async () => {
    const files = (await readdir(SCHEMAS)).filter((name) => name.endsWith('.schema.json'));
    expect(files.length).toBeGreaterThanOrEqual(DOCUMENTS.length);
    for (const file of files) {
      const schema: unknown = JSON.parse(await readFile(new URL(file, SCHEMAS), 'utf8'));
      for (const { ref, path } of refs(schema, '#')) {
        expect(ref, `${file} ${path}`).toMatch(/^#(\/|$)/);
        expect(resolvePointer(schema, ref), `${file} ${path}: ${ref}`).toBeDefined();
      }
      expect(JSON.stringify(schema), file).not.toMatch(/"\$(slot|join)"/);
    }
  });

  it('have a fragment for every kind of the table, read in its order', () => {
    const kinds = [...new Set(readFragments().map((fragment) => fragment.kind))];
    expect(kinds).toEqual(KIND_NAMES);
  });

  it('change when a fragment does: the drift check above catches an edit not composed again', async () => {
    const [first, ...others] = readFragments();
    if (first === undefined) throw new Error('no fragment');
    const edited: Fragment[] = [
      { ...first, pieces: new Map([...first.pieces, ['apply-result.ids', ['`edited:<name>`']]]) },
      ...others,
    ];
    const apply = composeSchemas(undefined, edited).get('apply-result') ?? '';
    expect(apply).toContain('`edited:<name>`');
    expect(apply).not.toBe(await readFile(publishedFile('apply-result'), 'utf8'));
  });
});

describe('composing', () => {
  /** A kinds folder with one skeleton set and the given rooms' fragments, in a temp dir. */
  async function kindsDir(rooms: Record<string, object>): Promise<{ skeletons: string; kinds: string }> {
    const root = await mkdtemp(join(tmpdir(), 'schema-fragments-'));
    const skeletons = join(root, 'schemas');
    await mkdir(skeletons);
    const skeleton = {
      title: { $join: 'kind', each: '"%s"', separator: ', ', last: ' or ' },
      enum: [{ $slot: 'kind' }],
      properties: { version: { const: 1 }, $slot: 'sections', tail: true },
    };
    for (const document of DOCUMENTS) await writeFile(join(skeletons, `${document}.json`), JSON.stringify(skeleton));
    for (const [room, fragment] of Object.entries(rooms)) {
      const [dir = room, file = 'schema.json'] = room.split(':');
      await mkdir(join(root, dir), { recursive: true });
      await writeFile(join(root, dir, file), JSON.stringify(fragment));
    }
    return { skeletons, kinds: root };
  }

  const compose = async (rooms: Record<string, object>, kinds: readonly string[]): Promise<unknown> => {
    const dirs = await kindsDir(rooms);
    const text = composeSchemas(dirs.skeletons, readFragments(dirs.kinds, kinds)).get('manifest') ?? '';
    return JSON.parse(text);
  };

  it("fills each slot with the kinds' pieces in the table's order, a room's schema.json first", async () => {
    const schema = await compose(
      {
        'b:schema-more.json': { kind: 'beta', sections: { b2: { $slot: 'inner' } } },
        b: { kind: 'beta', sections: { b1: 1 } },
        a: { kind: 'alpha', sections: { a1: 1 }, inner: { x: 2 } },
      },
      ['alpha', 'beta'],
    );
    expect(schema).toEqual({
      title: '"alpha" or "beta"',
      enum: ['alpha', 'beta'],
      properties: { version: { const: 1 }, a1: 1, b1: 1, b2: { x: 2 }, tail: true },
    });
    expect(Object.keys((schema as { properties: object }).properties)).toEqual(['version', 'a1', 'b1', 'b2', 'tail']);
  });

  it('refuses a kind without a fragment, a piece no slot takes and a key given twice', async () => {
    await expect(compose({ a: { kind: 'alpha' } }, ['alpha', 'beta'])).rejects.toThrow('beta has no schema fragment');
    await expect(compose({ a: { kind: 'alpha', nowhere: {} } }, ['alpha'])).rejects.toThrow(
      'no document has the slot nowhere',
    );
    await expect(compose({ a: { kind: 'alpha', sections: { tail: 1 } } }, ['alpha'])).rejects.toThrow(
      'has the key tail already',
    );
    await expect(compose({ a: { kind: 'gamma' } }, ['alpha'])).rejects.toThrow('must name a kind of the table');
  });
});
