/**
 * A hosting plan's managed keys: the panel's own nested objects (`resources`, `permissions`,
 * `php`, `php_fpm`) and the keys each is known to hold (panel-api.md, "Records": releases differ,
 * and sources disagree on a few names). A manifest gives any subset, each key managed only when
 * given; a key the panel's own record lacks is never managed (the planner refuses it). Pure.
 */
import { closest } from '../../names.js';
import { isRecord, type JsonObject, type JsonValue } from '../../util.js';
import { type FieldProblem, readFlag } from '../common.js';

/** The plan's nested objects, in the order requests and manifests carry them. */
export const PLAN_OBJECTS = ['resources', 'permissions', 'php', 'php_fpm'] as const;
export type PlanObject = (typeof PLAN_OBJECTS)[number];

/** A managed value: a resource's whole number (-1 unlimited), a permission's flag, a PHP setting. */
export type PlanValue = number | boolean | string | null;

/** What a manifest gives of a plan's objects: each object's managed keys and their values. */
export type PlanWants = { readonly [O in PlanObject]?: Readonly<Record<string, PlanValue>> };

/** The keys each object is known to hold; the names after `|` in panel-api.md are alternatives. */
export const KNOWN_KEYS: { readonly [O in PlanObject]: readonly string[] } = {
  resources: [
    'disk_space',
    'traffic',
    'domains',
    'subdomains',
    'email_accounts',
    'email_addresses',
    'email_forwardings',
    'databases',
    'ftp_users',
    'scheduled_tasks',
  ],
  permissions: [
    'ftp',
    'php',
    'perl',
    'ssh',
    'backup',
    'panel_access',
    'domain_security',
    'certificate_management',
    'file_manager',
    'dns_editor',
    'database_remote_access',
    'email_catchall',
    'applications',
    'ssh_jail',
    'delete_main_domain',
    'change_personal_data',
    'update_contact_data',
  ],
  php: [
    'memory_limit',
    'max_execution_time',
    'post_max_size',
    'upload_max_filesize',
    'open_basedir',
    'disable_functions',
    'additional_settings',
    'sendmail_from',
    'env_variables',
  ],
  php_fpm: [
    'pm',
    'max_children',
    'max_requests',
    'min_spare_servers',
    'max_spare_servers',
    'status',
    'status_ip_restriction',
  ],
};

/** A PHP size as php.ini takes it: a whole number with an optional K, M or G (`512M`, `-1`). */
export const PHP_SIZE = /^(?:-1|[0-9]{1,12}[KMGkmg]?)$/;

/** The php keys whose values are sizes. */
const SIZES = new Set(['memory_limit', 'post_max_size', 'upload_max_filesize']);

/**
 * What the manifest's checks say of one key's value, `where` naming it (`"resources.disk_space"
 * of hosting plan "Business"`); undefined when nothing. Unknown keys are warnings with the
 * closest known name: releases differ, and plan refuses what the panel's record lacks.
 */
export function checkPlanValue(
  object: PlanObject,
  key: string,
  value: unknown,
  where: string,
): FieldProblem | undefined {
  const known = KNOWN_KEYS[object];
  if (!known.includes(key)) {
    const near = closest(key, known);
    return {
      severity: 'warning',
      message:
        `${where} is not a key panel-provision knows in "${object}"` +
        (near === undefined ? '' : `: did you mean "${near}"?`) +
        " (releases differ: plan refuses it if the panel's plans lack it)",
    };
  }
  switch (object) {
    case 'resources':
      return Number.isSafeInteger(value) && (value as number) >= -1
        ? undefined
        : { severity: 'error', message: `${where} must be a whole number (-1: unlimited; sizes in bytes)` };
    case 'permissions':
      return typeof value === 'boolean' ? undefined : { severity: 'error', message: `${where} must be true or false` };
    case 'php':
      if (SIZES.has(key))
        return typeof value === 'string' && PHP_SIZE.test(value)
          ? undefined
          : { severity: 'error', message: `${where} must be a PHP size like "512M" (quoted), or "-1"` };
      return value === null || ['string', 'number', 'boolean'].includes(typeof value)
        ? undefined
        : { severity: 'error', message: `${where} must be a string, a number or a boolean` };
    case 'php_fpm':
      // `status` is a flag on some releases (a status page on or off), null on others.
      if (key === 'status')
        return value === null || ['string', 'number', 'boolean'].includes(typeof value)
          ? undefined
          : { severity: 'error', message: `${where} must be true or false, a string, a number or null` };
      return value === null || ['string', 'number'].includes(typeof value)
        ? undefined
        : { severity: 'error', message: `${where} must be a string, a number or null` };
  }
}

/** A plan's objects as read (GET /hosting-plans), kept whole to send back; an object that is not one is not carried. */
export type LivePlanObjects = { readonly [O in PlanObject]?: JsonObject };

/** The objects part of a plan record as read; undefined when it carries none. */
export function readPlanObjects(record: Readonly<Record<string, unknown>>): LivePlanObjects | undefined {
  const objects: { [O in PlanObject]?: JsonObject } = {};
  for (const o of PLAN_OBJECTS) if (isRecord(record[o])) objects[o] = record[o] as JsonObject;
  return Object.keys(objects).length === 0 ? undefined : objects;
}

/**
 * Whether the panel's value is the manifest's: numbers and strings exactly, booleans as the
 * engine reads every flag (readFlag: 0/1, "0"/"1", "true"/"false"); a number the panel sends as a
 * string (`"10"`) equals 10.
 */
export function samePlanValue(live: JsonValue | undefined, wanted: PlanValue): boolean {
  if (live === wanted) return true;
  if (typeof wanted === 'boolean') return readFlag(live) === wanted;
  if (typeof wanted === 'number' && typeof live === 'string') return live.trim() !== '' && Number(live) === wanted;
  return false;
}
