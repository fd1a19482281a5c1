import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { ManifestFiles, ManifestPart } from '../manifest/parts.js';
import { fileKind, readBytes, readHint, STDIN_PATHS } from './files.js';
import type { Io } from './io.js';

/**
 * A manifest as given: a file's bytes (`-`: standard input), or, for a directory, each part's
 * (manifest/part-names.ts says which entries are parts, and their order).
 *
 * A part may be a symbolic link (a part shared by several panels' directories), but only to a
 * file named like a part (`*.yaml`, `*.yml`) inside the repository that holds the directory as
 * given (the nearest folder above it with `.git`; without one, the directory itself), never under
 * `.git`: a pull request cannot make a part of a file elsewhere on the runner, or of the
 * checkout's own credentials (`.git/config`), and have its lines quoted in a diagnostic that the
 * pull request's comment shows. The part is read at the path its link resolved to, so it cannot
 * be swapped between the check and the read. An entry named like a part that is not a regular
 * file is refused, naming it.
 */
export async function readManifestFiles(path: string, io: Io, what = 'manifest'): Promise<ManifestFiles> {
  const info = STDIN_PATHS.has(path) ? undefined : await stat(path).catch(() => undefined);
  if (info?.isDirectory() !== true)
    return { name: path, directory: false, parts: [{ file: path, bytes: await readBytes(path, io, what) }] };
  // Loaded for a directory only: a command that reads no manifest loads nothing of manifest/.
  const { isPartName, partOrder } = await import('../manifest/part-names.js');
  let names: string[];
  try {
    names = partOrder(await readdir(path));
  } catch (error) {
    throw new ProvisionError('io', `cannot read the manifest directory ${path}: ${errnoCode(error)}`, {
      hint: readHint(errnoCode(error)),
      meta: { path },
      cause: error,
    });
  }
  const root = await repositoryOf(path);
  // Parts are read a few at a time (a directory of a part per client holds thousands); the first
  // problem in name order is the one reported, whatever finished first.
  const { default: pLimit } = await import('p-limit');
  const limit = pLimit(PARTS_AT_ONCE);
  const read = await Promise.allSettled(names.map((name) => limit(() => readPart(path, name, root, isPartName, io))));
  const parts: ManifestPart[] = [];
  for (const result of read) {
    if (result.status === 'rejected') throw result.reason;
    parts.push(result.value);
  }
  return { name: path, directory: true, parts };
}

/** How many parts are read at once. */
const PARTS_AT_ONCE = 16;

/** One entry `name` of the directory `path`, checked and read (see readManifestFiles). */
async function readPart(
  path: string,
  name: string,
  root: string,
  isPartName: (name: string) => boolean,
  io: Io,
): Promise<ManifestPart> {
  const file = join(path, name);
  // A name with a line break would break the part's messages and its line in the plan's digest.
  if (/\p{Cc}/u.test(name))
    throw new ProvisionError('io', `a part of ${path} has a control character in its name: ${quote(name)}`, {
      hint: 'rename it: a part is named like clients.yaml',
      meta: { path },
    });
  // A dangling link or a loop: readBytes names the file and the errno.
  const real = await realpath(file).catch(() => undefined);
  if (real === undefined) return { file, bytes: await readBytes(file, io, 'manifest part') };
  const inside = relative(root, real);
  if (
    inside === '' ||
    inside.startsWith(`..${sep}`) ||
    inside === '..' ||
    resolve(root, inside) !== real ||
    inside.split(sep).includes('.git') ||
    !isPartName(basename(real))
  )
    throw new ProvisionError(
      'io',
      `${file} is a link to ${real}, not to a manifest part inside ${root}: it is not read`,
      {
        hint:
          'a part may link only to a *.yaml or *.yml file of the repository that holds the manifest directory, ' +
          'outside .git',
        meta: { path: file },
      },
    );
  const entry = await stat(real).catch(() => undefined);
  if (entry !== undefined && !entry.isFile())
    throw new ProvisionError('io', `${file} is ${fileKind(entry) ?? 'not a file'}, not a manifest part`, {
      hint: 'every *.yaml and *.yml entry of a manifest directory is a part: rename it, or move it elsewhere',
      meta: { path: file },
    });
  return { file, bytes: await readBytes(real, io, 'manifest part', `the manifest part ${file}`) };
}

/**
 * The repository that holds `dir` as given (its parent's links resolved, not its own: a
 * directory that is a link out of the repository leads nowhere else), resolved: the nearest
 * folder with `.git`; without one, the directory itself, resolved.
 */
async function repositoryOf(dir: string): Promise<string> {
  const absolute = resolve(dir);
  const parent = await realpath(dirname(absolute));
  const start = join(parent, basename(absolute));
  for (let folder = start; ;) {
    const found = await lstat(join(folder, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return folder;
    const up = dirname(folder);
    if (up === folder) return realpath(dir);
    folder = up;
  }
}
