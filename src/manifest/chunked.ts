import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { Found, Locator } from './locate.js';
import { aliasLimit, type MergeSource, type PosNode, PositionMap, Reading } from './positions.js';
import { readSimpleItems } from './simple-items.js';
import { isRecord } from '../util.js';

/**
 * The chunked reader of large manifests (the fast path of `parseManifest`).
 *
 * yaml holds the concrete syntax tree of the whole file and its Document at once: about
 * 280 MB of heap for a 4.4 MB manifest. For the common shape (a top-level block mapping whose
 * `clients:` is a block sequence) this reader splits the text by lines into the header and
 * trailer (everything but the client items, parsed as one small document, its offsets mapped
 * back to the file's) and batches of whole client items, and parses each batch as a document
 * of its own (a block sequence at the items' original indentation: columns are unchanged,
 * lines are offset by the batch's first line; a batch in the plain block YAML nearly every
 * manifest is written in is read by simple-items.ts instead, with the same answer and without
 * a syntax tree). The caller checks each batch as it comes
 * (schema, then the semantic checks one client at a time) and keeps only `Desired`: a batch's
 * syntax tree, Document, data and positions die with it.
 *
 * It only reads what it can read exactly as the whole-document parse would (line breaks may be
 * \n or \r\n, and the file may start with a byte order mark: a batch is a substring of the
 * file, and yaml counts both as the whole read does). It gives up (returns undefined, and the
 * caller parses the whole file) on a tab or a carriage return without its line feed anywhere,
 * any top-level line other than a comment, the `clients:` line or a plain key followed by
 * nothing, a simple plain value or a flow collection (TOP_LINE; its value may go on over
 * indented lines, the `prune:` block, or over lines of a block sequence at column 0, the
 * `hosting_plans:` list), an indented or sequence header or trailer line that follows no
 * such key, a `clients:` without a block sequence under it, a line that leaves the
 * sequence at any indentation but 0, any YAML error or warning in any part (an unknown tag
 * is a warning), a non-scalar key anywhere, an alias without its anchor before it (or inside it), an
 * anchor or alias in the trailer, a merge key (`<<`) of what is not a mapping, aliases that
 * expand past the whole read's guard (positions.ts: anchors, aliases and merges are read part
 * by part, each alias standing for the last anchor of its name before it), and (for files up to
 * CHUNKED_DIAGNOSTICS_ABOVE, see load.ts) any diagnostic at all from the schema or semantic
 * checks: so every diagnostic, and every location in it, is the whole-document parse's. Larger
 * files keep the chunked read and check their items one by one (checkClientSchema), with the
 * same words and locations; the tests hold both reads to the same answer. A batch ends only
 * where a line at the sequence's indentation starts a new item: nothing that spans lines (a
 * quoted or flow scalar, a block scalar) can cross that line without a syntax error in the
 * batch before it.
 */

/** What the chunked reader found: the top-level data, and the client items batch by batch. */
export interface ChunkedRead {
  /** The top-level mapping's data, with `clients: []`. */
  readonly top: Record<string, unknown>;
  /** Locates paths in the top level (`prune` and what is under it) at the file's lines and columns. */
  readonly topSource: Locator<PosNode>;
  /** The client items in manifest order, a batch at a time; undefined: give up. Read once. */
  readonly batches: Iterable<ItemBatch | undefined>;
}

/** Some consecutive client items: their data, and where each one and its parts stand. */
export interface ItemBatch {
  readonly clients: readonly unknown[];
  readonly nodes: readonly Found<PosNode>[];
  readonly source: Locator<PosNode>;
}

/**
 * Client items are parsed in batches of about this many characters (whole items): small
 * enough that a batch's syntax tree dies young (larger batches get promoted to the old
 * generation and raise the peak: 64 KiB peaks at 220 MB on the 100,000-resource file, 4 KiB
 * at 155 MB), large enough that the per-document cost of yaml does not show.
 */
export const BATCH_CHARS = 4 * 1024;

