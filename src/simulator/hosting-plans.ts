/**
 * Hosting plans (panel-api.md: the /hosting-plans rows and "Records") in the panel's own shape:
 * `{id, name, resources {...}, permissions {...}, php {...}, php_fpm {...}}`. This module owns
 * them: their keys and types, their defaults, their checks (POST, PUT and DELETE
 * /hosting-plans are hosting-plan-requests.ts's). The real panel's rules are not documented;
 * the simulator chooses:
 * - Keys: exactly those of SECTIONS, panel-api.md's list with its first spelling where sources
 *   disagree (`change_personal_data`, `additional_settings`; no `sendmail_from`...). Types:
 *   `resources` integers of -1 (unlimited) or more, sizes in bytes; `permissions` booleans;
 *   `php.memory_limit`, `post_max_size`, `upload_max_filesize` sizes like "512M" (digits, then
 *   K, M or G or nothing; "-1" is unlimited), `max_execution_time` an integer of 0 or more
 *   (seconds), `open_basedir`, `disable_functions`, `additional_settings` strings;
 *   `php_fpm.pm` "ondemand", "dynamic" or "static", `max_children`, `max_requests`,
 *   `min_spare_servers` integers of 0 or more, `max_spare_servers` an integer of 0 or more or
 *   null, `status` a boolean or null, `status_ip_restriction` a string or null.
 * - A key a section does not have is a 400 naming it (a release whose record lacks a key would
 *   otherwise drop it without a word); a wrong type is a 400 naming the key; nothing changes.
 *   Other top-level keys are ignored, except `id` (hosting-plan-requests.ts).
 * - Defaults: a new plan (POST) takes NEW_PLAN's value for every section or key it leaves out
 *   (a section given is merged over NEW_PLAN's, like POST /domains). A plan seeded by name takes
 *   seedPlanParts(position): the first NEW_PLAN's values, the second twice its limits and
 *   `ssh`, from the third on every resource unlimited and PHP-FPM `dynamic` with a status
 *   page; a seeded object is merged over those.
 * - The panel copies a plan into a client when it is assigned. Here a client holds only its
 *   `id_hosting_plan` (the copied limits are not modelled), so changing a plan never changes a
 *   client record.
 */
import { isRecord } from '../util.js';
import { type ListRule, whole } from './table.js';

export interface SimPlanResources {
  readonly disk_space: number;
  readonly traffic: number;
  readonly domains: number;
  readonly subdomains: number;
  readonly email_accounts: number;
  readonly email_addresses: number;
  readonly email_forwardings: number;
  readonly databases: number;
  readonly ftp_users: number;
  readonly scheduled_tasks: number;
}

export interface SimPlanPermissions {
  readonly ftp: boolean;
  readonly php: boolean;
  readonly perl: boolean;
  readonly ssh: boolean;
  readonly backup: boolean;
  readonly panel_access: boolean;
  readonly domain_security: boolean;
  readonly certificate_management: boolean;
  readonly file_manager: boolean;
  readonly dns_editor: boolean;
  readonly database_remote_access: boolean;
  readonly email_catchall: boolean;
  readonly applications: boolean;
  readonly ssh_jail: boolean;
  readonly delete_main_domain: boolean;
  readonly change_personal_data: boolean;
}

export interface SimPlanPhp {
  readonly memory_limit: string;
  readonly max_execution_time: number;
  readonly post_max_size: string;
  readonly upload_max_filesize: string;
  readonly open_basedir: string;
  readonly disable_functions: string;
  readonly additional_settings: string;
}

export interface SimPlanPhpFpm {
  readonly pm: string;
  readonly max_children: number;
  readonly max_requests: number;
  readonly min_spare_servers: number;
  readonly max_spare_servers: number | null;
  readonly status: boolean | null;
  readonly status_ip_restriction: string | null;
}

/** A plan's sections as the record holds them: whole, except where a PUT took a partial one. */
export interface SimPlanSections {
  readonly resources: Readonly<Partial<SimPlanResources>>;
  readonly permissions: Readonly<Partial<SimPlanPermissions>>;
  readonly php: Readonly<Partial<SimPlanPhp>>;
  readonly php_fpm: Readonly<Partial<SimPlanPhpFpm>>;
}

/** A hosting plan as GET /hosting-plans answers it. Sizes in bytes, -1 = unlimited. */
export interface SimPlan extends SimPlanSections {
  readonly id: number;
  readonly name: string;
}

/** Sections as a request or a seed gives them: each optional, each possibly partial. */
export type PlanSectionsInput = Partial<SimPlanSections>;

