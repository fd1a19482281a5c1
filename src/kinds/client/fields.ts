/**
 * The client's managed fields, one row each: the manifest key, the panel's key(s), how "none"
 * reads back, how two values compare, how a value is sent, printed and exported. Every stage
 * loops over CLIENT_FIELDS; a new field is a row here (and its entry in ClientFieldTypes),
 * plus the manifest schema and the simulator.
 */
import { quote } from '../../escape.js';
import {
  type FieldProblem,
  type FieldReader,
  type FieldView,
  flagReader,
  type HostingPlanRef,
  type LiveHostingPlan,
  LONE_SURROGATE,
} from '../common.js';

/**
 * Each field's values and names: `wanted` as the manifest gives it; `live` as read from the
 * panel (null: the panel says none); `target` what the panel is to hold (a plan by name and
 * id); `before` and `after` as an update shows them (in the manifest's terms); `liveKey` its
 * property on LiveClient, `changeKey` on a client's create, `jsonKey` in the plan document.
 */
export interface ClientFieldTypes {
  plan: {
    wanted: string;
    live: number | null;
    target: HostingPlanRef;
    before: string | null;
    after: string;
    liveKey: 'idHostingPlan';
    changeKey: 'hostingPlan';
    jsonKey: 'hosting_plan';
  };
  email: {
    wanted: string;
    live: string | null;
    target: string;
    before: string | null;
    after: string;
    liveKey: 'email';
    changeKey: 'email';
    jsonKey: 'email';
  };
  suspended: {
    wanted: boolean;
    live: boolean;
    target: boolean;
    before: boolean;
    after: boolean;
    liveKey: 'suspended';
    changeKey: 'suspended';
    jsonKey: 'suspended';
  };
  language: {
    wanted: string;
    live: string | null;
    target: string;
    before: string | null;
    after: string;
    liveKey: 'language';
    changeKey: 'language';
    jsonKey: 'language';
  };
}

type T = ClientFieldTypes;

/** The client fields a manifest may manage, by their manifest names. */
export type ClientField = keyof ClientFieldTypes;

/**
 * The managed fields of a client as read: each `undefined` when the record does not carry it
 * (then the engine does not know it), `null` when it says "none".
 */
export type ClientLiveFields = { readonly [K in ClientField as T[K]['liveKey']]?: T[K]['live'] | undefined };

/** The managed fields a manifest gives for a client; one left out is not managed. */
export type ClientWants = { readonly [K in ClientField]?: T[K]['wanted'] };

/**
 * A client's create-only keys: sent in its `POST /clients`, never compared, never sent on update,
 * never exported, so not rows of the table. A panel default that would act on someone is never
 * left to the panel: `send_login_credentials` (the panel mails the new login to the client) is
 * false unless the manifest asks, so a provisioning run mails no one by itself. The panel's
 * `create_system_domain` is never sent (its default stands).
 */
export interface ClientCreateOnly {
  /** The manifest's `send_login_credentials`; left out: false. */
  readonly sendLoginCredentials?: boolean;
}

/** The manifest's create-only client keys (ClientCreateOnly). */
export const CLIENT_CREATE_ONLY_KEYS = ['send_login_credentials'] as const;

/** What a client's create sets beside its username: each field the manifest gives. */
export type ClientTargets = { readonly [K in ClientField as T[K]['changeKey']]?: T[K]['target'] };

/** ClientTargets as the plan document holds them (snake_case). */
export type ClientTargetsJson = { readonly [K in ClientField as T[K]['jsonKey']]?: T[K]['target'] };

/** One managed field that differs, in the manifest's terms (null: none). */
export type FieldChange = {
  [K in ClientField]: { readonly field: K; readonly before: T[K]['before']; readonly after: T[K]['after'] };
}[ClientField];

