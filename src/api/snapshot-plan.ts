/** Planning against a snapshot (api/prepare.ts planSnapshot): what it lacks, its email digests, its notes. */
import { quote } from '../escape.js';
import type { Desired } from '../manifest/types.js';
import { readsForManifest } from '../plan/reads.js';
import type { Plan } from '../plan/types.js';
import { fieldsLacking, managedFields } from '../kinds/client/index.js';
import { KINDS, kindOf } from '../kinds/index.js';
import { READ_ORDER, readOf } from '../kinds/reads.js';
import type { ClientScope } from '../names.js';
import { plural } from '../util.js';
import { DIGEST_SHOWN, emailDigest, type Snapshot } from './snapshot-format.js';
import { liveClients, liveDomains, liveDomainsComplete } from '../kinds/index.js';

/**
 * What planning `desired` needs that the snapshot did not read, one sentence each; empty when
 * it holds everything a live plan would read: a kind the plan's ask needs (Kind.read `needed`)
 * whose list the snapshot did not read, a domain looked up by name (a panel without a
 * domain list), a managed client field its record lacks and was not read one by one, a DNS zone
 * of a domain on the panel. Of the clients `scope` (`--clients`, compiled once) covers only.
 */
export function snapshotGaps(snapshot: Snapshot, desired: Desired, scope: ClientScope): string[] {
  const { live, reads } = snapshot;
  const needs = readsForManifest(desired, scope);
  const gaps: string[] = kindsNotRead(snapshot, needs);
  if (!liveDomainsComplete(live)) {
    const looked = new Set(reads.domainNames);
    for (const name of new Set(needs.domainNames))
      if (!looked.has(name)) gaps.push(`domain ${quote(name)}: not looked up (the panel has no domain list)`);
  }
  const clients = new Map(liveClients(live).map((c) => [c.username, c]));
  const detailed = new Set(reads.clientDetails.usernames);
  const fieldsRead = new Set(reads.clientDetails.fields);
  for (const wanted of desired.clients) {
    if (!scope.covers(wanted.username)) continue;
    const client = clients.get(wanted.username.toLowerCase());
    if (client === undefined) continue;
    const lacking = fieldsLacking(client, new Set(managedFields(wanted)));
    const unread = lacking.filter((f) => !(detailed.has(client.username) && fieldsRead.has(f)));
    if (unread.length > 0)
      gaps.push(
        `client ${quote(client.username)}: ${unread.join(', ')} (GET /clients leaves it out; not read one by one)`,
      );
  }
  const domains = new Map(liveDomains(live).map((d) => [d.name, d]));
  const asked = new Set(reads.zones);
  for (const name of new Set(needs.zones ?? [])) {
    const domain = domains.get(name);
    if (domain === undefined || domain.isSubdomain === true || asked.has(name)) continue;
    gaps.push(`the DNS zone of ${quote(name)}: not read`);
  }
  return gaps;
}

/**
 * The kinds the plan's ask needs (`ask`: readsForManifest) that the snapshot did not read, one
 * sentence each: planned against, such a kind would look empty, and the plan would create every
 * one the manifest lists.
 */
function kindsNotRead(snapshot: Snapshot, ask: ReturnType<typeof readsForManifest>): string[] {
  return READ_ORDER.flatMap((name) => {
    const reading = snapshot.reads.kinds[name];
    if (reading.read || !readOf(name).needed(ask)) return [];
    return [`${KINDS[name].noun.many}: not read (${reading.reason}), and the manifest needs them`];
  });
}

/** The manifest with each client's email as its digest, as a digest snapshot holds them. */
export function withEmailDigests(desired: Desired): Desired {
  return {
    ...desired,
    clients: desired.clients.map((c) => (c.email === undefined ? c : { ...c, email: emailDigest(c.email) })),
  };
}

/**
 * The plan of the hashed manifest with the manifest's addresses given back: what a create
 * sends and an update's `after`; an update's `before` (the panel's address, of which the
 * snapshot holds only the digest) as DIGEST_SHOWN.
 */
export function withEmailsRestored(plan: Plan, desired: Desired): Plan {
  const addresses = new Map(desired.clients.map((c) => [c.username.toLowerCase(), c.email]));
  const address = (name: string, digest: string): string => addresses.get(name) ?? digest;
  return {
    ...plan,
    changes: plan.changes.map(
      (change) => kindOf(change).emailDigests?.restored(change, address, DIGEST_SHOWN) ?? change,
    ),
  };
}

/** The clients whose email the plan updates from a digest: a saved plan of them would be stale at apply. */
export function digestUpdates(plan: Plan): string[] {
  return plan.changes.flatMap((c) => (kindOf(c).emailDigests?.fromDigest(c, DIGEST_SHOWN) === true ? [c.name] : []));
}

/** The note a plan from a snapshot carries: which snapshot, and its age at `now`. */
export function snapshotNote(snapshot: Snapshot, file: string, now: Date): string {
  const age = now.getTime() - Date.parse(snapshot.takenAt);
  const ago = age < 0 ? '' : ` (${ageText(age)} ago)`;
  return (
    `Planned against the snapshot ${file} taken at ${snapshot.takenAt}${ago}, not the panel itself: ` +
    'nothing was sent; apply reads the panel again' +
    (snapshot.emails === 'digest' ? `; emails are compared by digest, the panel's shown as ${DIGEST_SHOWN}.` : '.')
  );
}

/**
 * A warning for a snapshot dated later than `now` by more than a minute (clocks may differ that
 * much): its age is unknown, a wrong clock where it was taken or an edited file.
 */
export function snapshotFromFuture(snapshot: Snapshot, file: string, now: Date): string | undefined {
  const ahead = Date.parse(snapshot.takenAt) - now.getTime();
  if (!(ahead > 60_000)) return undefined;
  return (
    `the snapshot ${file} says it was taken at ${snapshot.takenAt}, ${ageText(ahead)} from now: its age is ` +
    'unknown (a wrong clock where it was taken, or an edited file); check that clock and take it again'
  );
}

function ageText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}
