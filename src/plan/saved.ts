import { ProvisionError } from '../errors.js';
import type { Live } from '../panel/types.js';
import { requestFor } from './requests.js';
import type { Change, ChangeId, Conflict, CreateClient, CreateDomain, Drift, Plan } from './types.js';
import { sha256Hex } from '../util.js';

/**
 * The plan file's format, "major.minor". A reader accepts any minor of its own major (newer
 * minors only add fields) and refuses a newer major. 1.1 added `manifest_sha256` and
 * `fingerprint`; a 1.0 file has no fingerprint and cannot be applied.
 */
export const PLAN_FORMAT_VERSION = '1.1';
const SUPPORTED_MAJOR = 1;

/** What a saved plan records beside the plan itself. */
export interface PlanMeta {
  /** The panel's API base URL the plan was made against; apply refuses another. */
  readonly panelUrl: string;
  /** The manifest's path as the user gave it (for people; never opened by apply). */
  readonly manifest: string;
  /** sha256 (hex) of the manifest file's bytes. */
  readonly manifestSha256: string;
  /** `sha256:<hex>` over exactly the panel facts the plan depends on (see dependencyFacts). */
  readonly fingerprint: string;
}

/** A plan file read back: the Plan the executor needs, and its meta. */
export interface SavedPlan extends PlanMeta {
  readonly formatVersion: string;
  readonly plan: Plan;
}

/**
 * The panel facts a plan depends on, as `key -> value`, read from `live`:
 * - `client:<name>` per client it creates: `absent`, or `id:<n>` when it exists;
 * - `domain:<name>` per domain it creates: `absent`, or `owner:<id>` when it exists;
 * - `owner:<name>` per existing client its domains are created for: `id:<n>`, or `absent`;
 * - `hosting-plan:<name>` per hosting plan it resolved: `id:<n>`, or `absent`.
 * Nothing else: accounts the plan neither creates nor references do not make it stale.
 */
export function dependencyFacts(plan: Plan, live: Live): Map<string, string> {
  const clients = new Map(live.clients.map((c) => [c.username, c.id]));
  const domains = new Map(live.domains.map((d) => [d.name, d.idUser]));
  const plans = new Map(live.plans.map((p) => [p.name, p.id]));
  const id = (n: number | undefined): string => (n === undefined ? 'absent' : `id:${n}`);
  const facts = new Map<string, string>();
  for (const change of plan.changes) {
    if (change.type === 'client') {
      facts.set(`client:${change.name}`, id(clients.get(change.name)));
      if (change.hostingPlan !== undefined) facts.set(`hosting-plan:${change.hostingPlan.name}`, id(plans.get(change.hostingPlan.name)));
    } else {
      const owner = domains.get(change.name);
      facts.set(`domain:${change.name}`, owner === undefined ? 'absent' : `owner:${owner}`);
      if (change.clientId !== null) facts.set(`owner:${change.client}`, id(clients.get(change.client)));
    }
  }
  return facts;
}

/** The facts as the plan itself says they were when it was made. */
export function expectedFacts(plan: Plan): Map<string, string> {
  const facts = new Map<string, string>();
  for (const change of plan.changes) {
    facts.set(`${change.type}:${change.name}`, 'absent');
    if (change.type === 'client') {
      if (change.hostingPlan !== undefined) facts.set(`hosting-plan:${change.hostingPlan.name}`, `id:${change.hostingPlan.id}`);
    } else if (change.clientId !== null) {
      facts.set(`owner:${change.client}`, `id:${change.clientId}`);
    }
  }
  return facts;
}

