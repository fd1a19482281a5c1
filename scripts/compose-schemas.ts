/**
 * Composes the published JSON Schemas of the documents that name kinds (the manifest, the plan,
 * the apply result and the snapshot) from a skeleton per document and a fragment per kind, and
 * writes each self-contained: every `$ref` stays inside its file (docs/architecture.md, "Adding
 * a resource kind").
 *
 * - `src/kinds/schemas/<document>.json` is a document's skeleton: what no kind owns.
 * - `src/kinds/<room>/schema.json` (then the room's `schema-*.json`, by name) is a kind's
 *   fragment: `{"kind": "<kind name>", "<slot>": <piece>, ...}`, each piece filling one slot.
 *
 * A slot is marked where its pieces go, in a skeleton or in another kind's piece:
 * - `"$slot": "<name>"` as a key of an object: the pieces (objects) are merged there, their
 *   keys in place of the marker; two pieces with one key are refused;
 * - `{"$slot": "<name>"}` as an item of an array: the pieces (arrays) are spliced there;
 * - `{"$join": "<name>", "each"?, "prefix"?, "separator"?, "last"?, "suffix"?}` as a value: the
 *   pieces (arrays of strings) joined into one string, `each` a pattern with `%s` for a piece.
 * Pieces come in the order of the kinds' table (`KINDS`); the slot `kind` holds every kind's
 * name. A piece for a slot no one marks is refused, so is a kind without a fragment.
 *
 * `node --import tsx scripts/compose-schemas.ts [--check]`: --check writes nothing and exits 1
 * when a published file differs. scripts/generate-validator.ts runs it first.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KIND_NAMES } from '../src/kinds/index.js';

const at = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The documents composed: each skeleton's name, and its published file. */
export const DOCUMENTS: readonly string[] = ['manifest', 'plan', 'apply-result', 'snapshot'];

