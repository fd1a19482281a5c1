/**
 * The FTP user's doctor check (Kind.doctor; docs/doctor.md, "list shapes"): GET /ftp-users read
 * whole, as plan reads it when a manifest lists FTP users. No line of its own: the list says all.
 */
import type { KindDoctor } from '../doctor.js';
import { FTP_USER_NOUN } from './phrases.js';
import { FTP_USERS_PATH, parseFtpUserRecord } from './record.js';

/** GET /ftp-users read whole, after the list that proves the key; a panel without it is said, not failed. */
export const FTP_USER_DOCTOR: KindDoctor = {
  list: {
    path: FTP_USERS_PATH,
    noun: FTP_USER_NOUN,
    parse: parseFtpUserRecord,
    provesKey: false,
    mayLack: { statuses: [404, 405], costs: "a manifest's ftp_users cannot be used on this panel" },
  },
};
