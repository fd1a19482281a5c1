/**
 * Zones for the export tests of DNS: a panel (builders.ts live) with zones as GET /dns/{id}
 * answers them, read as the panel client reads them (parseZone).
 */
import { type LiveZone, parseZone } from '../../src/kinds/zone.js';
import type { Live } from '../../src/panel/types.js';
import { live } from '../helpers/builders.js';

/** A record as `[host, type, value, ttl?]` (ttl 3600 when left out). */
export type Rec = [string, string, string, (number | string)?];

/** A zone's answer: `records` as `Rec`s, custom unless said; `extra` merged into the answer. */
export function zone(
  name: string,
  records: Rec[],
  flags: { custom?: boolean | null; disabled?: boolean } = {},
): LiveZone {
  const answer: Record<string, unknown> = {
    is_dns_disabled: flags.disabled ?? false,
    dkim_record: 'v=DKIM1; k=rsa; p=KEY',
    records: {
      soa: { ttl: 86400, primary_ns: 'ns1.example.', rname: 'hostmaster.example.' },
      other: records.map(([host, type, value, ttl]) => ({ host, ttl: ttl ?? 3600, type, value })),
    },
  };
  if (flags.custom !== null) answer.is_custom_dns = flags.custom ?? true;
  const read = parseZone(answer, name);
  if (!('zone' in read)) throw new Error(read.problem);
  return read.zone;
}

/**
 * alice (id 1) and bob (id 2) with `domains` as `[name, owner id, zone?, isSubdomain?]`; a
 * domain's zone is in `zones` when given (as export --with dns reads them).
 */
export function panelWithZones(domains: [string, number, (LiveZone | undefined)?, boolean?][]): Live {
  const base = live(
    [
      [1, 'alice', null, { email: null, suspended: false }],
      [2, 'bob', null, { email: null, suspended: false }],
    ],
    domains.map(([name, owner], i) => [i + 1, name, owner, false]),
  );
  return {
    ...base,
    domain: {
      ...base.domain,
      records: base.domain.records.map((d, i) => {
        const sub = domains[i]?.[3];
        return sub === undefined ? d : { ...d, isSubdomain: sub };
      }),
    },
    dns_zone: new Map(domains.flatMap(([name, , z]) => (z === undefined ? [] : [[name, z] as const]))),
  };
}
