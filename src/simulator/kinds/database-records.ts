/**
 * The database kind's record (and a seed's), its store lists (`databases`, and
 * `databasePasswords`: a hash of each one's password, never the password), the simulator's
 * name rules and its reading of a remote host. kinds/database.ts has its requests and seed.
 */
import { isIP } from 'node:net';
import { type ListRule, whole } from '../table.js';
import type { SimMailboxPassword } from './mailbox-records.js';

/**
 * A database as GET /databases answers it (docs/panel-api.md, the simulator's shape):
 * `remote_hosts` as given (host names lowercase), [] for local access only; `size` in bytes.
 */
export interface SimDatabase {
  readonly id: number;
  readonly id_user: number;
  readonly database_name: string;
  readonly database_username: string;
  readonly description: string;
  /** The data stored, in bytes: 0 for a new database (a seed may give one). */
  readonly size: number;
  readonly remote_hosts: readonly string[];
}

/**
 * A database of a seed client (`clients: [{"username": "alice", "databases": ["alice_wp"]}]`):
 * a name, or an object with it and POST /databases's other fields, `size` besides. Without a
 * `password` the database has none (`databasePasswordIs` answers false).
 */
export interface SimulatorSeedDatabase {
  readonly name: string;
  /** Default: the name. */
  readonly database_username?: string;
  readonly password?: string;
  readonly description?: string;
  readonly remote_hosts?: readonly string[];
  /** The data stored, in bytes. Default 0. */
  readonly size?: number;
}

/** A database's password as the simulator keeps it (mailbox-records.ts hashPassword). */
export type SimDatabasePassword = SimMailboxPassword;

/** The simulator's rule for a database name (the panel's is not documented; close to MySQL's). */
export const DATABASE_NAME = /^[a-z0-9_]{1,64}$/;

/** The simulator's rule for a database user (MySQL's length limit). */
export const DATABASE_USER = /^[a-z0-9_]{1,32}$/;

/** The index key of a database user: no database name has a ':'. */
export const userKey = (username: string): string => `user:${username}`;

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A remote host as the simulator reads it: an IP address, a network (`address/prefix`) or a
 * host name (labels of letters, digits and '-', at most 253 characters). Its stored form
 * (lowercase), or why it is none.
 */
export function readRemoteHost(input: string): { readonly host: string } | { readonly problem: string } {
  const host = input.toLowerCase();
  if (isIP(host) !== 0) return { host };
  const slash = host.indexOf('/');
  if (slash > 0) {
    const family = isIP(host.slice(0, slash));
    const prefix = host.slice(slash + 1);
    const max = family === 4 ? 32 : 128;
    if (family !== 0 && /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= max) return { host };
    return { problem: 'is not a network: use an address and a prefix length, like 192.0.2.0/24' };
  }
  const labels = host.split('.');
  if (host.length <= 253 && labels.every((label) => LABEL.test(label)) && !/^[0-9.]+$/.test(host)) return { host };
  return { problem: 'is not an IP address, a network or a host name' };
}

export const DATABASE_LISTS = {
  databases: {
    ...whole<SimDatabase>(),
    fields: ['id', 'id_user', 'database_name', 'database_username'],
    // Absent from files written before databases came.
    optional: true,
    // Names and users are each unique across the panel: found by its name, its user kept apart.
    key: (d) => [d.database_name, userKey(d.database_username)],
    lookup: (name) => (name.includes(':') ? '' : name),
    sequence: 'nextDatabaseId',
    deletable: true,
  },
  databasePasswords: {
    ...whole<SimDatabasePassword>(),
    fields: ['id', 'hash'],
    optional: true,
    ownedBy: 'databases',
  },
} as const satisfies {
  databases: ListRule<SimDatabase, SimDatabase>;
  databasePasswords: ListRule<SimDatabasePassword, SimDatabasePassword>;
};
