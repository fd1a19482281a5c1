/**
 * An FTP user's home: a folder under `/www` or `/files` of its client's home, written relative to
 * that home (`/www/alice.example`), as the panel takes `home_directory` (docs/panel-api.md). The
 * comparison form has one leading slash, none at the end, no empty or `.` segment (`www//a/`
 * and `/www/a` are the same home). The domain a home names (`/www/<domain>`) orders the user's
 * create after that domain's. Pure.
 */
import { normalizeDomain } from '../../names.js';

/** The home an FTP user gets when the manifest gives none. */
export const DEFAULT_FTP_HOME = '/www';

/** The folders of a client's home an FTP user may be jailed in. */
export const FTP_HOME_ROOTS: readonly string[] = ['www', 'files'];

/** What a home must be, for people (the end of a sentence after "write"). */
export const FTP_HOME_RULE =
  "a folder under /www or /files of the client's home, written from there, like /www/alice.example or /files/backup";

/** A home's comparison form, whatever the panel or the manifest wrote: `/www/alice.example`. */
export function homeForm(path: string): string {
  const segments = path
    .trim()
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  return `/${segments.join('/')}`;
}

/** Whether two homes are the same folder (`/www/` and `/www`). */
export function sameHome(a: string, b: string): boolean {
  return homeForm(a) === homeForm(b);
}

/** A home the manifest gives, in comparison form, or what is wrong with it and what to write. */
export function normalizeHome(input: string): { readonly home: string } | { readonly problem: string } {
  if (input.trim() === '') return { problem: `is empty: write ${FTP_HOME_RULE}, or leave "home" out for /www` };
  if (input.includes('\\'))
    return { problem: `holds a backslash: folders are separated by "/" (write ${FTP_HOME_RULE})` };
  if (/\p{Cc}/u.test(input)) return { problem: `holds a control character: write ${FTP_HOME_RULE}` };
  const segments = input.trim().split('/');
  if (segments.includes('..'))
    return { problem: `climbs out with "..": an FTP user stays inside its client's home; write ${FTP_HOME_RULE}` };
  const home = homeForm(input);
  const root = home.split('/')[1] ?? '';
  if (!FTP_HOME_ROOTS.includes(root))
    return {
      problem:
        home === '/'
          ? `is the client's whole home: write ${FTP_HOME_RULE}`
          : `is not under /www or /files of the client's home (a path is written from the client's home, ` +
            `not from the server's root): write ${FTP_HOME_RULE}`,
    };
  return { home };
}

/**
 * The domain a home names (`/www/alice.example/public` → `alice.example`, lowercase ASCII), or
 * undefined when it names none: a create waits for that domain's create in the same apply.
 */
export function homeDomain(home: string): string | undefined {
  const [, root, folder] = homeForm(home).split('/');
  if (root !== 'www' || folder === undefined || !folder.includes('.')) return undefined;
  const domain = normalizeDomain(folder);
  return 'name' in domain ? domain.name : undefined;
}