/** The hosting plans a plan field compares and prints by. */
export interface HostingPlans {
  byName(name: string): LiveHostingPlan | undefined;
  /** Whether the run creates a plan of this name (the manifest defines it; the panel lacks it). */
  creates?(name: string): boolean;
  /** A plan id's name; undefined for an id the panel does not list. */
  nameOf(id: number): string | undefined;
}

/** HostingPlans over the panel's list; each index built on first use. */
export function hostingPlans(list: readonly LiveHostingPlan[]): HostingPlans {
  let byName: Map<string, LiveHostingPlan> | undefined;
  let names: Map<number, string> | undefined;
  return {
    byName(name) {
      byName ??= new Map(list.map((p) => [p.name, p]));
      return byName.get(name);
    },
    nameOf(id) {
      names ??= new Map(list.map((p) => [p.id, p.name]));
      return names.get(id);
    },
  };
}

/** One HostingPlanRef a panel plan, and one a plan the run creates, shared by every client on it (memory). */
const PLAN_REFS = new WeakMap<object, Map<string, HostingPlanRef>>();
function sharedRef(key: object, name: string, id: number | null): HostingPlanRef {
  const refs = PLAN_REFS.get(key) ?? new Map<string, HostingPlanRef>();
  PLAN_REFS.set(key, refs);
  const ref = refs.get(name) ?? { name, id };
  refs.set(name, ref);
  return ref;
}
const planRef = (plan: LiveHostingPlan): HostingPlanRef => sharedRef(plan, plan.name, plan.id);
const newPlanRef = (plans: HostingPlans, name: string): HostingPlanRef => sharedRef(plans, name, null);

/**
 * One row of the table: everything the stages need of one field (methods, so a row of any field
 * fits `ClientFieldRow<ClientField>`).
 */
export interface ClientFieldRow<K extends ClientField> {
  readonly key: K;
  readonly liveKey: T[K]['liveKey'];
  readonly changeKey: T[K]['changeKey'];
  readonly jsonKey: T[K]['jsonKey'];
  /** The panel's spellings of the field; the first is the one sent and named in messages. */
  readonly panel: readonly [string, ...string[]];
  /** The panel's value as read: what "none" reads back as, and what is a contract error. */
  readonly read: FieldReader<T[K]['live']>;
  /** The manifest's type of the value. */
  readonly type: 'string' | 'boolean';
  /** What a string value is, in the manifest's message `"key" in client "x" must be a string: <says>`. */
  readonly says: string;
  /** What the manifest's checks say of a value the schema accepted; undefined when nothing. */
  check(value: T[K]['wanted'], client: string): FieldProblem | undefined;
  /** What the panel is to hold for the manifest's value (a plan name resolved). */
  target(wanted: T[K]['wanted'], plans: HostingPlans): T[K]['target'];
  /** Whether the panel holds the target already. */
  same(live: T[K]['live'], target: T[K]['target']): boolean;
  /** The panel's value in the manifest's terms, as an update's `before` and the fingerprint show it. */
  before(live: T[K]['live'], plans: HostingPlans): T[K]['before'];
  after(target: T[K]['target']): T[K]['after'];
  /** The value a request carries under `panel[0]`. */
  /** The value a request carries under `panel[0]`; null for a plan the run creates (its id known after apply). */
  send(target: T[K]['target']): string | number | boolean | null;
  /** An update's target from its `after` (and the hosting plan it names, for `plan`). */
  targetOfUpdate(after: T[K]['after'], hostingPlan: HostingPlanRef | undefined, id: string): T[K]['target'];
  /** The target as the plan document held it, rebuilt. */
  fromJson(value: T[K]['target']): T[K]['target'];
  /** What the manifest can say of the panel's value (export). */
  view(live: T[K]['live'] | undefined, plans: HostingPlans): FieldView<T[K]['wanted']>;
  /**
   * Whether `provision export` writes the field at all: one it never writes is left out of new
   * entries, and its absence on the panel is not worth a warning (`export --into` keeps every
   * field a manifest gives up to date either way).
   */
  readonly exported: boolean;
  /** Whether export writes this value of an exported field (false where it is the default). */
  writes(value: T[K]['wanted']): boolean;
}