/** `sha256:<hex>` over the facts in key order: the same facts give the same fingerprint. */
export function fingerprintOf(facts: ReadonlyMap<string, string>): string {
  const entries = [...facts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `sha256:${sha256Hex(JSON.stringify(entries))}`;
}

/**
 * `sha256:<hex>` over the plan's own content (its changes as written to the file, and its
 * conflicts), so a plan file edited after it was made (an email changed in both places, a
 * dependency dropped, the conflicts deleted) is refused. It catches edits, not forgery:
 * anyone can recompute a sha256; the review that counts is of the manifest and the plan.
 */
export function planDigest(plan: Pick<Plan, 'changes' | 'conflicts'>): string {
  return `sha256:${sha256Hex(canonical({ changes: plan.changes.map(changeToJson), conflicts: plan.conflicts }))}`;
}

/** The fingerprint of the live state `plan` was (or is to be) applied against. */
export function planFingerprint(plan: Plan, live: Live): string {
  return fingerprintOf(dependencyFacts(plan, live));
}

/** One sentence per fact that differs between what the plan expects and `live`; empty: not stale. */
export function staleReasons(plan: Plan, live: Live): string[] {
  const now = dependencyFacts(plan, live);
  const usernames = new Map(live.clients.map((c) => [c.id, c.username]));
  const reasons: string[] = [];
  for (const [key, expected] of expectedFacts(plan)) {
    const actual = now.get(key) ?? 'absent';
    if (actual === expected) continue;
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const name = key.slice(colon + 1);
    const value = actual.slice(actual.indexOf(':') + 1);
    if (kind === 'client') reasons.push(`client "${name}" now exists on the panel (id ${value}); the plan would create it`);
    else if (kind === 'domain') {
      const owner = usernames.get(Number(value));
      reasons.push(`domain "${name}" now exists on the panel (${owner === undefined ? `client id ${value}` : `client "${owner}"`}); the plan would create it`);
    } else if (kind === 'owner') {
      reasons.push(actual === 'absent'
        ? `client "${name}" (${expected.replace(':', ' ')}), which the plan adds domains to, is no longer on the panel`
        : `client "${name}" now has id ${value}; the plan says ${expected.slice(3)}`);
    } else {
      reasons.push(actual === 'absent'
        ? `hosting plan "${name}" is no longer on the panel`
        : `hosting plan "${name}" now has id ${value}; the plan says ${expected.slice(3)}`);
    }
  }
  return reasons;
}

/** One change in the plan JSON contract (snake_case), with the request it becomes. */
export function changeToJson(change: Change): Record<string, unknown> {
  const common = { id: change.id, action: change.action, type: change.type, name: change.name };
  const rest =
    change.type === 'client'
      ? { ...(change.hostingPlan === undefined ? {} : { hosting_plan: change.hostingPlan }), ...(change.email === undefined ? {} : { email: change.email }) }
      : { client: change.client, client_id: change.clientId, ...(change.parent === undefined ? {} : { parent: change.parent }) };
  return { ...common, ...rest, reason: change.reason, depends_on: change.dependsOn, request: requestFor(change) };
}

/** JSON with object keys sorted, so a file reformatted by another tool compares equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

const USERNAME = /^[a-z][a-z0-9_-]*$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9_-]+(\.[a-z0-9_-]+)+$/;

type Json = Record<string, unknown>;

/** Collects every problem of a plan file with its JSON path, instead of stopping at the first. */
class Checker {
  readonly problems: string[] = [];

  fail(path: string, message: string): void {
    this.problems.push(`${path}: ${message}`);
  }
  object(value: unknown, path: string): Json | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Json;
    this.fail(path, 'must be an object');
    return undefined;
  }
  array(value: unknown, path: string): unknown[] | undefined {
    if (Array.isArray(value)) return value as unknown[];
    this.fail(path, 'must be a list');
    return undefined;
  }
  string(value: unknown, path: string, pattern?: RegExp, what?: string): string | undefined {
    if (typeof value !== 'string') this.fail(path, 'must be a string');
    else if (pattern !== undefined && !pattern.test(value)) this.fail(path, `${JSON.stringify(value)} is not ${what ?? 'valid'}`);
    else return value;
    return undefined;
  }
  integer(value: unknown, path: string): number | undefined {
    if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
    this.fail(path, 'must be a whole number');
    return undefined;
  }
}

/**
 * Reads a plan file (text, as written by `plan --out`) back into the Plan the executor needs.
 * Validates everything: the format version (a newer major is refused), the fields, that each
 * change's id, dependencies (earlier in the file) and request agree, and that the fingerprint
 * matches the changes (an edited plan is refused). Throws ProvisionError 'plan_file' listing
 * every problem; never anything else, whatever the text.
 */
