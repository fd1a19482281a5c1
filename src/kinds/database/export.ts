/**
 * A database's export entry: the item a manifest lists under its client for a database as the
 * panel holds it, which the manifest reads back to the same database (so a plan against the same
 * panel has no change): its name, its user only when it is not the name, its remote hosts when
 * the record carries them ([] too: local only), a description only when there is one; never a
 * password. What a manifest cannot hold is left out with the reason, for the caller's warning.
 * Pure.
 */
import { LONE_SURROGATE } from '../common.js';
import { hostSet, normalizeRemoteHost } from './hosts.js';
import { DATABASE_NAME_PATTERN, DATABASE_USER_PATTERN } from './manifest.js';
import type { LiveDatabase } from './record.js';

/** A database item as export writes it, keys in the schema's order. */
export interface DatabaseEntry {
  readonly name: string;
  readonly user?: string;
  readonly remote_hosts?: readonly string[];
  readonly description?: string;
}

/** What export makes of one database: its entry (undefined when its name or user cannot be one), and what it leaves out, why. */
export interface ExportedDatabase {
  readonly entry: DatabaseEntry | undefined;
  readonly left: readonly string[];
}

export function databaseEntry(live: LiveDatabase): ExportedDatabase {
  if (!DATABASE_NAME_PATTERN.test(live.name))
    return { entry: undefined, left: ['its name is not one the manifest accepts: left out'] };
  const user = live.user ?? live.name;
  if (!DATABASE_USER_PATTERN.test(user))
    return { entry: undefined, left: ['its user is not one the manifest accepts: left out'] };
  const left: string[] = [];
  const entry: { -readonly [K in keyof DatabaseEntry]: DatabaseEntry[K] } = { name: live.name };
  if (user !== live.name) entry.user = user;
  if (live.remoteHosts !== undefined) {
    const hosts = hostSet(live.remoteHosts);
    if (
      hosts.every((h) => {
        const read = normalizeRemoteHost(h);
        return 'host' in read && read.host === h;
      })
    )
      entry.remote_hosts = hosts;
    else left.push('a remote host is not one the manifest accepts (a wildcard?): remote_hosts left out');
  }
  if (live.description !== undefined && live.description !== '') {
    if (LONE_SURROGATE.test(live.description))
      left.push('its description is not valid Unicode, which a file cannot hold: left out');
    else entry.description = live.description;
  }
  return { entry, left };
}