// Deliberately loose: catches slips (a missing "@", a space, no dot in the domain) without
// refusing addresses the panel would take.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** A string field read from the panel: "" or null is none. */
function textReader(what: string): FieldReader<string | null> {
  return (value) =>
    value === null || value === ''
      ? { value: null }
      : typeof value === 'string'
        ? { value }
        : { problem: `a string (${what}; "" or null: none)` };
}

/**
 * A string field the engine managed only lately (`language`): a value of another type is read
 * as unknown, never as a broken record, since a panel the engine read fine before may hold one
 * for clients no manifest manages. Managed, such a field is a note, never a change.
 */
function lenientTextReader(what: string): FieldReader<string | null> {
  const strict = textReader(what);
  return (value) => {
    const read = strict(value);
    return 'problem' in read ? { unreadable: read.problem } : read;
  };
}

const planReader: FieldReader<number | null> = (value) =>
  value === null || value === 0
    ? { value: null }
    : Number.isSafeInteger(value) && (value as number) > 0
      ? { value: value as number }
      : { problem: 'an integer (a plan id; 0 or null: none)' };

/** The view of a plain value: unknown, none, or the value. */
function plainView<V>(live: V | null | undefined): FieldView<V> {
  return live === undefined ? { kind: 'unknown' } : live === null ? { kind: 'none' } : { kind: 'value', value: live };
}

/** The parts of a row of a field whose value is itself in the panel and the manifest alike. */
function plain<K extends 'email' | 'suspended' | 'language'>(key: K) {
  return {
    key,
    liveKey: key,
    changeKey: key,
    jsonKey: key,
    target: (wanted: T[K]['wanted']): T[K]['target'] => wanted,
    same: (live: T[K]['live'], target: T[K]['target']): boolean => live === target,
    before: (live: T[K]['live']): T[K]['before'] => live,
    after: (target: T[K]['target']): T[K]['after'] => target,
    send: (target: T[K]['target']): string | boolean => target,
    targetOfUpdate: (after: T[K]['after']): T[K]['target'] => after,
    fromJson: (value: T[K]['target']): T[K]['target'] => value,
  };
}

