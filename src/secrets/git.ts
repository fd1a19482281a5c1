import { execFile } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';

/**
 * A warning when `path` lies in a git work tree and git does not ignore it: one `git add -A`
 * would commit passwords. Undefined when it is ignored, outside a work tree, or git is absent.
 */
export async function secretsGitWarning(path: string): Promise<string | undefined> {
  const absolute = resolve(path);
  const status = await new Promise<number | undefined>((done) => {
    execFile('git', ['check-ignore', '-q', '--', basename(absolute)], { cwd: dirname(absolute) }, (error) => {
      if (error === null) done(0);
      else done(typeof error.code === 'number' ? error.code : undefined);
    });
  });
  // 0: ignored; 1: in a work tree and not ignored; 128 or no git: not our concern.
  return status === 1
    ? `the secrets file ${path} is inside a git work tree and not ignored: ` +
        'add it to .gitignore so passwords are never committed'
    : undefined;
}
