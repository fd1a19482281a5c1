/**
 * An FTP user's export entry: the item a manifest lists under its client for an FTP user as the
 * panel holds it, which the manifest reads back to the same FTP user (so a plan against the same
 * panel has no change): its name, its home unless it is the default, a description only when
 * there is one; never a password. What a manifest cannot hold is left out with the reason, for
 * the caller's warning. Pure.
 */
import { LONE_SURROGATE } from '../common.js';
import { DEFAULT_FTP_HOME, normalizeHome } from './home.js';
import { FTP_USER_NAME_PATTERN } from './manifest.js';
import type { LiveFtpUser } from './record.js';

/** An FTP user item as export writes it, keys in the schema's order. */
export interface FtpUserEntry {
  readonly name: string;
  readonly home?: string;
  readonly description?: string;
}

/** What export makes of one FTP user: its entry (undefined when its name cannot be one), and what it leaves out, why. */
export interface ExportedFtpUser {
  readonly entry: FtpUserEntry | undefined;
  readonly left: readonly string[];
}

export function ftpUserEntry(live: LiveFtpUser): ExportedFtpUser {
  if (!FTP_USER_NAME_PATTERN.test(live.name))
    return { entry: undefined, left: ['its name is not one the manifest accepts: left out'] };
  const left: string[] = [];
  const entry: { -readonly [K in keyof FtpUserEntry]: FtpUserEntry[K] } = { name: live.name };
  if (live.home !== undefined) {
    const home = normalizeHome(live.home);
    if (!('home' in home)) left.push("its home is not under /www or /files of its client's home: home left out");
    else if (home.home !== DEFAULT_FTP_HOME) entry.home = home.home;
  }
  if (live.description !== undefined && live.description !== '') {
    if (LONE_SURROGATE.test(live.description))
      left.push('its description is not valid Unicode, which a file cannot hold: left out');
    else entry.description = live.description;
  }
  return { entry, left };
}
