/**
 * export --into over a manifest directory (docs/manifest.md, "Manifest directories"): adopt.ts
 * decides the edits over the whole manifest (the parts' `clients` and each kind's section, such
 * as `hosting_plans`, are one list each, in part order), and each edit goes to the part that
 * holds its entry, its index made that part's own: a client's fields, its domains (each kind's
 * edits of a domain item, the panel's domains it lacks), its removal (--drop-missing), a listed
 * entry of a kind's section. New entries (the clients `prune.clients` or --clients claims, a
 * section's entries --with adds) go to the part named to take them (`--new-entries`). Pure.
 */
import type { ListedEntry } from '../kinds/export.js';
import { type KindName, KINDS } from '../kinds/index.js';
import type { Desired } from '../manifest/types.js';
import { assertNever } from '../util.js';
import type { Edit } from './adopt.js';
import { exportOf } from './model.js';

/** An entry's place: the part that holds it (an index into the parts) and its index in that part's list. */
interface Place {
  readonly part: number;
  readonly index: number;
}

/**
 * `edits` (over the whole of `desired`, the parts `files` read as one manifest) split by part:
 * one list per file, in the order of `files`; new entries go to the part `newEntries`.
 */
export function editsByPart(
  edits: readonly Edit[],
  desired: Desired,
  files: readonly string[],
  newEntries: number,
): Edit[][] {
  if (newEntries < 0 || newEntries >= files.length) throw new Error('export --into: new entries go to no part');
  const clients = placesOf(desired.clients, files, 'client');
  // Each section's places, found on its first edit.
  const sections = new Map<KindName, Place[]>();
  const out: Edit[][] = files.map(() => []);
  const push = (part: number, edit: Edit): void => {
    out[part]?.push(edit);
  };
  for (const edit of edits) {
    switch (edit.kind) {
      case 'set':
      case 'unset':
      case 'item':
      case 'list':
      case 'add-domains':
      case 'drop-domain':
      case 'drop-client': {
        const at = placeOf(clients, edit.client, 'client');
        push(at.part, { ...edit, client: at.index });
        break;
      }
      case 'section': {
        const section = exportOf(edit.type).section;
        const place = section?.placeOf(edit.edit);
        if (section === undefined || place === undefined) {
          push(newEntries, edit);
          break;
        }
        const what = KINDS[edit.type].noun.one;
        const listed = sections.get(edit.type) ?? placesOf(section.listed(desired), files, what);
        sections.set(edit.type, listed);
        const at = placeOf(listed, place, what);
        push(at.part, { ...edit, edit: section.moved(edit.edit, at.index) });
        break;
      }
      case 'add-clients':
        push(newEntries, edit);
        break;
      default:
        assertNever(edit);
    }
  }
  return out;
}

/**
 * Each entry's place, from the file its location names: the parts' lists follow one another
 * in the whole, so an entry's index in its part is how many of that part's came before it.
 */
function placesOf(entries: readonly ListedEntry[], files: readonly string[], what: string): Place[] {
  const partOf = new Map(files.map((file, i) => [file, i] as const));
  const counts = files.map(() => 0);
  return entries.map((entry, i) => {
    const part = entry.loc === undefined ? undefined : partOf.get(entry.loc.file);
    if (part === undefined) throw new Error(`export --into: ${what} ${i} of the manifest is in none of its parts`);
    const index = counts[part] ?? 0;
    counts[part] = index + 1;
    return { part, index };
  });
}

function placeOf(places: readonly Place[], index: number, what: string): Place {
  const place = places[index];
  if (place === undefined) throw new Error(`export --into: an edit of ${what} ${index}, which the manifest lacks`);
  return place;
}
