import { LineCounter, parseDocument } from 'yaml';
import type { YAMLError } from 'yaml';
import { buildClients, ClientsBuilder } from './build.js';
import { BATCH_CHARS, readChunked } from './chunked.js';
import { readJsonChunked } from './chunked-json.js';
import { withIndentation } from './indentation.js';
import { locateIn, SourceMap } from './locate.js';
import { aliasLimit } from './positions.js';
import { buildHostingPlans, checkClientPlans } from '../kinds/hosting-plan/manifest-list.js';
import { lookalikeDiagnostics } from './lookalike.js';
import { buildPrune } from './prune.js';
import type { SectionSeens } from './sections.js';
import { checkClientSchema, checkSchema, NO_CLIENTS, schemaValid } from './schema.js';
import type { Desired, Diagnostic, Location } from './types.js';
import { quote } from '../escape.js';
import { isRecord, plural } from '../util.js';
import { HOSTING_PLANS_KEY } from '../kinds/hosting-plan/manifest.js';

/** What loading a manifest found: `desired` is undefined exactly when a diagnostic is an error. */
export interface LoadResult {
  readonly desired: Desired | undefined;
  /**
   * The problems found, sorted by line and column (at most MAX_DIAGNOSTICS, then a count); warnings
   * do not stop the load.
   */
  readonly diagnostics: Diagnostic[];
  /** How many errors there are in all, when more were found than `diagnostics` lists. */
  readonly errorCount?: number;
  /**
   * With errors, what did read (the entries well-formed enough to be built), for the checks
   * across a directory's parts (parts.ts): every problem at once, not a part's own first. Never
   * a manifest to plan.
   */
  readonly partial?: Desired;
  /**
   * How many problems were found past the ones listed, when there were too many: `diagnostics`
   * then ends with the line that says so (at the first of them).
   */
  readonly hidden?: number;
}

/**
 * Validates a manifest's bytes (as read from a file, a pipe or stdin): strict UTF-8, then
 * `parseManifest`. Pure: everything wrong, invalid UTF-8 included, comes back as diagnostics.
 * A caller that records the manifest (a plan) hashes the same bytes itself: validating needs no hash.
 */
export function parseManifestBytes(bytes: Uint8Array, file: string): LoadResult {
  const decoded = decodeUtf8(bytes, file);
  if ('diagnostic' in decoded) return { desired: undefined, diagnostics: [decoded.diagnostic] };
  return parseManifest(decoded.text, file);
}

/**
 * One part of a manifest directory (parts.ts), validated on its own: strict UTF-8, then
 * validateManifest as a part (which may leave out `clients`). No look-alike warnings: those are
 * for the whole manifest. Pure.
 */
export function validatePartBytes(bytes: Uint8Array, file: string, seens?: SectionSeens): LoadResult {
  const decoded = decodeUtf8(bytes, file);
  if ('diagnostic' in decoded) return { desired: undefined, diagnostics: [decoded.diagnostic] };
  return validateManifest(decoded.text, file, true, seens);
}

/**
 * Decodes UTF-8 strictly. On a bad byte, reports it at its line and column: a lenient decode
 * would turn it into U+FFFD and a domain or username would silently change.
 */
function decodeUtf8(bytes: Uint8Array, file: string): { text: string } | { diagnostic: Diagnostic } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // Rare path: decode leniently and walk to the first U+FFFD that the bytes did not spell.
    const text = new TextDecoder('utf-8').decode(bytes);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let offset = bom;
    let index = 0;
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      const spelled = bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd;
      if (code === 0xfffd && !spelled) break;
      offset += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      index += char.length;
    }
    const before = text.slice(0, index);
    const line = before.split('\n').length;
    const column = index - before.lastIndexOf('\n');
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return {
      diagnostic: {
        file,
        line,
        column,
        severity: 'error',
        message: `invalid UTF-8 (byte 0x${byte}): save the manifest as UTF-8`,
      },
    };
  }
}

