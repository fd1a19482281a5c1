/**
 * A saved plan's domain settings are checked by value, not only by type: a create's settings and
 * an update's `after` must be values a manifest may give (the schema: status 301 or 302, a
 * MAJOR.MINOR version or "default", max_age 0 or more; the domain's room: an http(s) URL), while
 * an update's `before` holds whatever the panel has.
 */
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint } from '../../src/plan/fingerprint.js';
import { parsePlanFile, planDigest } from '../../src/plan/saved.js';
import { renderPlanJson } from '../../src/render/json.js';
import { desired, live } from '../helpers/builders.js';

const LIVE = live(
  [[7, 'alice']],
  [
    [
      70,
      'shop.example',
      7,
      false,
      {
        php_version: 8,
        security: { is_hsts: true, hsts_max_age: -5, hsts_include: false, hsts_preload: false },
        target: { target: 'https://o.example/', is_forwarding: true, forwarding_type: 307 },
      },
    ],
  ],
);
const PLAN = diff(
  desired({
    alice: {
      domains: [
        {
          name: 'shop.example',
          settings: {
            php_version: '8.3',
            'https.hsts': { max_age: 0, include_subdomains: false, preload: false },
            redirect: { to: 'https://n.example/', status: 301 },
          },
        },
        {
          name: 'new.example',
          settings: {
            php_version: 'default',
            'https.hsts': { max_age: 600, include_subdomains: true, preload: false },
            redirect: { to: 'https://a.example/', status: 302 },
          },
        },
      ],
    },
  }),
  LIVE,
);

type Document = Record<string, unknown> & { changes: Record<string, unknown>[] };

function document(): Document {
  return JSON.parse(
    renderPlanJson({
      plan: PLAN,
      panelUrl: 'https://panel.example/api/v2',
      manifest: 'm.yaml',
      showUnmanaged: false,
      notes: [],
      manifestSha256: 'a'.repeat(64),
      fingerprint: planFingerprint(PLAN, LIVE),
    }),
  ) as Document;
}

/** The problems parsePlanFile finds in `doc` (its digest made again: an edit that passes the digest). */
function problems(doc: Document): string {
  doc.plan_sha256 = planDigest(doc);
  try {
    parsePlanFile(JSON.stringify(doc), 'plan.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ProvisionError);
    const e = error as ProvisionError;
    return [e.message, ...e.details].join('\n');
  }
  return '';
}

describe('a saved plan of domain settings', () => {
  it('reads back an update whose `before` is what the panel holds (status 307, a negative max_age, a version 8.0)', () => {
    expect(PLAN.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['update shop.example', 'create new.example']);
    const [update] = PLAN.changes;
    if (update?.action !== 'update' || update.type !== 'domain') throw new Error('expected a domain update');
    expect(update.fields.map((f) => f.before)).toEqual([
      '8.0',
      { max_age: -5, include_subdomains: false, preload: false },
      { to: 'https://o.example/', status: 307 },
    ]);
    expect(problems(document())).toBe('');
    expect(parsePlanFile(JSON.stringify(document()), 'plan.json').plan.changes).toEqual(PLAN.changes);
  });

  it("refuses a create's settings or an update's `after` that no manifest can give", () => {
    const settings = (doc: Document) => doc.changes[1]!.settings as Record<string, Record<string, unknown>>;
    const after = (doc: Document, i: number) =>
      (doc.changes[0]!.fields as Record<string, unknown>[])[i] as { after: unknown };
    const cases: [string, (doc: Document) => void, RegExp][] = [
      [
        'create status',
        (d) => (settings(d).redirect!.status = 307),
        /changes\[1\]\.settings\.redirect\.status: 307 is not 301 or 302/,
      ],
      [
        'create version',
        (d) => (settings(d).php_version = '8' as never),
        /changes\[1\]\.settings\.php_version: "8" is not a PHP version/,
      ],
      [
        'create max_age',
        (d) => (settings(d)['https.hsts']!.max_age = -1),
        /changes\[1\]\.settings\.https\.hsts\.max_age: -1 is not 0 or more/,
      ],
      [
        'create url',
        (d) => (settings(d).redirect!.to = 'ftp://a.example/'),
        /changes\[1\]\.settings\.redirect: \{"to":"ftp:\/\/a\.example\/","status":302\} is a target that is not an absolute http\(s\) URL/,
      ],
      [
        'create url with a line break',
        (d) => (settings(d).redirect!.to = 'https://a.example/\nx'),
        /changes\[1\]\.settings\.redirect: .* is a target that is not an absolute http\(s\) URL/,
      ],
      [
        'after status',
        (d) => (after(d, 2).after = { to: 'https://n.example/', status: 307 }),
        /changes\[0\]\.fields\[2\]\.after\.status: 307 is not 301 or 302/,
      ],
      [
        'after version',
        (d) => (after(d, 0).after = 'eight'),
        /changes\[0\]\.fields\[0\]\.after: "eight" is not a PHP version/,
      ],
      [
        'after url',
        (d) => (after(d, 2).after = { to: 'javascript:alert(1)', status: 301 }),
        /changes\[0\]\.fields\[2\]\.after: .* is a target that is not an absolute http\(s\) URL/,
      ],
    ];
    for (const [name, edit, message] of cases) {
      const doc = document();
      edit(doc);
      expect(problems(doc), name).toMatch(message);
    }
  });
});
