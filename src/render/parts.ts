/**
 * What a change does in the manifest's terms (its kind's room words it), for the diff lines
 * above its request, whose body is in the panel's. Pure.
 */
import { assertNever } from '../util.js';
import type { Change } from '../plan/types.js';
import { kindOf } from '../kinds/index.js';
import type { PartMark } from '../kinds/kind.js';
import { lineSubject } from './common.js';

/** What a change does in the manifest's terms: its subject, and one part per field or setting. */
export interface ChangeParts {
  readonly subject: string;
  /** `https.force: false -> true` (an update), `php_version: "8.3"` (a create's setting); at least one. */
  readonly parts: readonly string[];
  /**
   * Whether a list reads better than one line when there are several parts (Markdown): a
   * domain's settings, whose values are JSON objects; a client's short fields stay on one line.
   */
  readonly list: boolean;
  /**
   * Each part's own sign, when its parts are changes of their own (a zone's records: `+` added,
   * `-` removed, `~` a TTL changed); undefined when the parts take the change's sign.
   */
  readonly marks?: readonly PartMark[];
  /** With `marks`: how a bounded list counts the parts it leaves out (`record change`). */
  readonly item?: string;
}

/**
 * What a change does in the manifest's terms, for the diff line above its request (whose body
 * is in the panel's): an update's fields `before -> after`, a domain created with settings its
 * settings; undefined when the request says it all. Values are JSON text: a redirect's URL and
 * a panel's strings are data.
 */
export function changeParts(change: Change): ChangeParts | undefined {
  const kind = kindOf(change);
  const parts = ((): readonly string[] => {
    switch (change.action) {
      case 'create':
        return kind.createdParts(change);
      case 'update':
        return kind.updatedParts(change);
      case 'delete':
        return [];
      default:
        return assertNever(change);
    }
  })();
  if (parts.length === 0) return undefined;
  const marked = kind.markedParts;
  return {
    subject: lineSubject(change),
    parts,
    list: kind.listsParts,
    ...(marked === undefined ? {} : { marks: marked.marks(change), item: marked.item }),
  };
}

/** A part with its own sign before it (a zone's record: `+ A @ 192.0.2.10 (ttl 3600)`), else as it is. */
export function markedPart(described: ChangeParts, i: number): string {
  const mark = described.marks?.[i];
  const part = described.parts[i] ?? '';
  return mark === undefined ? part : `${mark} ${part}`;
}

/**
 * `domain "x": https.force: false -> true, php_version: "8.2" -> "8.3"`: changeParts on one line,
 * or as the change's kind words it (Kind.partsLine).
 */
export function changeLine(change: Change): string | undefined {
  const described = changeParts(change);
  if (described === undefined) return undefined;
  return (
    kindOf(change).partsLine?.(change) ??
    `${described.subject}: ${described.parts.map((_, i) => markedPart(described, i)).join(', ')}`
  );
}