/**
 * Parses and validates manifest text (validateManifest); a valid manifest also gets its
 * look-alike names as warnings (lookalike.ts), after the rest. Pure; never throws for any text.
 */
export function parseManifest(text: string, file: string): LoadResult {
  const result = validateManifest(text, file);
  if (result.desired === undefined) return result;
  return {
    desired: result.desired,
    diagnostics: [...result.diagnostics, ...lookalikeDiagnostics(result.desired)],
  };
}

/**
 * YAML, then the JSON Schema, then the semantic checks, reporting every problem with its
 * location. Never throws for any input text.
 *
 * A valid manifest of the common shape is read in chunks (`parseManifestChunked`), which
 * holds a fraction of the memory for a large file; anything else, and every manifest with a
 * diagnostic, is read whole (`parseManifestWhole`): the result is the same either way.
 */
export function validateManifest(text: string, file: string, part = false, seens?: SectionSeens): LoadResult {
  // The chunked read answers undefined for whatever it does not handle, and never throws
  // (test/manifest/chunked.test.ts and test/e2e/property.test.ts hold it to that on random
  // text): a throw is a bug, reported as one, never hidden behind the whole read's answer.
  // `seens` (a directory's parts: sections.ts) grows only by the read that answers.
  const attempt = seens?.attempt();
  const chunked = parseManifestChunked(text, file, undefined, text.length > CHUNKED_DIAGNOSTICS_ABOVE, attempt);
  const whole = chunked === undefined ? seens?.attempt() : attempt;
  if (whole !== undefined) seens?.keep(whole);
  return chunked ?? parseManifestWhole(text, file, part, whole);
}

/**
 * Manifests larger than this (characters) keep the chunked read when their clients have
 * problems: the whole-document read of a 20 MB file full of errors takes 1.7 GB and 15 s
 * before its first diagnostic, and costs about 90 to 160 bytes a byte read. Smaller ones are read
 * whole then (at most about 10 MB of memory), so that every diagnostic and its location is the
 * whole-document parse's (chunked.ts); the tests hold the chunked read's diagnostics to the
 * whole read's at every size.
 */
export const CHUNKED_DIAGNOSTICS_ABOVE = 64 * 1024;

/**
 * The chunked read (see chunked.ts): the result of a manifest of the shape it handles;
 * undefined for anything else (then read the whole document). With `keepDiagnostics`, problems
 * in client items are reported from the chunked read itself (the same words and locations as
 * the whole read's), bounded: past MAX_DIAGNOSTICS the rest is only counted, so memory stays
 * a batch's. Without it, any diagnostic gives up (the whole read reports them).
 * `batchChars` (@internal, tests only) sets the size of the batches of client items.
 */
export function parseManifestChunked(
  text: string,
  file: string,
  batchChars?: number,
  keepDiagnostics = false,
  seens?: SectionSeens,
): LoadResult | undefined {
  const read = readChunked(text, file, batchChars) ?? readJsonChunked(text, file, batchChars ?? BATCH_CHARS);
  if (read === undefined || !schemaValid(read.top)) return undefined;
  const diagnostics: Diagnostic[] = [];
  const prune = buildPrune(read.top, read.topSource, diagnostics);
  const { topSource } = read;
  const hostingPlans = buildHostingPlans(read.top, topSource, diagnostics, (node, path, atKey) =>
    locateIn(topSource, node, path, atKey),
  );
  if (diagnostics.length > 0 && !keepDiagnostics) return undefined;
  const builder = new ClientsBuilder(diagnostics, seens);
  let index = 0;
  const beyond = { problems: 0, errors: 0 };
  for (const batch of read.batches) {
    if (batch === undefined) return undefined;
    // Valid as a whole exactly when the top level and every client are: the schema checks
    // each client on its own.
    const valid = schemaValid({ ...read.top, clients: batch.clients });
    if (!valid && !keepDiagnostics) return undefined;
    const before = diagnostics.length;
    batch.clients.forEach((client, i) => {
      const node = batch.nodes[i];
      if (!valid && node !== undefined)
        diagnostics.push(...checkClientSchema(read.top, client, index, batch.source, node));
      builder.add(batch.source, client, index++, node);
    });
    if (diagnostics.length > 0 && !keepDiagnostics) return undefined;
    // Batches come in file order: once enough are kept, later ones are only counted.
    if (before > MAX_DIAGNOSTICS) {
      for (const d of diagnostics.splice(before)) {
        beyond.problems++;
        if (d.severity === 'error') beyond.errors++;
      }
    }
  }
  checkClientPlans(builder.clients, hostingPlans, file, diagnostics);
  if (diagnostics.length > 0 && !keepDiagnostics) return undefined;
  return finish(desired(file, builder.clients, prune, hostingPlans), diagnostics, beyond);
}

