import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, normalize, relative, resolve, sep } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { ManifestFiles, ManifestPart } from '../manifest/parts.js';
import { fileKind, readBytes, readHint, type SizeLimit, STDIN_PATHS } from './files.js';
import type { Io } from './io.js';

/**
 * A manifest as given: a file's bytes (`-`: standard input), or, for a directory, each part's
 * (manifest/part-names.ts says which entries are parts, and their order).
 *
 * A part may be a symbolic link (a part shared by several panels' directories), but only to a
 * file named like a part (`*.yaml`, `*.yml`) inside the repository that holds the directory as
 * given (the nearest folder above it with `.git`; without one, the directory itself), never under
 * `.git`, never through a link the system cannot resolve: a pull request cannot make a part of a
 * file elsewhere on the runner, or of the checkout's own credentials (`.git/config`), and have
 * its lines quoted in a diagnostic that the pull request's comment shows. The part is read at the
 * path its link resolved to: the links are not followed a second time. An entry named like a
 * part that is not a regular file is refused, naming it. `cap`: the size limit of each file or part.
 */
export async function readManifestFiles(
  path: string,
  io: Io,
  what = 'manifest',
  cap?: SizeLimit,
): Promise<ManifestFiles> {
  const info = STDIN_PATHS.has(path) ? undefined : await stat(path).catch(() => undefined);
  if (info?.isDirectory() !== true)
    return {
      name: path,
      directory: false,
      parts: [{ file: path, bytes: await readBytes(path, io, what, undefined, cap) }],
    };
  // Loaded for a directory only: a command that reads no manifest loads nothing of manifest/.
  const { isPartName, partNameTwins, partOrder } = await import('../manifest/part-names.js');
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
  const twins = partNameTwins(names);
  if (twins.length > 0)
    throw new ProvisionError(
      'io',
      `the manifest directory ${path} has parts whose names differ only by case or Unicode form: ` +
        twins.map(([a, b]) => `${quote(a)} and ${quote(b)}`).join(', ') +
        ': a checkout on macOS or Windows would hold only one of each pair, so it would be another manifest there',
      { hint: 'rename one of each pair, or merge them into one part', meta: { path } },
    );
  // The directory as the system resolves it (a `..` after a link goes where the link leads, as
  // readdir went), and the repository that holds it as given.
  const dir = await resolved(path, 'the manifest directory');
  const { root, repository } = await repositoryOf(path, dir);
  // Parts are read a few at a time (a directory of a part per client holds thousands); the first
  // problem in name order is the one reported, whatever finished first.
  const { default: pLimit } = await import('p-limit');
  const limit = pLimit(PARTS_AT_ONCE);
  const read = await Promise.allSettled(
    names.map((name) => limit(() => readPart({ path, dir, root, repository, cap }, name, isPartName, io))),
  );
  const parts: ManifestPart[] = [];
  for (const result of read) {
    if (result.status === 'rejected') throw result.reason;
    parts.push(result.value);
  }
  return { name: path, directory: true, parts };
}

/** How many parts are read at once. */
const PARTS_AT_ONCE = 16;

/** One entry `name` of the directory (as given, as resolved, its repository), checked and read (see readManifestFiles). */
async function readPart(
  where: {
    readonly path: string;
    readonly dir: string;
    readonly root: string;
    /** Whether a git repository holds the directory (else `root` is the directory itself). */
    readonly repository: boolean;
    readonly cap?: SizeLimit | undefined;
  },
  name: string,
  isPartName: (name: string) => boolean,
  io: Io,
): Promise<ManifestPart> {
  const { path, dir, root } = where;
  // Named as given, never simplified as text: `a/link/../b` is not `a/b` when `link` is a link.
  const file = path.endsWith(sep) ? `${path}${name}` : `${path}${sep}${name}`;
  // A name with a line break would break the part's messages and its line in the plan's digest.
  if (/\p{Cc}/u.test(name))
    throw new ProvisionError('io', `a part of ${path} has a control character in its name: ${quote(name)}`, {
      hint: 'rename it: a part is named like clients.yaml',
      meta: { path },
    });
  // What the entry leads to: a link that does not resolve (dangling, a loop, a path too long) is
  // never read through.
  const entry = join(dir, name);
  const real = await resolved(entry, 'the manifest part', file);
  const inside = relative(root, real);
  if (
    inside === '' ||
    inside.startsWith(`..${sep}`) ||
    inside === '..' ||
    resolve(root, inside) !== real ||
    inside.split(sep).includes('.git') ||
    !isPartName(basename(real))
  ) {
    const link = await lstat(entry).then(
      (info) => info.isSymbolicLink(),
      () => true,
    );
    throw new ProvisionError(
      'io',
      link
        ? `${file} is a link to ${real}, not to a manifest part inside ${root}: it is not read`
        : `${file} is in ${dirname(real)}, outside ${root}, the repository that holds ${path} (a link): it is not read`,
      {
        hint:
          'a part may link only to a *.yaml or *.yml file of the repository that holds the manifest directory, ' +
          'outside .git' +
          // Copied out of its repository (an example tried elsewhere), the directory is its own bound.
          (where.repository
            ? ''
            : `; no git repository holds ${path}, so its links may not leave it: ` +
              'run git init in the folder that holds it and the files its parts link to, then run again'),
        meta: { path: file },
      },
    );
  }
  const info = await stat(real).catch(() => undefined);
  if (info !== undefined && !info.isFile())
    throw new ProvisionError('io', `${file} is ${fileKind(info) ?? 'not a file'}, not a manifest part`, {
      hint: 'every *.yaml and *.yml entry of a manifest directory is a part: rename it, or move it elsewhere',
      meta: { path: file },
    });
  return { file, bytes: await readBytes(real, io, 'manifest part', `the manifest part ${file}`, where.cap) };
}

/** `path` resolved by the system (realpath), or an error naming it as `what` (and `named`) with the errno. */
async function resolved(path: string, what: string, named = path): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    throw new ProvisionError('io', `cannot read ${what} ${named}: ${errnoCode(error)}`, {
      hint: readHint(errnoCode(error)),
      meta: { path: named },
      cause: error,
    });
  }
}

/**
 * The repository that holds the directory `path` as given (its parents' links resolved, not its
 * own: a directory that is a link out of the repository leads nowhere else), resolved: the
 * nearest folder with `.git`; without one, the directory itself (`dir`, resolved). The path is
 * first simplified as text (`evil/.` is `evil`, `lk/..` the folder holding `lk`): resolved by the
 * system, a trailing `.` or `..` would follow the link it comes after, and the repository would
 * be the one the link leads to (the parts are still read where the system leads: a part out of
 * this repository is refused).
 */
async function repositoryOf(path: string, dir: string): Promise<{ root: string; repository: boolean }> {
  const given = normalize(path);
  const last = basename(given);
  // Only `/`, `.` or leading `..`s are left to end in these: nothing of them is a link but the
  // working directory's own folders, which the system resolves as the text says.
  const start =
    last === '' || last === '.' || last === '..'
      ? await resolved(given, 'the manifest directory')
      : join(await resolved(dirname(given), 'the folder of the manifest directory'), last);
  for (let folder = start; ;) {
    const found = await lstat(join(folder, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return { root: await resolved(folder, 'the repository of the manifest directory'), repository: true };
    const up = dirname(folder);
    if (up === folder) return { root: dir, repository: false };
    folder = up;
  }
}
