/**
 * The client's changes: their types, the diff rule for its managed fields, the requests they
 * become, their fields in the plan document and their phrases. Pure.
 */
import { quote } from '../../escape.js';
import { assertNever, plural } from '../../util.js';
import {
  afterSubdomains,
  type ChangeBase,
  type ChangeId,
  changeId,
  type HostingPlanRef,
  type KindNoun,
  type NewIds,
  NO_DEPENDENCIES,
  type PanelRequest,
} from '../common.js';
import {
  CLIENT_FIELDS,
  type ClientField,
  type ClientFieldRow,
  type ClientTargets,
  type ClientCreateOnly,
  type ClientWants,
  clientField,
  type FieldChange,
  type HostingPlans,
  liveValue,
  printValue,
} from './fields.js';
import type { LiveClient } from './record.js';
import { destroysDataMark, joinedParts, type Takes, type TakenWords } from '../takes.js';

/**
 * A client the panel lacks: `POST /clients` with its username, each field the manifest gives and
 * `send_login_credentials`.
 */
export interface CreateClient extends ChangeBase<'client'>, ClientTargets {
  readonly action: 'create';
  readonly type: 'client';
  /**
   * Whether the panel mails the new login (ClientCreateOnly): always set by the planner (false
   * unless the manifest asks); absent only in a plan file of format 2.3 or older, whose request
   * is applied as it was reviewed.
   */
  readonly sendLoginCredentials?: boolean;
}

/** A client whose managed fields differ: `PUT /clients/{id}` with only those fields. */
export interface UpdateClient extends ChangeBase<'client'> {
  readonly action: 'update';
  readonly type: 'client';
  readonly clientId: number;
  /** In the order of the field table (plan, email, suspended, ...); at least one. */
  readonly fields: readonly FieldChange[];
  /** The new hosting plan when `plan` changes (its id goes in the request). */
  readonly hostingPlan?: HostingPlanRef;
}

/** A client deleted (`state: absent`, or pruned); its domains go with it, without DELETEs of their own. */
export interface DeleteClient extends ChangeBase<'client'> {
  readonly action: 'delete';
  readonly type: 'client';
  readonly clientId: number;
  /**
   * The domains that go with it, sorted, system domains not counted; null when the panel cannot
   * list its domains (then which go with it is unknown, and the mass-delete rail always holds).
   */
  readonly domainNames: readonly string[] | null;
  /** What else it takes, counted (../takes.ts: its mailboxes, its databases); absent when none could be counted. */
  readonly takes?: Takes;
}

export type ClientChange = CreateClient | UpdateClient | DeleteClient;

/** The create of a client the panel lacks, with every field the manifest gives. */
export function createClient(
  username: string,
  wants: ClientWants & ClientCreateOnly,
  plans: HostingPlans,
): CreateClient {
  return new PlannedClientCreate(username, wants, plans);
}

/**
 * A client's create as the planner makes it (createClient): the fields of a plain literal, in
 * its order, each in the object itself (a spread of the targets into a literal put them beyond
 * its fields, in a second array: 40 bytes a create; docs/benchmarks.md, "Leaner changes").
 */
class PlannedClientCreate implements CreateClient {
  readonly id: ChangeId<'client'>;
  readonly action = 'create' as const;
  readonly type = 'client' as const;
  readonly name: string;
  readonly reason = 'not on the panel';
  // A plan the same run creates or updates: the planner adds the wait (plan/diff.ts).
  readonly dependsOn = NO_DEPENDENCIES;
  declare readonly sendLoginCredentials: boolean;

  constructor(username: string, wants: ClientWants & ClientCreateOnly, plans: HostingPlans) {
    this.id = changeId('client', username);
    this.name = username;
    for (const row of CLIENT_FIELDS) {
      const wanted = wants[row.key];
      if (wanted !== undefined) (this as Record<string, unknown>)[row.changeKey] = row.target(wanted, plans);
    }
    (this as { sendLoginCredentials: boolean }).sendLoginCredentials = wants.sendLoginCredentials ?? false;
  }
}

/**
 * The delete of a live client; `domainNames` go with it (system domains not counted; null: the
 * panel cannot list them).
 */
export function deleteClient(
  live: { readonly id: number; readonly username: string },
  domainNames: readonly string[] | null,
  reason: string,
): DeleteClient {
  return {
    id: changeId('client', live.username),
    action: 'delete',
    type: 'client',
    name: live.username,
    clientId: live.id,
    domainNames,
    reason,
    dependsOn: NO_DEPENDENCIES,
  };
}

/**
 * The diff rule: the update for the managed fields the manifest gives that differ from the
 * panel's, or undefined; a field the record does not carry goes to `unknown`, never a change.
 */
export function updateClient(
  username: string,
  wants: ClientWants,
  live: LiveClient,
  plans: HostingPlans,
  unknown: (field: ClientField) => void,
): UpdateClient | undefined {
  const fields: FieldChange[] = [];
  let hostingPlan: HostingPlanRef | undefined;
  for (const row of CLIENT_FIELDS) {
    const change = fieldChange(row, wants, live, plans);
    if (change === 'unknown') unknown(row.key);
    else if (change !== undefined) {
      fields.push(change.field);
      if (row.key === 'plan') hostingPlan = change.target as HostingPlanRef;
    }
  }
  if (fields.length === 0) return undefined;
  return {
    id: changeId('client', username),
    action: 'update',
    type: 'client',
    name: username,
    clientId: live.id,
    reason: 'differs from the manifest',
    dependsOn: NO_DEPENDENCIES,
    fields,
    ...(hostingPlan === undefined ? {} : { hostingPlan }),
  };
}