const ROWS: { readonly [K in ClientField]: ClientFieldRow<K> } = {
  plan: {
    key: 'plan',
    liveKey: 'idHostingPlan',
    changeKey: 'hostingPlan',
    jsonKey: 'hosting_plan',
    panel: ['id_hosting_plan', 'hosting_plan_id'],
    read: planReader,
    type: 'string',
    says: "the hosting plan's name",
    check: (value, client) =>
      value.trim() === ''
        ? {
            severity: 'error',
            message:
              `"plan" in ${client} is empty: ` +
              `give a hosting plan's name, or remove "plan" for the panel's default resources`,
          }
        : undefined,
    target(wanted, plans) {
      const plan = plans.byName(wanted);
      if (plan === undefined && plans.creates?.(wanted) === true) return newPlanRef(plans, wanted);
      // The planner resolves every plan name before it compares (unknown_hosting_plan).
      if (plan === undefined) throw new Error(`hosting plan ${quote(wanted)} was not resolved`);
      return planRef(plan);
    },
    same: (live, target) => target.id !== null && live === target.id,
    before: (live, plans) => (live === null ? null : (plans.nameOf(live) ?? `#${live}`)),
    after: (target) => target.name,
    send: (target) => target.id,
    targetOfUpdate(_after, hostingPlan, id) {
      // diff sets hostingPlan with every plan field; the plan file's reader checks it.
      if (hostingPlan === undefined) throw new Error(`the update of ${id} changes the plan but names no hosting plan`);
      return hostingPlan;
    },
    fromJson: (value) => ({ name: value.name, id: value.id ?? null }),
    view(live, plans) {
      if (live === undefined) return { kind: 'unknown' };
      if (live === null) return { kind: 'none' };
      const name = plans.nameOf(live);
      const unwritable = (why: string): FieldView<string> => ({
        kind: 'unwritable',
        reason: `its hosting plan (id ${live}) ${why}`,
      });
      if (name === undefined) return unwritable("is not in the panel's list of hosting plans");
      if (name.trim() === '') return unwritable('has an empty name, which the manifest refuses');
      if (LONE_SURROGATE.test(name))
        return unwritable('has a name that is not valid Unicode, which a file cannot hold');
      return { kind: 'value', value: name };
    },
    exported: true,
    writes: () => true,
  },
  email: {
    ...plain('email'),
    panel: ['email'],
    read: textReader('an address'),
    type: 'string',
    says: 'an email address',
    check: (value, client) =>
      isManifestEmail(value)
        ? undefined
        : {
            severity: 'error',
            message: `email ${quote(value)} in ${client} is not an email address like name@example.com`,
          },
    view(live) {
      if (typeof live === 'string' && (!isManifestEmail(live) || LONE_SURROGATE.test(live)))
        return { kind: 'unwritable', reason: `its email ${quote(live)} is not an address the manifest accepts` };
      return plainView(live);
    },
    exported: true,
    writes: () => true,
  },
  suspended: {
    ...plain('suspended'),
    panel: ['is_suspended', 'suspended'],
    read: flagReader,
    type: 'boolean',
    says: 'true or false',
    check: () => undefined,
    view: (live) => plainView(live),
    // false is the default the manifest leaves unsaid.
    exported: true,
    writes: (value) => value,
  },
  language: {
    ...plain('language'),
    panel: ['language'],
    read: lenientTextReader('a language code'),
    type: 'string',
    says: 'a language code, like de or en',
    // A panel may hold codes it would not take from us: a warning, never a refusal.
    // An empty one is the schema's to refuse (minLength): no second word about it here.
    check: (value, client) =>
      value === '' || /^[a-z]{2}$/.test(value)
        ? undefined
        : {
            severity: 'warning',
            message:
              `language ${quote(value)} in ${client} is not an ISO 639-1 code like de or en: ` +
              'the panel may refuse it',
          },
    view: (live) =>
      typeof live === 'string' && LONE_SURROGATE.test(live)
        ? { kind: 'unwritable', reason: `its language ${quote(live)} is not valid Unicode, which a file cannot hold` }
        : plainView(live),
    // Every client has one (the panel's default at least): written, it would fill every entry.
    exported: false,
    writes: () => false,
  },
};

/** The rows, in the order updates list their fields and requests carry them. */
export const CLIENT_FIELDS: readonly ClientFieldRow<ClientField>[] = Object.values(ROWS);

/** The row of `field`. */
export function clientField<K extends ClientField>(field: K): ClientFieldRow<K> {
  return ROWS[field];
}

/** The fields `provision export` writes (and must know of every client it writes). */
export const EXPORTED_FIELDS: ReadonlySet<ClientField> = new Set(
  CLIENT_FIELDS.filter((row) => row.exported).map((row) => row.key),
);

/**
 * Whether the manifest accepts `email` as a client's address: the one test the manifest's
 * check makes (export asks it of each panel value before writing one).
 */
export function isManifestEmail(email: string): boolean {
  return EMAIL.test(email);
}

/** A row's value of a live client. */
export function liveValue<K extends ClientField>(
  row: ClientFieldRow<K>,
  fields: ClientLiveFields,
): T[K]['live'] | undefined {
  return (fields as Readonly<Record<string, unknown>>)[row.liveKey] as T[K]['live'] | undefined;
}

/** `"Basic"`, `true`, `(none)`: a field's value as data, a name quoted. */
export function printValue(value: string | boolean | null): string {
  return value === null ? '(none)' : typeof value === 'boolean' ? String(value) : quote(value);
}
