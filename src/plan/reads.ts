import { type Desired, NO_PRUNE } from '../manifest/types.js';
import type { Plan } from './types.js';
import { KIND_NAMES, KINDS, kindOf, type ReadAsk, SECTION_KINDS, type SectionKind } from '../kinds/index.js';
import type { ManifestAskView, RunAsk } from '../kinds/ask.js';
import { takesReadAgain } from './takes.js';
import { type ClientScope, clientScope } from '../names.js';
import { isRecord } from '../util.js';

/**
 * What a plan needs read from the panel (readLive's options, without the callbacks and bounds):
 * every kind's ask (src/kinds/index.ts ReadAsk, each kind's list read's `A`).
 */
export type PlanReads = ReadAsk;

/**
 * For planning a manifest: each kind's part (Kind.readsForManifest: the domains looked up one by
 * one on a panel without GET /domains, the clients' fields GET /clients must show, the zones the
 * manifest manages), and the list of each kind with a manifest section (Kind.section) only when
 * the manifest gives its key under a client the scope covers (or under one of its domains), or
 * prune names it. With `scope` (`--clients`), of the matching clients only; but when the scope
 * may delete a client, every domain the manifest lists is looked up, so that diff sees one the
 * delete would take (a conflict, as unscoped).
 */
export function readsForManifest(
  desired: Desired,
  scope?: ClientScope | readonly string[],
  sections: readonly SectionKind[] = SECTION_KINDS,
): PlanReads {
  const { covers } = clientScope(scope);
  const clients = desired.clients.filter((c) => covers(c.username));
  const view: ManifestAskView = {
    clients,
    all: desired.clients,
    deletes: desired.prune.clients || clients.some((c) => c.state === 'absent'),
  };
  const ask: Record<string, unknown> = {};
  for (const name of KIND_NAMES) {
    const part = KINDS[name].readsForManifest?.(view);
    if (part !== undefined) mergeAsk(ask, part);
  }
  for (const { name, section } of sections) {
    const listed = clients.some((client) =>
      section.parent === 'client'
        ? client.sections?.[name] !== undefined
        : client.domains.some((domain) => domain.sections?.[name] !== undefined),
    );
    if (listed || desired.prune.sections?.[name] === true) mergeAsk(ask, section.asks);
  }
  return ask as PlanReads;
}

/**
 * For checking a saved plan against the panel: what each change's kind reads again
 * (Kind.readsAgain: its domains and the parents its creates name, the zones it changes, the
 * fields a client's update compares), over what a manifest without clients asks.
 */
export function readsForSavedPlan(plan: Plan): PlanReads {
  const ask = readsForManifest({ file: '', clients: [], prune: NO_PRUNE }) as Record<string, unknown>;
  // A section kind's change is checked against its list, read again (its facts read it).
  const listAsks = new Map(SECTION_KINDS.map((kind) => [kind.name, kind.section.asks]));
  for (const change of plan.changes) {
    mergeAsk(ask, kindOf(change).readsAgain(change));
    // A delete's counts of what it takes are checked against the lists they were counted in.
    for (const part of takesReadAgain(change)) mergeAsk(ask, part);
    const listAsk = listAsks.get(change.type);
    if (listAsk !== undefined) mergeAsk(ask, listAsk);
  }
  return ask as PlanReads;
}

/**
 * Adds a part of the run's ask to `ask` (in place: a saved plan of many changes costs each part
 * once): lists joined in order, sets united, flags or'ed, objects merged key by key; a value of
 * another shape, the part's. What `ask` takes from a part is copied, never shared.
 */
export function mergeAsk(ask: Record<string, unknown>, part: RunAsk): Record<string, unknown> {
  for (const [key, value] of Object.entries(part)) {
    const held = ask[key];
    if (Array.isArray(held) && Array.isArray(value)) for (const item of value as unknown[]) held.push(item);
    else if (held instanceof Set && value instanceof Set) for (const item of value as Set<unknown>) held.add(item);
    else if (typeof held === 'boolean' && typeof value === 'boolean') ask[key] = held || value;
    else if (isRecord(held) && isRecord(value) && !(held instanceof Set)) mergeAsk(held, value);
    else ask[key] = copied(value);
  }
  return ask;
}

function copied(value: unknown): unknown {
  if (Array.isArray(value)) return [...(value as unknown[])];
  if (value instanceof Set) return new Set(value as Set<unknown>);
  if (isRecord(value)) return mergeAsk({}, value);
  return value;
}