export function parsePlanFile(text: string, source: string): SavedPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProvisionError('plan_file', `${source} is not valid JSON (${(error as Error).message}): a truncated or damaged plan file`, {
      hint: 'make the plan again with provision plan <manifest> --out FILE',
    });
  }
  const check = new Checker();
  const root = check.object(data, '$');
  if (root === undefined) throw planFileError(source, check.problems);
  const version = check.string(root.format_version, 'format_version', /^\d+\.\d+$/, 'a "major.minor" version');
  if (version !== undefined) {
    const major = Number(version.split('.')[0]);
    if (major > SUPPORTED_MAJOR) {
      throw new ProvisionError('plan_file', `${source} has plan format ${version}, newer than this version of provision reads (${SUPPORTED_MAJOR}.x)`, {
        hint: 'apply it with the version of provision that made it, or make the plan again with this one',
      });
    }
    if (major < SUPPORTED_MAJOR) check.fail('format_version', `${version} is not supported`);
    else if (root.fingerprint === undefined) {
      throw new ProvisionError('plan_file', `${source} has no fingerprint (plan format ${version}): it cannot be checked against the panel`, {
        hint: 'make the plan again with this version: provision plan <manifest> --out FILE',
      });
    }
  }
  const panelUrl = check.string(root.panel_url, 'panel_url');
  const manifest = check.string(root.manifest, 'manifest');
  const manifestSha256 = check.string(root.manifest_sha256, 'manifest_sha256', /^[0-9a-f]{64}$/, 'a sha256 in hex');
  const fingerprint = check.string(root.fingerprint, 'fingerprint', /^sha256:[0-9a-f]{64}$/, 'a "sha256:<hex>" fingerprint');
  const digest = check.string(root.plan_sha256, 'plan_sha256', /^sha256:[0-9a-f]{64}$/, 'a "sha256:<hex>" digest');
  const changes = readChanges(check, root.changes);
  const conflicts = readList(check, root.conflicts, 'conflicts', ['domain', 'client', 'owner'] as const) as Conflict[];
  const drift = readList(check, root.drift, 'drift', ['client', 'expected', 'actual'] as const) as Drift[];
  const unmanaged = readUnmanaged(check, root.unmanaged);

  if (
    check.problems.length > 0 ||
    version === undefined ||
    panelUrl === undefined ||
    manifest === undefined ||
    manifestSha256 === undefined ||
    fingerprint === undefined ||
    digest === undefined
  ) {
    throw planFileError(source, check.problems);
  }
  const plan: Plan = { changes, conflicts, drift, unmanaged };
  for (const [name, ok] of [
    ['fingerprint', fingerprintOf(expectedFacts(plan)) === fingerprint],
    ['digest (plan_sha256)', planDigest(plan) === digest],
  ] as const) {
    if (!ok) {
      throw new ProvisionError('plan_file', `${source}: the ${name} does not match the plan's changes: the file was edited after it was made`, {
        hint: 'make the plan again: provision plan <manifest> --out FILE',
      });
    }
  }
  return { formatVersion: version, panelUrl, manifest, manifestSha256, fingerprint, plan };
}