/** A seed's plan given as an object: a name, and sections merged over its position's defaults. */
export interface SimulatorSeedPlan extends PlanSectionsInput {
  readonly name: string;
}

type Kind = 'limit' | 'boolean' | 'php-size' | 'count' | 'string' | 'pm' | 'count?' | 'boolean?' | 'string?';
type Section = keyof SimPlanSections;

export const PLAN_SECTIONS = ['resources', 'permissions', 'php', 'php_fpm'] as const satisfies readonly Section[];

const SECTIONS: { readonly [S in Section]: Readonly<Record<keyof Required<SimPlanSections[S]>, Kind>> } = {
  resources: {
    disk_space: 'limit',
    traffic: 'limit',
    domains: 'limit',
    subdomains: 'limit',
    email_accounts: 'limit',
    email_addresses: 'limit',
    email_forwardings: 'limit',
    databases: 'limit',
    ftp_users: 'limit',
    scheduled_tasks: 'limit',
  },
  permissions: {
    ftp: 'boolean',
    php: 'boolean',
    perl: 'boolean',
    ssh: 'boolean',
    backup: 'boolean',
    panel_access: 'boolean',
    domain_security: 'boolean',
    certificate_management: 'boolean',
    file_manager: 'boolean',
    dns_editor: 'boolean',
    database_remote_access: 'boolean',
    email_catchall: 'boolean',
    applications: 'boolean',
    ssh_jail: 'boolean',
    delete_main_domain: 'boolean',
    change_personal_data: 'boolean',
  },
  php: {
    memory_limit: 'php-size',
    max_execution_time: 'count',
    post_max_size: 'php-size',
    upload_max_filesize: 'php-size',
    open_basedir: 'string',
    disable_functions: 'string',
    additional_settings: 'string',
  },
  php_fpm: {
    pm: 'pm',
    max_children: 'count',
    max_requests: 'count',
    min_spare_servers: 'count',
    max_spare_servers: 'count?',
    status: 'boolean?',
    status_ip_restriction: 'string?',
  },
};

const WANTS: Readonly<Record<Kind, string>> = {
  limit: 'an integer of -1 (unlimited) or more',
  boolean: 'a boolean',
  'php-size': 'a size like "512M" (digits, then K, M or G) or "-1"',
  count: 'an integer of 0 or more',
  string: 'a string',
  pm: '"ondemand", "dynamic" or "static"',
  'count?': 'an integer of 0 or more, or null',
  'boolean?': 'a boolean or null',
  'string?': 'a string or null',
};

const count = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

const FITS: Readonly<Record<Kind, (value: unknown) => boolean>> = {
  limit: (value) => Number.isSafeInteger(value) && (value as number) >= -1,
  boolean: (value) => typeof value === 'boolean',
  'php-size': (value) => typeof value === 'string' && /^(?:[0-9]{1,12}[KMG]?|-1)$/.test(value),
  count,
  string: (value) => typeof value === 'string',
  pm: (value) => value === 'ondemand' || value === 'dynamic' || value === 'static',
  'count?': (value) => value === null || count(value),
  'boolean?': (value) => value === null || typeof value === 'boolean',
  'string?': (value) => value === null || typeof value === 'string',
};

const GIB = 1024 ** 3;

/** What a new plan (POST /hosting-plans) has for every section and key left out; the first seeded plan's values. */
export const NEW_PLAN: { readonly [S in Section]: Required<SimPlanSections[S]> } = {
  resources: {
    disk_space: 10 * GIB,
    traffic: 100 * GIB,
    domains: 5,
    subdomains: -1,
    email_accounts: 10,
    email_addresses: 20,
    email_forwardings: 20,
    databases: 2,
    ftp_users: 2,
    scheduled_tasks: 5,
  },
  permissions: {
    ftp: true,
    php: true,
    perl: false,
    ssh: false,
    backup: true,
    panel_access: true,
    domain_security: true,
    certificate_management: true,
    file_manager: true,
    dns_editor: false,
    database_remote_access: false,
    email_catchall: true,
    applications: true,
    ssh_jail: true,
    delete_main_domain: false,
    change_personal_data: true,
  },
  php: {
    memory_limit: '256M',
    max_execution_time: 30,
    post_max_size: '64M',
    upload_max_filesize: '64M',
    open_basedir: '',
    disable_functions: '',
    additional_settings: '',
  },
  php_fpm: {
    pm: 'ondemand',
    max_children: 5,
    max_requests: 1000,
    min_spare_servers: 1,
    max_spare_servers: null,
    status: null,
    status_ip_restriction: null,
  },
};

