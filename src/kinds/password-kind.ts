/**
 * What the kinds whose things have a password and belong to a client share (the mailbox, the
 * database, the FTP user): one shape of changes (a create with its client's id and the values it
 * sends, an update of fields, a delete, each of the thing the panel knows by an id), of requests
 * (POST to the list, PUT and DELETE of `<list>/<id>`), of their plan document (`client`, the id
 * under the kind's own key, `fields` or `values`) and of the check that a change read back makes
 * the request the document says. Each room says its own part (PasswordKindShape): its list's
 * path, its id's key, what its create holds beyond the common fields, its body. Pure.
 */
import { assertNever, canonical, isRecord, type JsonValue } from '../util.js';
import { type ChangeBase, changeId, type NewIds, type PanelRequest } from './common.js';

/** A change of such a kind, as the shared code sees it. */
export interface PasswordKindChange {
  readonly action: 'create' | 'update' | 'delete';
  readonly client: string;
}

/** A create of such a kind: its client's id (null: created in the same run) and the values it sends. */
interface Create {
  readonly action: 'create';
  readonly client: string;
  readonly clientId: number | null;
  readonly wants: object;
}

/** An update of such a kind: the fields that differ, each with the value it sets. */
interface Update {
  readonly action: 'update';
  readonly fields: readonly { readonly field: string; readonly after: unknown }[];
}

/** A change of such a kind as the plan document holds it (the fields the shared code reads; the schema checked them). */
export interface PasswordKindJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly client?: string;
  readonly client_id?: number | null;
  readonly fields?: readonly unknown[];
  readonly request?: unknown;
}

/** What a room's changes say of its kind to the shared requests (its changes.ts); `C` its changes. */
export interface PasswordKindRequests<C extends PasswordKindChange> {
  /** The list's path on the panel (`/databases`). */
  readonly path: string;
  /** The panel's id of the thing an update or a delete changes. */
  id(change: Exclude<C, { readonly action: 'create' }>): number;
  /** A create's body after `id_user`: its name, then its values. */
  createBody(change: Extract<C, { readonly action: 'create' }>): Record<string, JsonValue>;
  /** The body that sets `wants` (the fields an update sets, by name). */
  fieldBody(wants: Record<string, unknown>): Record<string, JsonValue>;
}

/** What a room's plan document says of its kind besides (its document.ts); `J` its document's item. */
export interface PasswordKindShape<
  C extends PasswordKindChange,
  J extends PasswordKindJson,
> extends PasswordKindRequests<C> {
  /** The kind's name: a change's `type`, its change id's first part. */
  readonly type: string;
  /** The plan document's key of the panel's id on an update or a delete (`database_id`). */
  readonly idKey: string;
  /** The same id as the room's change holds it (`{ databaseId: 7 }`). */
  withId(id: number): object;
  /** Whether a delete says `destroys_data` (the thing holds data: mail, a database's tables). */
  readonly destroysData: boolean;
  /** What a create holds in the document between `client_id` and `values` (`user`, `domain`), in order. */
  createJson(change: Extract<C, { readonly action: 'create' }>): Record<string, unknown>;
  /** A create's own fields read back (`user`, `domain`, `wants`: its defaults where the document lacks them). */
  createFromJson(item: J, name: string): object;
}

/**
 * The request a change becomes. A create whose client the same run creates takes its `id_user`
 * from `newIds`; before apply (a preview) it is null: known after apply. An update sends only the
 * fields that differ.
 */
export function passwordKindRequest<C extends PasswordKindChange>(
  shape: PasswordKindRequests<C>,
  change: C,
  newIds?: NewIds,
): PanelRequest {
  const action = change.action;
  switch (action) {
    case 'create': {
      const create = change as Extract<C, { readonly action: 'create' }> & Create;
      return {
        method: 'POST',
        path: shape.path,
        body: {
          id_user: create.clientId ?? newIds?.get(changeId('client', create.client)) ?? null,
          ...shape.createBody(create),
        },
      };
    }
    case 'update': {
      const update = change as Exclude<C, { readonly action: 'create' }> & Update;
      const wants: Record<string, unknown> = {};
      for (const { field, after } of update.fields) wants[field] = after;
      return { method: 'PUT', path: `${shape.path}/${shape.id(update)}`, body: shape.fieldBody(wants) };
    }
    case 'delete':
      return {
        method: 'DELETE',
        path: `${shape.path}/${shape.id(change as Exclude<C, { readonly action: 'create' }>)}`,
        body: null,
      };
    default:
      return assertNever(action);
  }
}

/** What a change adds to the common fields of the plan document, in the document's order. */
export function passwordKindToJson<C extends PasswordKindChange, J extends PasswordKindJson>(
  shape: PasswordKindShape<C, J>,
  change: C,
): Record<string, unknown> {
  const action = change.action;
  switch (action) {
    case 'create': {
      const create = change as Extract<C, { readonly action: 'create' }> & Create;
      return { client: create.client, client_id: create.clientId, ...shape.createJson(create), values: create.wants };
    }
    case 'update': {
      const update = change as Exclude<C, { readonly action: 'create' }> & Update;
      return { client: update.client, [shape.idKey]: shape.id(update), fields: update.fields };
    }
    case 'delete':
      return {
        client: change.client,
        [shape.idKey]: shape.id(change as Exclude<C, { readonly action: 'create' }>),
        ...(shape.destroysData ? { destroys_data: true } : {}),
      };
    default:
      return assertNever(action);
  }
}

/** A change read back from the plan document (the schema requires each action's fields; the fallbacks are never used). */
export function passwordKindFromJson<C extends PasswordKindChange, J extends PasswordKindJson>(
  shape: PasswordKindShape<C, J>,
  item: J,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): C {
  const common = {
    ...base,
    id: changeId(shape.type, base.name),
    type: shape.type,
    client: item.client ?? '',
  };
  const id = (): object => {
    const value = (item as Readonly<Record<string, unknown>>)[shape.idKey];
    return shape.withId(typeof value === 'number' ? value : 0);
  };
  const action = item.action;
  switch (action) {
    case 'create':
      return {
        ...common,
        action,
        clientId: item.client_id ?? null,
        ...shape.createFromJson(item, base.name),
      } as unknown as C;
    case 'update':
      return { ...common, action, ...id(), fields: item.fields ?? [] } as unknown as C;
    case 'delete':
      return { ...common, action, ...id(), ...(shape.destroysData ? { destroysData: true } : {}) } as unknown as C;
    default:
      return assertNever(action);
  }
}

/**
 * The problem of a change read back whose document's `request` is not the one the change makes
 * (`made`; a create's `id_user` aside, which apply fills in when the client is created in the same
 * run); undefined when it is.
 */
export function requestProblem(item: PasswordKindJson, made: PanelRequest, path: string): string | undefined {
  const sent = isRecord(item.request) ? item.request : {};
  const body = (value: unknown): string => {
    if (!isRecord(value)) return canonical(value);
    return canonical(Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id_user')));
  };
  return sent.method !== made.method || sent.path !== made.path || body(sent.body) !== body(made.body)
    ? `${path}.request: is not the request the change makes: the file was edited`
    : undefined;
}
