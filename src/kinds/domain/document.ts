/** A domain's changes in the plan document, both ways, with the checks a change read back must pass. Pure. */
import { quote } from '../../escape.js';
import { assertNever, canonical, isRecord, type JsonValue } from '../../util.js';
import { type ChangeBase, changeId } from '../common.js';
import { type DomainChange, settingText } from './changes.js';
import { takesFromJson, takesToJson } from '../takes.js';
import {
  type DomainSetting,
  type DomainSettings,
  type DomainSettingTypes,
  givenSettings,
  type SettingChange,
  settingRow,
  type SettingsBody,
} from './settings.js';

/** A domain's change as the plan document holds it (snake_case), beside the common fields; the schema checked it. */
export interface DomainChangeJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly client?: string;
  readonly client_id?: number | null;
  readonly parent?: string;
  readonly parent_domain?: { readonly name: string; readonly id: number | null };
  readonly domain_id?: number;
  readonly subdomains?: readonly string[];
  /** A delete's: what it takes of other kinds, by kind (../takes.ts); absent when none was counted. */
  readonly takes?: { readonly [kind: string]: number };
  /** A delete's: how many more of a kind counted in `takes` the panel lists without an owner (any may go); absent when none. */
  readonly takes_unattributed?: { readonly [kind: string]: number };
  /** A delete's: true when what it takes holds data. */
  readonly destroys_data?: boolean;
  /** A create's settings, by their dotted names. */
  readonly settings?: DomainSettings;
  /** An update's settings that differ. */
  readonly fields?: readonly SettingChange[];
  /** The request the change becomes: an update's body is read from it (what the PUT sends). */
  readonly request?: unknown;
}

/** What a domain's change adds to the common fields, in the document's order. */
export function domainToJson(change: DomainChange): Record<string, unknown> {
  switch (change.action) {
    case 'create':
      return {
        client: change.client,
        client_id: change.clientId,
        ...(change.parent === undefined ? {} : { parent: change.parent }),
        ...(change.parentDomain === undefined ? {} : { parent_domain: change.parentDomain }),
        ...(change.settings === undefined ? {} : { settings: change.settings }),
      };
    case 'update':
      return { domain_id: change.domainId, client: change.client, client_id: change.clientId, fields: change.fields };
    case 'delete':
      return {
        domain_id: change.domainId,
        client: change.client,
        client_id: change.clientId,
        subdomains: change.subdomains,
        ...takesToJson(change.takes),
      };
    default:
      return assertNever(change);
  }
}

/**
 * A domain's change read back; `base` holds the common fields. An update's body is its request's
 * (domainProblems checks that it says what its fields say).
 */
export function domainFromJson(
  item: DomainChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): DomainChange {
  const id = changeId('domain', base.name);
  // The schema requires each action's fields; the fallbacks are never used.
  if (item.action === 'delete')
    return {
      ...base,
      id,
      action: 'delete',
      type: 'domain',
      domainId: item.domain_id ?? 0,
      client: item.client ?? '',
      clientId: item.client_id ?? 0,
      subdomains: item.subdomains ?? [],
      ...takenFromJson(item),
    };
  if (item.action === 'update') {
    const request = isRecord(item.request) ? item.request : {};
    return {
      ...base,
      id,
      action: 'update',
      type: 'domain',
      domainId: item.domain_id ?? 0,
      client: item.client ?? '',
      clientId: item.client_id ?? 0,
      fields: item.fields ?? [],
      body: isRecord(request.body) ? request.body : {},
    };
  }
  return {
    ...base,
    id,
    action: 'create',
    type: 'domain',
    client: item.client ?? '',
    clientId: item.client_id ?? null,
    ...(item.parent === undefined ? {} : { parent: item.parent }),
    ...(item.parent_domain === undefined
      ? {}
      : { parentDomain: { name: item.parent_domain.name, id: item.parent_domain.id } }),
    ...(item.settings === undefined ? {} : { settings: item.settings }),
  };
}

/**
 * What a domain's change read back must say of itself beyond the schema: a create waits for what
 * it names; each value it would send is one a manifest may give (the row's `unwritable`: a
 * MAJOR.MINOR version or "default", status 301 or 302, an http(s) URL, max_age 0 or more); a
 * subdomain's parent is its own client's; an update's body sends exactly what its fields say.
 */