/** A document's published file. */
export const publishedFile = (document: string): string => at(`schemas/${document}.schema.json`);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** One kind's pieces by slot, read from its room's fragment files. */
export interface Fragment {
  readonly kind: string;
  readonly file: string;
  readonly pieces: ReadonlyMap<string, Json>;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fragments under `kindsDir` (each room's `schema.json`, then its `schema-*.json`), in the table's order. */
export function readFragments(kindsDir: string = at('src/kinds'), kinds: readonly string[] = KIND_NAMES): Fragment[] {
  const fragments: Fragment[] = [];
  for (const room of readdirSync(kindsDir, { withFileTypes: true })) {
    if (!room.isDirectory()) continue;
    const names = readdirSync(join(kindsDir, room.name))
      .filter((name) => /^schema(-[a-z0-9-]+)?\.json$/.test(name))
      .sort((a, b) => (a === 'schema.json' ? -1 : b === 'schema.json' ? 1 : a < b ? -1 : 1));
    for (const name of names) {
      const file = join(kindsDir, room.name, name);
      const { kind, ...pieces } = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
      if (typeof kind !== 'string' || !kinds.includes(kind))
        throw new Error(`${file}: "kind" must name a kind of the table (${kinds.join(', ')})`);
      fragments.push({ kind, file, pieces: new Map(Object.entries(pieces)) });
    }
  }
  for (const kind of kinds)
    if (!fragments.some((f) => f.kind === kind)) throw new Error(`the kind ${kind} has no schema fragment`);
  // Stable: a room's files keep their order.
  return fragments.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
}

/** Composes skeletons with the fragments' pieces; every slot filled wherever it is marked. */
export class Composer {
  private readonly used = new Set<string>();

  constructor(private readonly fragments: readonly Fragment[]) {}

  /** The pieces of `slot`, in the table's order, each with the file it comes from. */
  private pieces(slot: string): { piece: Json; file: string }[] {
    this.used.add(slot);
    if (slot === 'kind') {
      const kinds = [...new Set(this.fragments.map((f) => f.kind))];
      return kinds.map((kind) => ({ piece: [kind], file: 'the kinds table' }));
    }
    return this.fragments.flatMap((f) => {
      const piece = f.pieces.get(slot);
      return piece === undefined ? [] : [{ piece, file: f.file }];
    });
  }

  /** `value` with every slot it marks filled (pieces are filled too: a piece may mark slots). */
  fill(value: Json, where: string): Json {
    if (Array.isArray(value)) return value.flatMap((item) => this.items(item, where));
    if (!isObject(value)) return value;
    if (typeof value.$join === 'string') return this.join(value.$join, value, where);
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      if (key !== '$slot') {
        out[key] = this.fill(child, `${where}/${key}`);
        continue;
      }
      if (typeof child !== 'string') throw new Error(`${where}: "$slot" names a slot (a string)`);
      for (const { piece, file } of this.pieces(child)) {
        if (!isObject(piece)) throw new Error(`${file}: the slot ${child} takes an object (it is marked in an object)`);
        for (const [k, v] of Object.entries(piece)) {
          if (k in out || k in value) throw new Error(`${file}: ${where} has the key ${k} already (slot ${child})`);
          out[k] = this.fill(v, `${where}/${k}`);
        }
      }
    }
    return out;
  }

  private items(item: Json, where: string): Json[] {
    if (!isObject(item) || typeof item.$slot !== 'string' || Object.keys(item).length !== 1)
      return [this.fill(item, where)];
    const slot = item.$slot;
    return this.pieces(slot).flatMap(({ piece, file }) => {
      if (!Array.isArray(piece)) throw new Error(`${file}: the slot ${slot} takes an array (it is marked in an array)`);
      return piece.map((p) => this.fill(p, where));
    });
  }

  private join(slot: string, marker: JsonObject, where: string): string {
    const text = (key: string, fallback: string): string => {
      const v = marker[key];
      if (v === undefined) return fallback;
      if (typeof v !== 'string') throw new Error(`${where}: "${key}" of a $join is a string`);
      return v;
    };
    const strings = this.pieces(slot).flatMap(({ piece, file }) => {
      if (!Array.isArray(piece) || !piece.every((p) => typeof p === 'string'))
        throw new Error(`${file}: the slot ${slot} takes an array of strings (it is joined)`);
      return piece;
    });
    const each = strings.map((s) => text('each', '%s').replace('%s', s));
    const separator = text('separator', ', ');
    const last = text('last', separator);
    const joined = each.length < 2 ? each.join('') : `${each.slice(0, -1).join(separator)}${last}${each.at(-1) ?? ''}`;
    return `${text('prefix', '')}${joined}${text('suffix', '')}`;
  }

  /** Refuses a piece no skeleton or piece has a slot for (call after filling every document). */
  checkUsed(): void {
    for (const f of this.fragments)
      for (const slot of f.pieces.keys())
        if (!this.used.has(slot)) throw new Error(`${f.file}: no document has the slot ${slot}`);
  }
}

/**
 * A schema's published text: two-space JSON, characters beyond ASCII escaped (`\u2026`), so
 * the file reads the same in any encoding.
 */
export function publishedText(schema: Json): string {
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Every composed document's published text, by document name. */
export function composeSchemas(
  skeletonsDir: string = at('src/kinds/schemas'),
  fragments: readonly Fragment[] = readFragments(),
): Map<string, string> {
  const composer = new Composer(fragments);
  const out = new Map<string, string>();
  for (const document of DOCUMENTS) {
    const skeleton = JSON.parse(readFileSync(join(skeletonsDir, `${document}.json`), 'utf8')) as Json;
    out.set(document, publishedText(composer.fill(skeleton, `${document}#`)));
  }
  composer.checkUsed();
  return out;
}

/** Writes `wanted` to `file` when it holds something else (with `check`, writes nothing); whether it did. */
export function syncFile(file: string, wanted: string, check: boolean): boolean {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === wanted) return false;
  if (!check) writeFileSync(file, wanted);
  return true;
}

/** Writes the composed schemas (or with `check`, writes nothing); the files that differed. */
export function writeSchemas(check: boolean): string[] {
  return [...composeSchemas()].flatMap(([document, wanted]) => {
    const file = publishedFile(document);
    return syncFile(file, wanted, check) ? [file] : [];
  });
}

/** With `check`, names each file that differed on stderr and fails the run. */
export function reportStale(stale: readonly string[], check: boolean): void {
  if (!check) return;
  for (const file of stale) {
    process.stderr.write(`${file} is out of date: run npm run build\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes('--check');
  reportStale(writeSchemas(check), check);
}
