/**
 * Plans with DNS zones for the renderer tests (dns.test.ts, dns-markdown.test.ts): Desired built
 * inline with `dns`, Live with zones read from the panel's answers by parseZone, planned by diff.
 */
import { type DesiredZone, type LiveZone, parseZone } from '../../src/kinds/zone.js';
import type { Desired } from '../../src/manifest/types.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { expectedFacts, fingerprintOf } from '../../src/plan/fingerprint.js';
import type { Plan } from '../../src/plan/types.js';
import type { PlanView } from '../../src/render/common.js';
import { renderPlanText } from '../../src/render/text.js';
import { desired, live } from '../helpers/builders.js';

/** The panel's answer to GET /dns/{id}: an SOA, a DKIM record and `other` as given. */
export function answer(
  other: { host: string; type: string; value: string; ttl: number }[],
  flags: { is_custom_dns?: boolean } = {},
): unknown {
  return {
    is_custom_dns: flags.is_custom_dns ?? false,
    is_dns_disabled: false,
    dkim_record: 'v=DKIM1; k=rsa; p=MIIB',
    records: {
      soa: { ttl: 86400, primary_ns: 'ns1.panel.example.', rname: 'hostmaster.panel.example.' },
      other: other.map((r, i) => ({ id: i + 1, ...r })),
    },
  };
}

function zoneOf(domain: string, a: unknown): LiveZone {
  const read = parseZone(a, domain);
  if (!('zone' in read)) throw new Error(read.problem);
  return read.zone;
}

/** alice's domains, `dns` on those named in `zones`. */
export function wants(domains: string[], zones: Record<string, DesiredZone>): Desired {
  const d = desired({ alice: { domains } });
  return {
    ...d,
    clients: d.clients.map((c) => ({
      ...c,
      domains: c.domains.map((dom) => {
        const dns = zones[dom.name];
        return dns === undefined ? dom : { ...dom, dns };
      }),
    })),
  };
}

/** alice (7) with her domains (70, 71, ...), their zones as the panel answers them. */
export function panel(domains: string[], zones: Record<string, unknown>): Live {
  const l = live(
    [[7, 'alice']],
    domains.map((name, i) => [70 + i, name, 7] as [number, string, number]),
  );
  return { ...l, dns_zone: new Map(Object.entries(zones).map(([name, a]) => [name, zoneOf(name, a)])) };
}

export function viewOf(plan: Plan): PlanView {
  return {
    plan,
    panelUrl: 'https://panel.example.com/api/v2',
    manifest: 'manifest.yaml',
    showUnmanaged: false,
    notes: [],
    manifestSha256: 'a'.repeat(64),
    fingerprint: fingerprintOf(expectedFacts(plan)),
  };
}

export const rec = (host: string, type: string, value: string, ttl = 3600) => ({ host, type, value, ttl });

/** alice.example: an A record added, an SPF TTL changed, a TXT _old pruned. */
export function aliceZone(): PlanView {
  return viewOf(
    diff(
      wants(['alice.example'], {
        'alice.example': {
          records: [rec('@', 'A', '192.0.2.10'), rec('@', 'TXT', 'v=spf1 mx -all', 300)],
          prune: true,
          keep: [],
        },
      }),
      panel(['alice.example'], {
        'alice.example': answer([
          rec('@', 'NS', 'ns1.panel.example.', 86400),
          rec('@', 'TXT', 'v=spf1 mx -all', 3600),
          rec('_old', 'TXT', 'old value', 3600),
        ]),
      }),
    ),
  );
}

/** new.example, not on the panel: two records, prune, keep `_acme-challenge*`. */
export function newDomainZone(): PlanView {
  return viewOf(
    diff(
      wants(['new.example'], {
        'new.example': {
          records: [rec('@', 'A', '192.0.2.10'), rec('@', 'MX', '10 mail.new.example.')],
          prune: true,
          keep: ['_acme-challenge*'],
        },
      }),
      panel([], {}),
    ),
  );
}

/** A zone whose records hold what a panel may hold: quotes, newlines, escapes, Markdown, HTML, a fence. */
export const HOSTILE = [
  'say "hi" \\ there',
  'two\nlines\r\n',
  'esc \u001b[31mred\u001b[0m bell \u0007',
  'bidi \u202eevil\u202c zero\u200bwidth',
  '**bold** _x_ [link](https://evil.example) | cell',
  '<img src=x onerror=alert(1)><script>alert(2)</script>',
  '```\n# not a heading\n```',
];
export function hostileZone(): PlanView {
  return viewOf(
    diff(
      wants(['alice.example'], {
        'alice.example': { records: [rec('@', 'A', '192.0.2.10')], prune: true, keep: [] },
      }),
      panel(['alice.example'], {
        'alice.example': answer([
          ...HOSTILE.map((v, i) => rec(`h${i}`, 'TXT', v)),
          rec('a b (ttl 1)', 'TXT', 'host with spaces'),
          rec('@', 'X"Y', 'odd type'),
        ]),
      }),
    ),
  );
}

/** alice.example with 200 records on the panel, one added. */
export function bigZone(): PlanView {
  const many = Array.from({ length: 200 }, (_, i) => rec(`h${i}`, 'A', `192.0.2.${i % 250}`));
  return viewOf(
    diff(
      wants(['alice.example'], {
        'alice.example': { records: [rec('@', 'A', '192.0.2.10')], prune: false, keep: [] },
      }),
      panel(['alice.example'], { 'alice.example': answer(many) }),
    ),
  );
}

export const text = (view: PlanView): string => renderPlanText(view, { color: false });
export const lines = (t: string): string[] => t.split('\n');