export function domainProblems(
  change: DomainChange,
  path: string,
  /** By name, the owner's username of a domain create listed before this change; undefined for none. */
  createdBefore: (name: string) => string | undefined,
): string[] {
  if (change.action === 'update') return updateProblems(change.fields, change.body, path);
  if (change.action !== 'create') return [];
  const problems: string[] = givenSettings(change.settings).flatMap(([row, value]) =>
    valueProblems(row.key, value, `${path}.settings`),
  );
  const owner = changeId('client', change.client);
  if (change.clientId === null && !change.dependsOn.includes(owner))
    problems.push(`${path}.client_id: null, yet the change does not depend on ${quote(owner)}`);
  const parent = change.parent === undefined ? undefined : changeId('domain', change.parent);
  if (parent !== undefined && !change.dependsOn.includes(parent))
    problems.push(`${path}.parent: ${quote(change.parent ?? '')}, yet the change does not depend on ${quote(parent)}`);
  const above = change.parentDomain;
  if (above !== undefined && !change.name.endsWith(`.${above.name}`))
    problems.push(`${path}.parent_domain.name: ${quote(above.name)} does not enclose ${quote(change.name)}`);
  // A domain never hangs under another customer's: the planner names a parent of the same
  // client only, and the fingerprint checks a panel parent's owner only for a client that exists.
  if (above?.id === null && !change.dependsOn.includes(changeId('domain', above.name)))
    problems.push(
      `${path}.parent_domain.id: null, yet the change does not depend on ${quote(changeId('domain', above.name))}`,
    );
  else if (above?.id === null && (createdBefore(above.name) ?? change.client) !== change.client)
    problems.push(
      `${path}.parent_domain.name: ${quote(above.name)} is not a domain this plan creates for ${quote(change.client)}`,
    );
  if (above !== undefined && above.id !== null && change.clientId === null)
    problems.push(
      `${path}.parent_domain.id: ${above.id}, yet the client is created in this plan and has no domain yet`,
    );
  return problems;
}

/**
 * An update's body must carry each field as its row writes it (writing it again changes nothing),
 * the top-level keys its fields touch and no other, each field once.
 */
function updateProblems(fields: readonly SettingChange[], body: SettingsBody, path: string): string[] {
  const problems: string[] = [];
  const touched = new Set<string>();
  const seen = new Set<string>();
  for (const [i, f] of fields.entries()) {
    problems.push(...valueProblems(f.field, f.after, `${path}.fields[${i}].after`, false));
    if (seen.has(f.field)) problems.push(`${path}.fields[${i}]: ${quote(f.field)} appears twice`);
    seen.add(f.field);
    const row = settingRow(f.field);
    const key = row.object ?? 'php_version';
    touched.add(key);
    const part = row.object === undefined ? body : body[row.object];
    if (!isRecord(part)) continue; // named below, as a key the body lacks
    const again: Record<string, JsonValue> = { ...(part as Record<string, JsonValue>) };
    row.write(again, f.after);
    if (canonical(again) !== canonical(part))
      problems.push(`${path}.request.body: does not send ${f.field} as the change says: the file was edited`);
  }
  for (const key of touched)
    if (body[key as keyof SettingsBody] === undefined) problems.push(`${path}.request.body: lacks ${quote(key)}`);
  for (const key of Object.keys(body))
    if (!touched.has(key)) problems.push(`${path}.request.body: sends ${quote(key)}, which no field changes`);
  return problems;
}

/**
 * `<path>.redirect: {"to":"ftp://x","status":301} is a target that is not an absolute http(s) URL`
 * when a value a change would send is one no manifest can give (the file was edited); `named`:
 * the path names the setting (a create's settings) rather than the value (an update's `after`).
 */
function valueProblems(
  field: DomainSetting,
  value: DomainSettingTypes[DomainSetting],
  path: string,
  named = true,
): string[] {
  const reason = settingRow(field).unwritable(value);
  if (reason === undefined) return [];
  return [`${named ? `${path}.${field}` : path}: ${settingText(value)} is ${reason}: the file was edited`];
}

/** A delete's `takes` read back, as the change holds it (absent when none was counted). */
function takenFromJson(item: DomainChangeJson): { takes?: NonNullable<ReturnType<typeof takesFromJson>> } {
  const takes = takesFromJson(item);
  return takes === undefined ? {} : { takes };
}