/**
 * The whole-document read: yaml's Document for the whole text, then the same checks. A manifest
 * file lists `clients` (`clients: []` for none) unless it defines `hosting_plans`; a `part` of a
 * directory may hold any of the top-level keys alone (a part of plans, of prune).
 */
export function parseManifestWhole(text: string, file: string, part = false, seens?: SectionSeens): LoadResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    // `<<: *defaults` merges an anchored mapping (docs/manifest.md, "Anchors and x- keys").
    merge: true,
    prettyErrors: false,
    logLevel: 'error',
  });
  const source = new SourceMap(file, doc, lineCounter);
  const diagnostics: Diagnostic[] = [
    ...withIndentation(
      text,
      file,
      doc.errors.map((e) => yamlDiagnostic(e, 'error', text, source)),
    ),
    ...doc.warnings.map((w) => yamlDiagnostic(w, 'warning', text, source)),
  ];
  // Past a syntax error (or an indentation mistake yaml reads as text) the data is not what was
  // meant: schema messages about it would be noise.
  if (diagnostics.some((d) => d.severity === 'error')) return finish(undefined, diagnostics);

  if (doc.contents === null) {
    diagnostics.push({
      ...source.offset(0),
      severity: 'error',
      message: part
        ? 'the part is empty: start it with "version: 1", then what it holds ("clients", "hosting_plans" or "prune")'
        : 'the manifest is empty: start it with "version: 1" and a "clients" list',
    });
    return finish(undefined, diagnostics);
  }

  let data: unknown;
  try {
    const limit = aliasLimit(text);
    if (source.hasAliases() && source.expandedSize(limit) > limit) throw new RangeError('aliases expand too far');
    data = source.hasAliases() ? source.toJS() : doc.toJS({ maxAliasCount: limit });
  } catch {
    // toJS throws for an alias without its anchor, a merge of what is not a mapping and an
    // alias bomb; locate the cause.
    const unresolved = source.firstUnresolvedAlias();
    const badMerge = unresolved === undefined ? source.firstBadMerge() : undefined;
    diagnostics.push(
      badMerge !== undefined
        ? {
            ...source.of(badMerge),
            severity: 'error',
            message:
              'a merge key ("<<") takes an anchored mapping ("<<: *defaults") or a list of them: nothing else merges',
          }
        : unresolved === undefined
          ? {
              ...source.of(source.firstAlias()),
              severity: 'error',
              message:
                `aliases expand to too much data (more than ${aliasLimit(text).toLocaleString('en-US')} nodes): ` +
                'write the values out instead',
            }
          : {
              ...source.of(unresolved),
              severity: 'error',
              message: `unknown alias "*${unresolved.source}": define the anchor "&${unresolved.source}" before using it`,
            },
    );
    return finish(undefined, diagnostics);
  }

  diagnostics.push(...checkSchema(data, source));
  if (!part && isRecord(data) && !('clients' in data) && !(HOSTING_PLANS_KEY in data))
    diagnostics.push({ ...source.offset(0), severity: 'error', message: NO_CLIENTS });
  const prune = buildPrune(data, source, diagnostics);
  const hostingPlans = buildHostingPlans(data, source, diagnostics, (node, path, atKey) =>
    locateIn(source, node, path, atKey),
  );
  const clients = buildClients(data, source, diagnostics, seens);
  checkClientPlans(clients, hostingPlans, file, diagnostics);
  return finish(desired(file, clients, prune, hostingPlans), diagnostics);
}