/** The sections of the plan seeded by name at `position` (0: the first), before a seed object's own. */
export function seedPlanParts(position: number): SimPlanSections {
  if (position === 0) return NEW_PLAN;
  const times = position + 1;
  const unlimited = position >= 2;
  const limit = (base: number): number => (unlimited ? -1 : base * times);
  const r = NEW_PLAN.resources;
  return {
    resources: {
      disk_space: limit(r.disk_space),
      traffic: limit(r.traffic),
      domains: limit(r.domains),
      subdomains: -1,
      email_accounts: limit(r.email_accounts),
      email_addresses: limit(r.email_addresses),
      email_forwardings: limit(r.email_forwardings),
      databases: limit(r.databases),
      ftp_users: limit(r.ftp_users),
      scheduled_tasks: limit(r.scheduled_tasks),
    },
    permissions: { ...NEW_PLAN.permissions, ssh: true, dns_editor: unlimited, database_remote_access: unlimited },
    php: { ...NEW_PLAN.php, memory_limit: unlimited ? '1024M' : '512M', max_execution_time: 30 * times },
    php_fpm: unlimited
      ? {
          pm: 'dynamic',
          max_children: 5 * times,
          max_requests: 1000,
          min_spare_servers: 2,
          max_spare_servers: 8,
          status: true,
          status_ip_restriction: '127.0.0.1',
        }
      : { ...NEW_PLAN.php_fpm, max_children: 5 * times },
  };
}

/** `base` with the sections `given` (checked by planProblem) merged over it, key by key. */
export function mergedSections(base: SimPlanSections, given: PlanSectionsInput): SimPlanSections {
  return {
    resources: { ...base.resources, ...given.resources },
    permissions: { ...base.permissions, ...given.permissions },
    php: { ...base.php, ...given.php },
    php_fpm: { ...base.php_fpm, ...given.php_fpm },
  };
}

/** A refused field: `name`, `resources`, `php.memory_limit`; and what is wrong with it. */
export interface PlanProblem {
  readonly field: string;
  /** Follows the field in a sentence: "must be a boolean". */
  readonly fault: string;
}

/** The first problem of `name` (required when `nameRequired`) and the sections in `input`, or undefined. */
export function planProblem(input: Record<string, unknown>, nameRequired: boolean): PlanProblem | undefined {
  const { name } = input;
  if ((name !== undefined || nameRequired) && (typeof name !== 'string' || name === ''))
    return { field: 'name', fault: `${nameRequired ? 'is required and ' : ''}must be a non-empty string` };
  for (const section of PLAN_SECTIONS) {
    const value = input[section];
    if (value === undefined) continue;
    if (!isRecord(value)) return { field: section, fault: 'must be an object' };
    const keys: Readonly<Record<string, Kind>> = SECTIONS[section];
    for (const [key, item] of Object.entries(value)) {
      const kind = Object.hasOwn(keys, key) ? keys[key] : undefined;
      if (kind === undefined)
        return {
          field: section,
          fault: `has no key ${JSON.stringify(key)} (its keys: ${Object.keys(keys).join(', ')})`,
        };
      if (!FITS[kind](item)) return { field: `${section}.${key}`, fault: `must be ${WANTS[kind]}` };
    }
  }
  return undefined;
}

/** The sections of a checked body or seed item, without the rest. */
export function sectionsOf(input: Record<string, unknown>): PlanSectionsInput {
  // The caller checked the values (planProblem): only the keys are picked here.
  return Object.fromEntries(PLAN_SECTIONS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}

/**
 * A plan from a state file written before plans were whole (a few resources, `cronjobs`
 * among the permissions): each section keeps the keys of SECTIONS it has, with their values,
 * takes NEW_PLAN's for the ones it lacks, and drops keys SECTIONS does not know.
 */
export function planFromOldFile(record: SimPlan): SimPlan {
  const section = <S extends Section>(name: S): SimPlanSections[S] => {
    const old: unknown = record[name];
    const kept = isRecord(old) ? Object.entries(old).filter(([key]) => Object.hasOwn(SECTIONS[name], key)) : [];
    return { ...NEW_PLAN[name], ...Object.fromEntries(kept) };
  };
  return {
    ...record,
    resources: section('resources'),
    permissions: section('permissions'),
    php: section('php'),
    php_fpm: section('php_fpm'),
  };
}

/** The store list of plans (table.ts): names are exact and case-sensitive, like /hosting-plans/name/. */
export const PLAN_LISTS = {
  plans: { ...whole<SimPlan>(), fields: ['id', 'name'], key: (p) => p.name, sequence: 'nextPlanId', deletable: true },
} as const satisfies { plans: ListRule<SimPlan, SimPlan> };