const CLIENTS_LINE = /^clients:(?: *| +#.*)$/;
/** The start of the document: once, before any key (a second is a second document: read whole). */
const DOCUMENT_START = /^---(?: *| +#.*)$/;
/**
 * A top-level line the header and trailer may hold: a plain key, perhaps an anchor (`x-defaults:
 * &d`), then nothing (a block value follows on indented lines: `prune:`), a plain simple value
 * (`version: 1`) or a flow collection (`prune: {domains: true}`, which may go on over indented lines).
 */
const TOP_LINE =
  /^(?!clients:)[A-Za-z0-9_][A-Za-z0-9_-]*:(?: +&[A-Za-z0-9_-]+)?(?: *| +#.*| +[A-Za-z0-9_.+-]+ *(?: #.*)?| +[{[].*)$/;

/**
 * Reads the manifest's data and positions in chunks; undefined when the text is not of the
 * shape this reader handles exactly, or when any part of it has a YAML error or warning.
 */
export function readChunked(text: string, file: string, batchChars = BATCH_CHARS): ChunkedRead | undefined {
  if (text.includes('\t') || /\r(?!\n)/.test(text)) return undefined;

  // Lines as [start, end) offsets of their content: without the line break (\n or \r\n), and
  // the first without a byte order mark. No line after a final line break.
  let lineStart = 0;
  let lineNumber = 0; // lines returned so far: the 1-based number of the last one
  const nextLine = (): { start: number; end: number } | undefined => {
    if (lineStart > text.length || (lineStart === text.length && lineStart > 0)) return undefined;
    const newline = text.indexOf('\n', lineStart);
    const breakAt = newline === -1 ? text.length : newline;
    const end = breakAt > lineStart && text.charCodeAt(breakAt - 1) === 13 ? breakAt - 1 : breakAt;
    const line = { start: lineStart === 0 && text.charCodeAt(0) === 0xfeff ? 1 : lineStart, end };
    lineStart = breakAt + 1;
    lineNumber++;
    return line;
  };
  const indentOf = (start: number, end: number): number => {
    let i = start;
    while (i < end && text.charCodeAt(i) === 32) i++;
    return i - start;
  };
  const isBlankOrComment = (start: number, end: number): boolean => {
    const indent = indentOf(start, end);
    return start + indent === end || text.charCodeAt(start + indent) === 35; // '#'
  };

  // A header or trailer line: blank, a comment, a top-level key line, or an indented line
  // of the value of the key line before it (the skeleton's parse checks what they hold).
  let inEntry = false;
  const isTopLine = (start: number, end: number): boolean => {
    if (isBlankOrComment(start, end)) return true;
    if (text.charCodeAt(start) === 32) return inEntry;
    // A block sequence at column 0 under the key line before it (`hosting_plans:` then `- name: x`).
    if (text.charCodeAt(start) === 45 && (end - start === 1 || text.charCodeAt(start + 1) === 32)) return inEntry;
    inEntry = TOP_LINE.test(text.slice(start, end));
    return inEntry;
  };

  // The header, up to and including `clients:`; it may open with a document start (`---`, as
  // yamllint's document-start rule asks), before any key.
  let line = nextLine();
  let keys = false;
  for (;;) {
    if (line === undefined) return undefined;
    if (CLIENTS_LINE.test(text.slice(line.start, line.end))) break;
    if (!keys && DOCUMENT_START.test(text.slice(line.start, line.end))) keys = true;
    else if (!isTopLine(line.start, line.end)) return undefined;
    else keys ||= !isBlankOrComment(line.start, line.end);
    line = nextLine();
  }
  const sectionStart = lineStart; // the offset after the `clients:` line

  // Comments and blank lines, then the first item: its indentation is the sequence's.
  line = nextLine();
  while (line !== undefined && isBlankOrComment(line.start, line.end)) line = nextLine();
  if (line === undefined) return undefined;
  const seqIndent = indentOf(line.start, line.end);
  const isItemStart = (start: number, end: number): boolean =>
    end - start > seqIndent + 2 &&
    text.charCodeAt(start + seqIndent) === 45 && // '-'
    text.charCodeAt(start + seqIndent + 1) === 32 &&
    text.charCodeAt(start + seqIndent + 2) !== 32 &&
    text.charCodeAt(start + seqIndent + 2) !== 35;
  if (!isItemStart(line.start, line.end)) return undefined;

  // Batches of whole items: [start offset, end offset, 0-based line of the start].
  const batches: [number, number, number][] = [];
  let batchStart = line.start;
  let batchLine = lineNumber - 1;
  let sectionEnd = text.length;
  let trailerLine: { start: number; end: number } | undefined;
  for (line = nextLine(); line !== undefined; line = nextLine()) {
    if (isBlankOrComment(line.start, line.end)) continue;
    const indent = indentOf(line.start, line.end);
    if (indent > seqIndent) continue;
    if (indent === seqIndent && isItemStart(line.start, line.end)) {
      if (line.start - batchStart >= batchChars) {
        batches.push([batchStart, line.start, batchLine]);
        batchStart = line.start;
        batchLine = lineNumber - 1;
      }
      continue;
    }
    // The sequence ends: only at a top-level key.
    if (indent !== 0 || text.charCodeAt(line.start) === 45) return undefined;
    sectionEnd = line.start;
    trailerLine = line;
    break;
  }
  batches.push([batchStart, sectionEnd, batchLine]);

  // The trailer: top-level lines after the sequence.
  inEntry = false;
  for (line = trailerLine; line !== undefined; line = nextLine()) {
    if (!isTopLine(line.start, line.end)) return undefined;
  }

  // Header and trailer as one document (the item lines left out: offsets from the trailer on
  // are moved back to the file's, so its lines and columns are the file's).
  const skeletonText = text.slice(0, sectionStart) + text.slice(sectionEnd);
  const skeleton = parseClean(skeletonText);
  if (skeleton === undefined || !isMap(skeleton.doc.contents)) return undefined;
  const skeletonLines = skeleton.lineCounter;
  let sectionNewlines = 0;
  for (let i = text.indexOf('\n', sectionStart); i !== -1 && i < sectionEnd; i = text.indexOf('\n', i + 1))
    sectionNewlines++;
  // Anchors in the header may stand for clients' aliases and merges; none in the trailer.
  const reading = new Reading(aliasLimit(text));
  const top = reading.position(
    skeleton.doc.contents,
    (offset) => {
      const { line, col } = skeletonLines.linePos(offset);
      return { line: offset < sectionStart ? line : line + sectionNewlines, column: col };
    },
    skeletonText,
    sectionStart,
  );
  const data: unknown = top === undefined ? undefined : reading.toJS(skeleton.doc);
  const clientsValue = skeleton.doc.contents.get('clients', true);
  if (
    top?.entries?.filter((entry) => entry.key === 'clients').length !== 1 ||
    !isScalar(clientsValue) ||
    clientsValue.value !== null ||
    !isRecord(data) ||
    data.clients !== null
  ) {
    return undefined;
  }
  data.clients = [];
  return {
    top: data,
    topSource: new PositionMap(file, text, top),
    batches: readBatches(text, file, batches, reading),
  };
}

/** Reads the batches one at a time: each batch's syntax tree and Document die with it. */
function* readBatches(
  text: string,
  file: string,
  batches: readonly [number, number, number][],
  reading: Reading,
): Generator<ItemBatch | undefined> {
  // Without a `*` the text holds no alias: nothing to count for the guard.
  const mayAlias = text.includes('*');
  const mergeSource = (name: string): MergeSource | undefined => reading.mergeSource(name);
  for (const [start, end, firstLine] of batches) {
    const simple = readSimpleItems(text, start, end, firstLine, mayAlias ? mergeSource : undefined);
    if (simple !== undefined && mayAlias) reading.count(simple.seq);
    const read = simple ?? readItemsWithYaml(text, start, end, firstLine, reading);
    // Aliases that expand past the guard: the whole read says so.
    if (read === undefined || reading.tooLarge) {
      yield undefined;
      return;
    }
    yield {
      clients: read.clients,
      nodes: read.seq.items?.map((node) => ({ node, via: undefined })) ?? [],
      // What the fast read makes is its own (it gives up on anchors and aliases, and a merge adds
      // scalars and its alias's positions, which release refuses to go through); yaml's may be shared.
      source: new PositionMap(file, text, read.seq, simple !== undefined),
    };
  }
}

/**
 * The client items of `text` from `start` to `end` (whole items; the first on line
 * `firstLine + 1`) through `yaml`: their data, and the sequence's positions; undefined when
 * `yaml` finds anything wrong or anything `position` gives up on. The reference that
 * simple-items.ts is held to (exported for its tests).
 */
export function readItemsWithYaml(
  text: string,
  start: number,
  end: number,
  firstLine: number,
  reading = new Reading(aliasLimit(text)),
): { readonly clients: unknown[]; readonly seq: PosNode } | undefined {
  const batchText = text.slice(start, end);
  const batch = parseClean(batchText);
  if (batch === undefined || !isSeq(batch.doc.contents)) return undefined;
  const lines = batch.lineCounter;
  const seq = reading.position(
    batch.doc.contents,
    (offset) => {
      const { line, col } = lines.linePos(offset);
      return { line: line + firstLine, column: col };
    },
    batchText,
  );
  // Only after `position` has found every alias's anchor: toJS throws for an alias without one.
  const clients: unknown = seq?.items === undefined ? undefined : reading.toJS(batch.doc);
  if (seq?.items === undefined || !Array.isArray(clients) || clients.length !== seq.items.length) return undefined;
  return { clients, seq };
}

/** A document with no error and no warning, with its line counter; undefined otherwise. */
function parseClean(text: string): { doc: Document; lineCounter: LineCounter } | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    // As the whole read (load.ts): `<<: *defaults` merges an anchored mapping.
    merge: true,
    prettyErrors: false,
    logLevel: 'error',
  });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return undefined;
  return { doc, lineCounter };
}
