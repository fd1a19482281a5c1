/**
 * A zone's change in the pull-request comment: grouped by domain under its client, record lines
 * in their own signs with removals first, the summary counting zones to update and the records
 * removed beside the deletes; a saved plan read back renders the same; apply's outcome for a zone.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { parsePlanFile } from '../../src/plan/saved.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderOutcomeLine } from '../../src/render/outcome.js';
import {
  aliceZone,
  answer,
  bigZone,
  hostileZone,
  lines,
  newDomainZone,
  panel,
  rec,
  text,
  viewOf,
  wants,
} from './zone-fixtures.js';

describe('a zone in Markdown', () => {
  it('counts zones to update and records to remove beside the deletes, each removed record listed', () => {
    const md = renderPlanMarkdown(aliceZone());
    expect(md).toContain('### panel-provision plan: 1 to update (1 zone), 1 DNS record to remove\n');
    expect(md).toContain('| :warning: **DNS records to remove** | **1** |\n| zones to update | 1 |\n');
    expect(md).toContain(
      '**DNS records to remove**: 1 record leaves its zone.\n\n- :x: dns "alice.example": TXT &#95;old "old value" (ttl 3600)\n',
    );
  });

  it("lists a zone's records under its domain, removals first, each line in its own sign", () => {
    const md = renderPlanMarkdown(aliceZone());
    expect(md).toContain(
      '```diff\n' +
        '# dns "alice.example": the zone becomes custom: the panel stops regenerating its default records\n' +
        '~ dns "alice.example":\n' +
        '-     TXT _old "old value" (ttl 3600)\n' +
        '~     TXT @ "v=spf1 mx -all": ttl 3600 -> 300\n' +
        '+     A @ 192.0.2.10 (ttl 3600)\n' +
        "~ PUT /dns/70 (the zone's 3 records after the change, its SOA and DKIM record as read)\n" +
        '```',
    );
  });

  it("puts a zone right after its domain's own change, in whatever order the plan holds them", () => {
    const planned = diff(
      wants(['a.example', 'b.example'], {
        'a.example': { records: [rec('@', 'A', '192.0.2.10')], prune: false, keep: [] },
        'b.example': { records: [rec('@', 'A', '192.0.2.11')], prune: false, keep: [] },
      }),
      panel([], {}),
    );
    // Domains first, then zones: a plan file may hold them so.
    const changes = [...planned.changes].sort((a, b) => Number(a.type === 'dns_zone') - Number(b.type === 'dns_zone'));
    const view = viewOf({ ...planned, changes });
    const grouped = [
      '+ POST /domains',
      '~ dns "a.example":',
      '~ PUT /dns/{id}',
      '+ POST /domains',
      '~ dns "b.example":',
      '~ PUT /dns/{id}',
    ];
    const shown = (out: string, prefix: RegExp): string[] =>
      lines(out)
        .filter((l) => prefix.test(l))
        .map((l) => l.trim().replace(/ \{.*| \(.*|(:) .*/, '$1'));
    expect(shown(renderPlanMarkdown(view), /^[-+~] (dns|POST|PUT)/)).toEqual(grouped);
    // Text keeps the plan's order.
    expect(shown(text(view), /^ {2}[-+~] (dns|POST|PUT)/)).toEqual([
      '+ POST /domains',
      '+ POST /domains',
      '~ dns "a.example":',
      '~ PUT /dns/{id}',
      '~ dns "b.example":',
      '~ PUT /dns/{id}',
    ]);
  });

  it("says a new domain's pruned defaults in the table, the list and the fence", () => {
    const md = renderPlanMarkdown(newDomainZone());
    expect(md).toContain('| :warning: **DNS records to remove** | **0** and the defaults of 1 new zone |');
    expect(md).toContain(
      '- :x: dns "new.example": the default records the panel fills in, except keep matches (known after apply)',
    );
    expect(md).toContain('# dns "new.example": its records are written after the domain\'s POST; the default records');
  });

  it('shows at most 100 record lines of a zone, removals first', () => {
    const many = Array.from({ length: 150 }, (_, i) => rec(`h${i}`, 'A', '192.0.2.1'));
    const view = viewOf(
      diff(
        wants(['alice.example'], {
          'alice.example': {
            records: Array.from({ length: 20 }, (_, i) => rec(`n${i}`, 'A', '192.0.2.2')),
            prune: true,
            keep: [],
          },
        }),
        panel(['alice.example'], { 'alice.example': answer(many) }),
      ),
    );
    const md = renderPlanMarkdown(view);
    const records = lines(md).filter((l) => /^[-+~] {5}/.test(l));
    expect(records).toHaveLength(101);
    expect(records.slice(0, 100).every((l) => l.startsWith('-     A h'))).toBe(true);
    expect(records[100]).toBe('~     … and 70 more record changes (run provision plan for all of them)');
    expect(md).toContain('| :warning: **DNS records to remove** | **150** |');
    // Text says them all.
    expect(lines(text(view)).filter((l) => /^ {2}[-+] {5}A /.test(l))).toHaveLength(170);
  });
});

describe('a saved plan read back', () => {
  it('renders the same text, Markdown and JSON', () => {
    for (const view of [aliceZone(), hostileZone(), newDomainZone(), bigZone()]) {
      const saved = parsePlanFile(renderPlanJson(view), 'plan.json');
      expect(text(saved)).toBe(text(view));
      expect(renderPlanMarkdown(saved)).toBe(renderPlanMarkdown(view));
      expect(renderPlanJson(saved)).toBe(renderPlanJson(view));
    }
  });
});

describe("apply's outcome for a zone", () => {
  it('says what the records did', () => {
    const change = aliceZone().plan.changes[0];
    if (change === undefined) throw new Error('no change');
    expect(renderOutcomeLine({ change, status: 'succeeded', id: 70 }, { color: false })).toBe(
      '✓ updated dns "alice.example" of client "alice" (id 70): 1 record added, 1 TTL changed, 1 removed',
    );
    expect(renderOutcomeLine({ change, status: 'failed', error: 'the zone changed' }, { color: false })).toBe(
      '✗ failed to update dns "alice.example" of client "alice": the zone changed',
    );
  });

  it("says a new domain's zone was written after its POST", () => {
    const change = newDomainZone().plan.changes.find((c) => c.type === 'dns_zone');
    if (change === undefined) throw new Error('no zone');
    // Apply's note says what came of the panel's defaults (kinds/zone/write.ts).
    const note = 'of the 7 records the panel made, 5 kept, 2 removed';
    expect(renderOutcomeLine({ change, status: 'succeeded', id: 71, note }, { color: false })).toBe(
      `✓ updated dns "new.example" of client "alice" (id 71): written after the domain's POST; ${note}`,
    );
  });
});
