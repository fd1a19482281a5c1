/**
 * The database's doctor check (Kind.doctor; docs/doctor.md, "list shapes"): GET /databases read
 * whole, as plan reads it when a manifest lists databases. No line of its own: the list says all.
 */
import type { KindDoctor } from '../doctor.js';
import { DATABASE_NOUN } from './phrases.js';
import { DATABASES_PATH, parseDatabaseRecord } from './record.js';

/** GET /databases read whole, after the list that proves the key; a panel without it is said, not failed. */
export const DATABASE_DOCTOR: KindDoctor = {
  list: {
    path: DATABASES_PATH,
    noun: DATABASE_NOUN,
    parse: parseDatabaseRecord,
    provesKey: false,
    mayLack: { statuses: [404, 405], costs: "a manifest's databases cannot be used on this panel" },
  },
};