function fieldChange<K extends ClientField>(
  row: ClientFieldRow<K>,
  wants: ClientWants,
  live: LiveClient,
  plans: HostingPlans,
): { field: FieldChange; target: unknown } | 'unknown' | undefined {
  const wanted = wants[row.key];
  if (wanted === undefined) return undefined;
  const now = liveValue(row, live);
  if (now === undefined) return 'unknown';
  const target = row.target(wanted, plans);
  if (row.same(now, target)) return undefined;
  return { field: { field: row.key, before: row.before(now, plans), after: row.after(target) } as FieldChange, target };
}

/**
 * The request a client's change becomes: the one converter for the kind. An update sends only the
 * fields that differ.
 */
export function clientRequest(change: ClientChange, newIds?: NewIds): PanelRequest {
  // A hosting plan the same run creates: its id from its create's answer (null before apply: a preview).
  const planId = (): number | null =>
    change.action === 'delete' ? null : (newIds?.get(changeId('hosting_plan', change.hostingPlan?.name ?? '')) ?? null);
  switch (change.action) {
    case 'create': {
      const body: Record<string, string | number | boolean | null> = { username: change.name };
      for (const row of CLIENT_FIELDS) {
        const target = (change as unknown as Readonly<Record<string, unknown>>)[row.changeKey];
        if (target !== undefined) body[row.panel[0]] = row.send(target as never) ?? planId();
      }
      if (change.sendLoginCredentials !== undefined) body.send_login_credentials = change.sendLoginCredentials;
      return { method: 'POST', path: '/clients', body };
    }
    case 'update': {
      const body: Record<string, string | number | boolean | null> = {};
      for (const field of change.fields) {
        const row = clientField(field.field);
        body[row.panel[0]] = row.send(row.targetOfUpdate(field.after, change.hostingPlan, change.id)) ?? planId();
      }
      return { method: 'PUT', path: `/clients/${change.clientId}`, body };
    }
    case 'delete':
      return { method: 'DELETE', path: `/clients/${change.clientId}`, body: null };
    default:
      return assertNever(change);
  }
}

/** How people's text names clients. */
export const CLIENT_NOUN: KindNoun = { one: 'client', many: 'clients' };

/** What a client's delete takes with it, as a note on deletes says it. */
export const CLIENT_DELETE_TAKES = 'a client with its domains, mail, databases and files';

/** `client "alice"`: a client's change as people read it. */
export function clientSubject(change: ClientChange): string {
  return `client ${quote(change.name)}`;
}

/**
 * What the text plan's comment line says of a client's change beside its subject (`what`) and
 * after its reason (`after`): the hosting plan a new client is created on, and the mail of its
 * login when the manifest asks for it. (A delete the plan
 * makes waits for nothing; one read from an edited plan file says what it waits for.)
 */
export function clientDetails(change: ClientChange): { what: string; after: string } {
  switch (change.action) {
    case 'create':
      return {
        what: change.hostingPlan === undefined ? '' : ` on hosting plan ${quote(change.hostingPlan.name)}`,
        // Asked for in the manifest: a mail to a person, said where a reviewer reads.
        after:
          change.sendLoginCredentials === true ? ', and the panel mails it its login (send_login_credentials)' : '',
      };
    case 'update':
      return { what: '', after: '' };
    case 'delete':
      return {
        what: '',
        after: afterSubdomains(change.dependsOn),
      };
    default:
      return assertNever(change);
  }
}

/**
 * ` with its 3 domains, mail, databases and files` after a client's delete; else ''. When what it
 * takes of other kinds was counted and is some (`taken`): ` with its 2 domains, 3 mailboxes and
 * 1 database (destroys data)`.
 */
export function clientGoesWith(change: ClientChange, taken?: TakenWords): string {
  if (change.action !== 'delete') return '';
  const { domainNames } = change;
  if (taken !== undefined && taken.parts.length > 0) {
    const domains =
      domainNames === null
        ? 'all its domains (how many, the panel cannot list)'
        : domainNames.length === 0
          ? undefined
          : `its ${plural(domainNames.length, 'domain')}`;
    const parts = domains === undefined ? ['its ' + joinedParts(taken.parts)] : [domains, ...taken.parts];
    return ` with ${joinedParts(parts)}${destroysDataMark(taken)}`;
  }
  if (domainNames === null) return ' with all its domains (how many, the panel cannot list), mail, databases and files';
  return (
    ` with ${domainNames.length === 0 ? 'its' : `its ${plural(domainNames.length, 'domain')},`}` +
    ' mail, databases and files'
  );
}

/** `client "alice": the panel shows its email nowhere ...`: a managed field the panel does not show. */
export function clientUnknownLine(u: { readonly client: string; readonly field: ClientField }): string {
  return (
    `client ${quote(u.client)}: the panel shows its ${u.field} nowhere (not even GET /clients/{id}): ` +
    'not compared, not changed'
  );
}

/**
 * `plan: "Basic" -> "Business", suspended: false -> true`: each value as data, a name quoted (a
 * plan named `Basic -> Pro, suspended: true` cannot pass for two fields), none as `(none)`.
 */
export function fieldsText(fields: readonly FieldChange[]): string {
  return fields.map((f) => `${f.field}: ${printValue(f.before)} -> ${printValue(f.after)}`).join(', ');
}