/** Desired from its parts: `hostingPlans` only when the manifest lists plans. */
function desired(
  file: string,
  clients: Desired['clients'],
  prune: Desired['prune'],
  hostingPlans: Desired['hostingPlans'],
): Desired {
  return { file, clients, prune, ...(hostingPlans === undefined ? {} : { hostingPlans }) };
}

/**
 * At most this many diagnostics are reported, then how many more there are: a manifest full of
 * errors stays readable.
 */
export const MAX_DIAGNOSTICS = 1000;

/** `counted`: problems found past the ones kept (a chunked read keeps only the first), and how many are errors. */
function finish(
  desired: Desired | undefined,
  diagnostics: Diagnostic[],
  counted = { problems: 0, errors: 0 },
): LoadResult {
  const sorted = dedupe(diagnostics.sort(compareDiagnostics));
  const failed = counted.errors > 0 || sorted.some((d) => d.severity === 'error');
  const beyond = sorted[MAX_DIAGNOSTICS];
  const read = failed ? { desired: undefined, ...(desired === undefined ? {} : { partial: desired }) } : { desired };
  if (beyond === undefined) return { ...read, diagnostics: sorted };
  const more = sorted.length - MAX_DIAGNOSTICS + counted.problems;
  const shown = sorted.slice(0, MAX_DIAGNOSTICS);
  shown.push({
    ...beyond,
    message: moreProblems(more),
  });
  const errorCount = sorted.reduce((n, d) => n + (d.severity === 'error' ? 1 : 0), 0) + counted.errors;
  return { ...read, diagnostics: shown, errorCount, hidden: more };
}

/** The line that stands for the problems past the ones listed. */
export function moreProblems(n: number): string {
  return `… and ${plural(n, 'more problem')} from here on, not shown: fix the ones above first`;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

function dedupe(sorted: Diagnostic[]): Diagnostic[] {
  return sorted.filter((d, i) => {
    const previous = sorted[i - 1];
    return previous === undefined || compareDiagnostics(previous, d) !== 0;
  });
}

/** yaml's error, located and reworded where its wording does not say what to do. */
function yamlDiagnostic(e: YAMLError, severity: Diagnostic['severity'], text: string, source: SourceMap): Diagnostic {
  const start = e.pos[0];
  let message: string;
  switch (e.code) {
    case 'DUPLICATE_KEY': {
      const key = keyAt(text, start);
      message = `duplicate key${key === undefined ? '' : ` ${quote(key)}`}: a key may appear only once in a mapping`;
      break;
    }
    case 'MULTIPLE_DOCS':
      message = 'a manifest is a single YAML document: remove this "---" and merge what follows into the first';
      break;
    case 'TAB_AS_INDENT':
      message = 'tabs are not allowed as indentation: indent with spaces';
      break;
    case 'RESOURCE_EXHAUSTION':
      // yaml reports a stack overflow on absurdly deep nesting; no manifest needs that.
      message = 'the manifest nests too deeply to be read: a manifest needs only a few levels';
      break;
    default:
      // yaml's own wording ("Missing closing "quote"), as a sentence fragment on one line.
      message = e.message
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^./, (c) => c.toLowerCase())
        .replace(/\.$/, '');
  }
  const loc: Location = source.offset(start);
  return { ...loc, severity, message };
}

/** The key written at `offset`, for naming a duplicate key; undefined for complex keys. */
function keyAt(text: string, offset: number): string | undefined {
  const match = /^(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\n]|'')*)'|([^\s:#,[\]{}"'][^\n:#,[\]{}]*?))\s*:/.exec(
    text.slice(offset, offset + 256),
  );
  return match?.[1] ?? match?.[2]?.replaceAll("''", "'") ?? match?.[3]?.trimEnd();
}
