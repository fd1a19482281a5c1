/**
 * The FTP user kind's record (and a seed's), its store lists (`ftpUsers`, and
 * `ftpUserPasswords`: a hash of each one's password, never the password), the simulator's name
 * rule and its reading of a home directory. kinds/ftp-user.ts has its requests and seed.
 */
import { type ListRule, whole } from '../table.js';
import type { SimMailboxPassword } from './mailbox-records.js';

/** An FTP user as GET /ftp-users answers it (docs/panel-api.md, the simulator's shape). */
export interface SimFtpUser {
  readonly id: number;
  readonly id_user: number;
  readonly username: string;
  readonly description: string;
  /** Relative to the client's home, under /www or /files: `/www/alice.example`. */
  readonly home_directory: string;
}

/**
 * An FTP user of a seed client (`clients: [{"username": "alice", "ftp_users": ["alice_deploy"]}]`):
 * a name, or an object with it and POST /ftp-users's other fields. Without a `password` the
 * user has none (`ftpUserPasswordIs` answers false). The seed names its users as given, the
 * `customFtpUsernames` option aside.
 */
export interface SimulatorSeedFtpUser {
  readonly name: string;
  /** Default: /www. */
  readonly home_directory?: string;
  readonly password?: string;
  readonly description?: string;
}

/** An FTP user's password as the simulator keeps it (mailbox-records.ts hashPassword). */
export type SimFtpUserPassword = SimMailboxPassword;

/** The simulator's rule for an FTP username (the panel's is not documented; common FTP servers'). */
export const FTP_USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A home directory as the simulator reads it: `/www` or `/files`, or a folder under one (the
 * leading '/' optional, a trailing one dropped), no '.' or '..' segment, no empty one, no
 * control character. Its stored form (`/www/alice.example`), or why it is none.
 */
export function readHome(input: string): { readonly home: string } | { readonly problem: string } {
  const segments = input.replace(/^\//, '').replace(/\/$/, '').split('/');
  const [top] = segments;
  if (top !== 'www' && top !== 'files') return { problem: "is not under /www or /files of the client's home" };
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    return { problem: "has an empty, '.' or '..' segment" };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(input)) return { problem: 'has a control character' };
  return { home: `/${segments.join('/')}` };
}

export const FTP_USER_LISTS = {
  ftpUsers: {
    ...whole<SimFtpUser>(),
    fields: ['id', 'id_user', 'username', 'home_directory'],
    // Absent from files written before FTP users came.
    optional: true,
    key: (f) => f.username,
    sequence: 'nextFtpUserId',
    deletable: true,
  },
  ftpUserPasswords: { ...whole<SimFtpUserPassword>(), fields: ['id', 'hash'], optional: true, ownedBy: 'ftpUsers' },
} as const satisfies {
  ftpUsers: ListRule<SimFtpUser, SimFtpUser>;
  ftpUserPasswords: ListRule<SimFtpUserPassword, SimFtpUserPassword>;
};