function planFileError(source: string, problems: readonly string[]): ProvisionError {
  const shown = problems.slice(0, 20);
  if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more`);
  return new ProvisionError('plan_file', `${source} is not a valid plan file (${problems.length} problem${problems.length === 1 ? '' : 's'})`, {
    details: shown,
    hint: 'plan files are written by provision plan --out and are not meant to be edited: make the plan again',
  });
}

function readChanges(check: Checker, value: unknown): Change[] {
  const list = check.array(value, 'changes') ?? [];
  const changes: Change[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const path = `changes[${i}]`;
    const before = check.problems.length;
    const change = readChange(check, item, path);
    if (change === undefined || check.problems.length > before) return;
    if (seen.has(change.id)) {
      check.fail(`${path}.id`, `"${change.id}" appears twice`);
      return;
    }
    for (const dep of change.dependsOn) if (!seen.has(dep)) check.fail(`${path}.depends_on`, `"${dep}" is not a change listed before this one`);
    if (change.type === 'domain') {
      if (change.clientId === null && !change.dependsOn.includes(`client:${change.client}`)) {
        check.fail(`${path}.client_id`, `null, yet the change does not depend on "client:${change.client}"`);
      }
      if (change.parent !== undefined && !change.dependsOn.includes(`domain:${change.parent}`)) {
        check.fail(`${path}.parent`, `"${change.parent}", yet the change does not depend on "domain:${change.parent}"`);
      }
    }
    const request = (item as Json).request;
    if (canonical(request) !== canonical(requestFor(change))) check.fail(`${path}.request`, 'does not match the change: the file was edited');
    seen.add(change.id);
    changes.push(change);
  });
  return changes;
}

function readChange(check: Checker, item: unknown, path: string): Change | undefined {
  const c = check.object(item, path);
  if (c === undefined) return undefined;
  if (c.action !== 'create') {
    check.fail(`${path}.action`, `${JSON.stringify(c.action)} is not an action this version applies ("create")`);
    return undefined;
  }
  const reason = check.string(c.reason, `${path}.reason`);
  const deps = check.array(c.depends_on, `${path}.depends_on`)?.map((d, j) => check.string(d, `${path}.depends_on[${j}]`, /^(client|domain):./, 'a change id'));
  const dependsOn = (deps ?? []).filter((d): d is string => d !== undefined) as ChangeId[];
  if (reason === undefined || deps === undefined) return undefined;
  if (c.type === 'client') {
    const name = check.string(c.name, `${path}.name`, USERNAME, 'a valid username');
    if (name === undefined) return undefined;
    if (c.id !== `client:${name}`) {
      check.fail(`${path}.id`, `must be "client:${name}"`);
      return undefined;
    }
    let hostingPlan: CreateClient['hostingPlan'];
    if (c.hosting_plan !== undefined) {
      const p = check.object(c.hosting_plan, `${path}.hosting_plan`);
      const planName = check.string(p?.name, `${path}.hosting_plan.name`);
      const planId = check.integer(p?.id, `${path}.hosting_plan.id`);
      if (planName === undefined || planId === undefined) return undefined;
      hostingPlan = { name: planName, id: planId };
    }
    const email = c.email === undefined ? undefined : check.string(c.email, `${path}.email`);
    if (c.email !== undefined && email === undefined) return undefined;
    const change: CreateClient = {
      id: `client:${name}`,
      action: 'create',
      type: 'client',
      name,
      reason,
      dependsOn,
      ...(hostingPlan === undefined ? {} : { hostingPlan }),
      ...(email === undefined ? {} : { email }),
    };
    return change;
  }
  if (c.type === 'domain') {
    const name = check.string(c.name, `${path}.name`, DOMAIN, 'a lowercase ASCII domain name');
    const client = check.string(c.client, `${path}.client`, USERNAME, 'a valid username');
    const clientId = c.client_id === null ? null : check.integer(c.client_id, `${path}.client_id`);
    const parent = c.parent === undefined ? undefined : check.string(c.parent, `${path}.parent`, DOMAIN, 'a lowercase ASCII domain name');
    if (name === undefined || client === undefined || clientId === undefined || (c.parent !== undefined && parent === undefined)) return undefined;
    if (c.id !== `domain:${name}`) {
      check.fail(`${path}.id`, `must be "domain:${name}"`);
      return undefined;
    }
    const change: CreateDomain = {
      id: `domain:${name}`,
      action: 'create',
      type: 'domain',
      name,
      client,
      clientId,
      reason,
      dependsOn,
      ...(parent === undefined ? {} : { parent }),
    };
    return change;
  }
  check.fail(`${path}.type`, 'must be "client" or "domain"');
  return undefined;
}

function readList<K extends string>(check: Checker, value: unknown, path: string, keys: readonly K[]): Record<K, string>[] {
  const list = check.array(value, path) ?? [];
  const out: Record<K, string>[] = [];
  list.forEach((item, i) => {
    const o = check.object(item, `${path}[${i}]`);
    if (o === undefined) return;
    const entry = {} as Record<K, string>;
    for (const key of keys) {
      const v = check.string(o[key], `${path}[${i}].${key}`);
      if (v !== undefined) entry[key] = v;
    }
    out.push(entry);
  });
  return out;
}

function readUnmanaged(check: Checker, value: unknown): Plan['unmanaged'] {
  const u = check.object(value, 'unmanaged');
  if (u === undefined) return { clients: [], domains: [] };
  check.integer(u.clients, 'unmanaged.clients');
  if (u.domains !== null) check.integer(u.domains, 'unmanaged.domains');
  const names = (v: unknown, path: string): string[] => (check.array(v, path) ?? []).filter((n, i): n is string => check.string(n, `${path}[${i}]`) !== undefined);
  // Names are in the file only when the plan was made with --show-unmanaged; apply does not need them.
  return {
    clients: u.client_names === undefined ? [] : names(u.client_names, 'unmanaged.client_names'),
    domains: u.domains === null ? undefined : u.domain_names === undefined || u.domain_names === null ? [] : names(u.domain_names, 'unmanaged.domain_names'),
  };
}
