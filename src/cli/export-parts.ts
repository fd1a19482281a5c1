import { lstat } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { ProvisionError } from '../errors.js';
import { quote, safeText } from '../escape.js';
import type { ManifestFiles } from '../manifest/parts.js';

/**
 * export --into a manifest directory: which part takes new entries (--new-entries), and the
 * refusal of a part that cannot be rewritten in place, both before anything is written.
 */

/** Whether `file` is a symbolic link (a part shared with other directories). */
async function isLink(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined))?.isSymbolicLink() === true;
}

/**
 * The index of the part that takes new entries: the part `value` (--new-entries) names, as a
 * path inside the directory or a bare part name; when not given, the first part that is not a
 * link. Refused when it
 * names no part, or with a manifest file (which takes every entry itself).
 */
export async function newEntriesPart(files: ManifestFiles, value: string | undefined): Promise<number> {
  if (value === undefined) {
    // The first part that is a file of its own: a linked part (shared with other directories) is
    // never rewritten. All links: the first, refused when it would be written (checkReplaceable).
    for (const [i, part] of files.parts.entries()) if (!(await isLink(part.file))) return i;
    return 0;
  }
  if (!files.directory)
    throw new ProvisionError(
      'usage',
      `--new-entries names a part of a manifest directory, and ${safeText(files.name)} is a file: ` +
        'new entries go into it: nothing was read from the panel',
      { hint: 'leave out --new-entries, or give --into a manifest directory' },
    );
  const bare = !value.includes('/') && !value.includes(sep);
  const index = files.parts.findIndex((p) => (bare ? basename(p.file) === value : resolve(p.file) === resolve(value)));
  const part = files.parts[index];
  if (part !== undefined) {
    // A part shared by a link is never rewritten (checkReplaceable): said before the panel is read.
    if (await isLink(part.file))
      throw new ProvisionError(
        'usage',
        `--new-entries ${quote(value)} is a link (a part shared with other directories): ` +
          'export --into does not rewrite it: nothing was read from the panel',
        { hint: 'give a part of this directory that is a file of its own' },
      );
    return index;
  }
  const names = files.parts.map((p) => quote(basename(p.file)));
  const shown = names.length > 10 ? [...names.slice(0, 10), `${names.length - 10} more`] : names;
  throw new ProvisionError(
    'usage',
    `--new-entries ${quote(value)} is not a part of ${safeText(files.name)} (its parts: ${shown.join(', ')}): ` +
      'nothing was read from the panel',
    {
      hint:
        'give one of its parts, by name (b.yaml) or as a path inside the directory; ' +
        'for a new part, create it first with "version: 1"',
    },
  );
}

/** Refuses a part writeAtomically would refuse (a symbolic link: a part shared by several directories), before any is written. */
export async function checkReplaceable(file: string): Promise<void> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || info.isFile()) return;
  throw new ProvisionError(
    'io',
    `${safeText(file)} is ${info.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}: ` +
      'export --into rewrites parts in place: no part was written',
    { hint: 'edit the file it links to by hand, or make the part a file of its own', meta: { path: file } },
  );
}
