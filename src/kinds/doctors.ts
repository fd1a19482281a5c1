/**
 * The kinds' doctor checks (Kind.doctor), by kind name in the table's order (./index.ts KINDS):
 * each entry is its room's descriptor's `doctor`. A table of its own so that `provision doctor`
 * loads the rooms' reads, not the whole of each room (its export, its manifest words: the yaml
 * package); keyed by KindName, so that a kind added to KINDS fails to compile until it is here.
 */
import { CLIENT_DOCTOR } from './client/doctor.js';
import { DOMAIN_DOCTOR } from './domain/doctor.js';
import { HOSTING_PLAN_DOCTOR } from './hosting-plan/doctor.js';
import type { KindName } from './index.js';
import type { KindDoctor } from './doctor.js';
import { MAILBOX_DOCTOR } from './mailbox/doctor.js';
import { DATABASE_DOCTOR } from './database/doctor.js';
import { FTP_USER_DOCTOR } from './ftp-user/doctor.js';
import { ZONE_DOCTOR } from './zone/doctor.js';

export const KIND_DOCTORS: { readonly [N in KindName]: KindDoctor } = {
  client: CLIENT_DOCTOR,
  domain: DOMAIN_DOCTOR,
  dns_zone: ZONE_DOCTOR,
  mailbox: MAILBOX_DOCTOR,
  database: DATABASE_DOCTOR,
  ftp_user: FTP_USER_DOCTOR,
  hosting_plan: HOSTING_PLAN_DOCTOR,
};
