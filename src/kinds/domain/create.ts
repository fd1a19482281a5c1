/**
 * A domain's create as the planner makes it: what it holds, and what it makes when read. Pure.
 */
import { type ChangeId, changeId, dependencies, NO_DEPENDENCIES } from '../common.js';
import type { CreateDomain, ParentDomain } from './changes.js';
import { type DomainSettings, givenSettings } from './settings.js';

/**
 * The create of `name` for `client` (`clientId` null when the client is created in the same
 * run: it then waits for the client's create), after its `parent` when that is created too.
 * `ids.own`: this create's id when the planner made it already (memory, at 100,000 domains);
 * made when absent.
 *
 * What the create waits for is its own fields said again (its client's create when `clientId`
 * is null, its parent's, a `parentDomain` created in the same run), and so is a subdomain's
 * `parentDomain` when it names the parent the create waits for with id null: both are own
 * enumerable getters (one descriptor each, shared by every create, so the creates share their
 * hidden classes) that make them when read, not fields: spreads, `JSON.stringify` and `toEqual`
 * see the plain data they saw, and a plan of 20,000 new clients holds about 2 MB less
 * (docs/benchmarks.md, "Leaner changes").
 */
export function createDomain(
  name: string,
  client: string,
  clientId: number | null,
  parent?: string,
  settings?: DomainSettings,
  parentDomain?: ParentDomain,
  ids?: CreateIds,
): CreateDomain {
  const given = settings !== undefined && givenSettings(settings).length > 0 ? settings : undefined;
  return new PlannedDomainCreate(
    ids?.own ?? changeId('domain', name),
    name,
    client,
    clientId,
    parent,
    parentDomain,
    given,
  );
}

/**
 * A domain's create as the planner makes it (createDomain): its fields in the order the plan's
 * document had them (`dependsOn` after `reason`), each in the object itself; `dependsOn`, and a
 * `parentDomain` that names the parent with id null, own enumerable getters.
 */
class PlannedDomainCreate implements CreateDomain {
  readonly id: ChangeId<'domain'>;
  readonly action = 'create' as const;
  readonly type = 'domain' as const;
  readonly name: string;
  readonly client: string;
  readonly clientId: number | null;
  readonly reason = 'not on the panel';
  declare readonly dependsOn: readonly ChangeId[];
  declare readonly parent?: string;
  declare readonly parentDomain?: ParentDomain;
  declare readonly settings?: DomainSettings;

  constructor(
    id: ChangeId<'domain'>,
    name: string,
    client: string,
    clientId: number | null,
    parent: string | undefined,
    parentDomain: ParentDomain | undefined,
    settings: DomainSettings | undefined,
  ) {
    this.id = id;
    this.name = name;
    this.client = client;
    this.clientId = clientId;
    Object.defineProperty(this, 'dependsOn', DEPENDS_ON);
    if (parent !== undefined) (this as { parent?: string }).parent = parent;
    if (parentDomain?.id === null && parentDomain.name === parent)
      Object.defineProperty(this, 'parentDomain', PARENT_AS_DOMAIN);
    else if (parentDomain !== undefined) (this as { parentDomain?: ParentDomain }).parentDomain = parentDomain;
    if (settings !== undefined) (this as { settings?: DomainSettings }).settings = settings;
  }
}

/**
 * What a domain's create waits for, from its fields: its client's create (the client is created
 * in the same run), its parent's, and the create of a `parentDomain` of the same run that is not
 * its parent; in that order.
 */
function createDependencies(change: CreateDomain): readonly ChangeId[] {
  const above = change.parentDomain;
  return dependencies(
    change.clientId === null ? changeId('client', change.client) : undefined,
    change.parent === undefined ? undefined : changeId('domain', change.parent),
    above?.id === null && above.name !== change.parent ? changeId('domain', above.name) : undefined,
  );
}

/**
 * The last create whose `dependsOn` was read, and the list made: the ordering reads a create's
 * list once for each entry it walks (src/plan/order.ts), one right after another.
 */
const lastRead: { of: object | undefined; list: readonly ChangeId[] } = { of: undefined, list: NO_DEPENDENCIES };

/** A create's `dependsOn`, made when read (createDomain). */
const DEPENDS_ON: PropertyDescriptor = {
  enumerable: true,
  get(this: CreateDomain): readonly ChangeId[] {
    if (lastRead.of !== this) {
      lastRead.list = createDependencies(this);
      lastRead.of = this;
    }
    return lastRead.list;
  },
};

/** A subdomain's `parentDomain` that names its parent, created in the same run (createDomain). */
const PARENT_AS_DOMAIN: PropertyDescriptor = {
  enumerable: true,
  get(this: CreateDomain): ParentDomain {
    return { name: this.parent ?? '', id: null };
  },
};

/**
 * The ids a domain's create is made with when the planner has them (createDomain). Only `own` is
 * kept; what it waits for is made when read (`client` and `parent` are not held).
 */
export interface CreateIds {
  readonly own?: ChangeId<'domain'> | undefined;
  /** Its client's create (not held: `dependsOn` makes it when read). */
  readonly client?: ChangeId<'client'> | undefined;
  /** Its parent's create (not held: `dependsOn` makes it when read). */
  readonly parent?: ChangeId<'domain'> | undefined;
}
