/**
 * What a saved plan's fingerprint covers for a zone's changes (plan/fingerprint.ts gathers the
 * facts of every change and hashes them). Pure.
 */
import { quote } from '../../escape.js';
import type { LiveDomain } from '../domain/record.js';
import { type Fact, idFact, valueOf } from '../facts.js';
import type { UpdateZone } from './changes.js';
import type { LiveZone } from './record.js';

/** The live panel as a zone's facts look it up. */
export interface ZoneFactIndex {
  readonly domains: ReadonlyMap<string, LiveDomain>;
  /** The zones read, by domain name. */
  readonly zones: ReadonlyMap<string, LiveZone>;
}

/**
 * The facts a zone's change depends on: for an existing domain, `zone-of:<name>` (the domain, by
 * id) and `dns-zone:<name>`, the digest of the zone as read: a record added, removed or changed
 * since the plan (an ACME hook, a person in the panel) makes it stale. A new domain's zone
 * depends on what its domain's create does (the domain is absent).
 */
export function zoneFacts(change: UpdateZone): Fact<ZoneFactIndex>[] {
  const { name, domainId, zoneDigest } = change;
  if (domainId === null || zoneDigest === null) return [];
  return [
    {
      topic: 'zone-of',
      subject: name,
      expected: idFact(domainId),
      actual: (live) => idFact(live.domains.get(name)?.id),
      reason: (actual) =>
        actual === 'absent'
          ? `domain ${quote(name)}, whose zone the plan changes, is no longer on the panel`
          : `domain ${quote(name)} now has id ${valueOf(actual)}; the plan changes the zone of id ${domainId}`,
    },
    {
      topic: 'dns-zone',
      subject: name,
      expected: zoneDigest,
      actual: (live) => live.zones.get(name)?.digest ?? 'unread',
      reason: (actual) =>
        actual === 'unread'
          ? `the zone of ${quote(name)} could not be read again`
          : `the zone of ${quote(name)} changed on the panel since the plan was made: the plan would overwrite that change`,
    },
  ];
}
