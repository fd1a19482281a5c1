/* eslint-disable no-control-regex -- these tests look for control characters */
/**
 * A zone's change in the plan's text and JSON: per zone, `+`/`-`/`~` lines with host, type,
 * value and TTL, the values printed as data (a TXT value from a panel may hold anything), a long
 * value cut with its length in text and whole in JSON, the PUT's request said in short (JSON
 * keeps it whole), the first write making the zone custom, a new domain's zone written after
 * its POST. Markdown and apply's outcome: dns-markdown.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { VALUE_SHOWN } from '../../src/kinds/zone.js';
import { diff } from '../../src/plan/diff.js';
import type { PlanView } from '../../src/render/common.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import {
  aliceZone,
  answer,
  bigZone,
  HOSTILE,
  hostileZone,
  lines,
  newDomainZone,
  panel,
  rec,
  text,
  viewOf,
  wants,
} from './zone-fixtures.js';

describe('a zone in text', () => {
  it('says each record as a line in its own sign, the zone becoming custom, and the PUT in short', () => {
    const t = text(aliceZone());
    expect(t).toContain(
      '  # dns "alice.example" of client "alice" will be updated: differs from the manifest ' +
        '(1 record to add, 1 TTL to change, 1 to remove); the zone becomes custom: the panel stops ' +
        'regenerating its default records\n' +
        '  ~ dns "alice.example":\n' +
        '  +     A @ 192.0.2.10 (ttl 3600)\n' +
        '  ~     TXT @ "v=spf1 mx -all": ttl 3600 -> 300\n' +
        '  -     TXT _old "old value" (ttl 3600)\n' +
        "  ~ PUT /dns/70 (the zone's 3 records after the change, its SOA and DKIM record as read)\n",
    );
    expect(t).toContain('Plan: 1 to update (1 zone), 1 DNS record to remove.');
  });

  it("says one record on the zone's line, and a custom zone is not made custom again", () => {
    const t = text(
      viewOf(
        diff(
          wants(['alice.example'], {
            'alice.example': { records: [rec('@', 'A', '192.0.2.10')], prune: false, keep: [] },
          }),
          panel(['alice.example'], { 'alice.example': answer([rec('_old', 'TXT', 'x')], { is_custom_dns: true }) }),
        ),
      ),
    );
    expect(t).toContain('  ~ dns "alice.example": + A @ 192.0.2.10 (ttl 3600)\n');
    expect(t).toContain('differs from the manifest (1 record to add)\n');
    expect(t).not.toContain('custom');
    expect(t).not.toContain('_old');
  });

  it('colours each record line in its own sign', () => {
    const t = renderPlanText(aliceZone(), { color: true });
    expect(t).toContain('  \u001b[32m+\u001b[39m     A @ 192.0.2.10 (ttl 3600)');
    expect(t).toContain('  \u001b[31m-\u001b[39m     TXT _old "old value" (ttl 3600)');
  });

  it("says a new domain's zone is written after its POST, its defaults pruned known after apply", () => {
    const view = newDomainZone();
    const t = text(view);
    expect(t).toContain(
      '  # dns "new.example" of client "alice" will be updated: a new domain (2 records to add); ' +
        "its records are written after the domain's POST; the default records the panel fills in then " +
        'are removed, except keep matches (which ones: known after apply; --max-deletes does not count them); the zone becomes custom',
    );
    expect(t).toContain('  +     A @ 192.0.2.10 (ttl 3600)\n  +     MX @ "10 mail.new.example." (ttl 3600)\n');
    expect(t).toContain(
      "  ~ PUT /dns/{id} (known after apply: the zone as the panel fills it in after the domain's POST, with these changes)\n",
    );
  });
});

describe('record values as data', () => {
  it('in text: JSON text, nothing raw, a host or type that is not plain quoted', () => {
    const t = text(hostileZone());
    expect(t).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    for (const [i, v] of HOSTILE.entries())
      expect(t).toContain(
        `  -     TXT h${i} ${JSON.stringify(v)}`.replace(
          /[\u200b\u202c\u202e]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
      );
    expect(t).toContain('  -     TXT "a b (ttl 1)" "host with spaces" (ttl 3600)');
    expect(t).toContain('  -     "X\\"Y" @ "odd type" (ttl 3600)');
  });

  it('in Markdown: each record one line in the fence, the fence never closed by a value, the list escaped', () => {
    const md = renderPlanMarkdown(hostileZone());
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    // Only the renderer's own fences start a line; a value's backticks stay inside its line.
    expect(md.split('\n').filter((l) => l.startsWith('```'))).toEqual(['```diff', '```']);
    const fence = md.slice(md.indexOf('```diff'), md.lastIndexOf('```'));
    for (const line of fence.split('\n').slice(1, -1)) expect(line).toMatch(/^[-+~#] /);
    // Outside the fence (the list of removed records) nothing is markup.
    const head = md.slice(0, md.indexOf('<details>'));
    expect(head).not.toMatch(/<img|<script|\*\*bold|\[link\]|```/);
    expect(head).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('in JSON: whole and exact, read back the same', () => {
    const view = hostileZone();
    const doc = JSON.parse(renderPlanJson(view)) as { changes: { records: { value: string }[] }[] };
    expect(doc.changes[0]?.records.map((r) => r.value)).toEqual(expect.arrayContaining(HOSTILE));
  });
});

describe('a long value', () => {
  const key = (end: string): string => `v=DKIM1; k=rsa; p=${'A'.repeat(2048 - 18 - end.length)}${end}`;
  function rotated(): PlanView {
    return viewOf(
      diff(
        wants(['alice.example'], {
          'alice.example': { records: [rec('default._domainkey', 'TXT', key('IDAQAB'))], prune: true, keep: [] },
        }),
        panel(['alice.example'], { 'alice.example': answer([rec('default._domainkey', 'TXT', key('IDAQAC'))]) }),
      ),
    );
  }

  it('is cut in text and Markdown with its length, and two that differ at the end read apart', () => {
    const view = rotated();
    for (const out of [text(view), renderPlanMarkdown(view)]) {
      const records = lines(out).filter((l) => /^ *[-+] +TXT default\._domainkey /.test(l));
      expect(records).toHaveLength(2);
      for (const l of records) {
        expect(l).toContain(`"v=DKIM1; k=rsa; p=${'A'.repeat(64 - 18)}"… (2,048 characters, sha256 `);
        expect(l.length).toBeLessThan(200);
      }
      expect(records[0]?.replace(/^ *[-+] +/, '')).not.toBe(records[1]?.replace(/^ *[-+] +/, ''));
    }
  });

  it('is whole in JSON', () => {
    const json = renderPlanJson(rotated());
    expect(json).toContain(JSON.stringify(key('IDAQAB')));
    expect(json).toContain(JSON.stringify(key('IDAQAC')));
  });

  it(`is shown whole up to ${VALUE_SHOWN} characters`, () => {
    const view = viewOf(
      diff(
        wants(['alice.example'], {
          'alice.example': { records: [rec('@', 'TXT', 'x'.repeat(VALUE_SHOWN))], prune: false, keep: [] },
        }),
        panel(['alice.example'], { 'alice.example': answer([]) }),
      ),
    );
    expect(text(view)).toContain(`+ TXT @ "${'x'.repeat(VALUE_SHOWN)}" (ttl 3600)`);
  });
});

describe("a zone's request", () => {
  it('is said in short in text and Markdown, and whole in JSON', () => {
    const view = bigZone();
    const t = text(view);
    expect(t).toContain("~ PUT /dns/70 (the zone's 201 records after the change, its SOA and DKIM record as read)\n");
    expect(Math.max(...lines(t).map((l) => l.length))).toBeLessThan(250);
    expect(Math.max(...lines(renderPlanMarkdown(view)).map((l) => l.length))).toBeLessThan(250);
    const doc = JSON.parse(renderPlanJson(view)) as {
      changes: { request: { method: string; path: string; body: { records: { other: unknown[] } } } }[];
      summary: Record<string, number>;
    };
    expect(doc.changes[0]?.request.method).toBe('PUT');
    expect(doc.changes[0]?.request.path).toBe('/dns/70');
    expect(doc.changes[0]?.request.body.records.other).toHaveLength(201);
    expect(doc.summary).toMatchObject({ create: 0, update: 1, delete: 0 });
  });
});
