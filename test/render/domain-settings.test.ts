/* eslint-disable no-control-regex -- these tests look for control characters */
/**
 * A domain's settings in the plan's output: an update as `~ domain "x": field: before -> after`
 * with its request, a create with the settings it sets, a setting the panel does not show as a
 * warning; the values (a redirect's URL, the panel's own nested objects) printed as data in
 * text, Markdown and JSON, and a saved plan read back rendering the same.
 */
import { describe, expect, it } from 'vitest';
import { type DomainSettings, type LiveDomainSettings, settingUnknownLine } from '../../src/kinds/domain.js';
import type { Desired } from '../../src/manifest/types.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { expectedFacts, fingerprintOf } from '../../src/plan/fingerprint.js';
import { parsePlanFile } from '../../src/plan/saved.js';
import type { Plan } from '../../src/plan/types.js';
import type { PlanView } from '../../src/render/common.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { desired, live, type ClientSpec } from '../helpers/builders.js';

/** The panel's defaults for a domain's `security` (the simulator's, panel-api.md's fixture). */
const SECURITY = {
  id_certificate: 0,
  lets_encrypt: false,
  is_prefer_https: false,
  is_hsts: false,
  hsts_max_age: 0,
  hsts_include: false,
  hsts_preload: false,
};
const TARGET = { target: '/home/users/alice/www/shop.alice.example/', is_forwarding: false, forwarding_type: 301 };

/** `desired(clients)` with `settings` on the domains named in `settings`. */
function wants(clients: Record<string, ClientSpec>, settings: Record<string, DomainSettings>): Desired {
  const d = desired(clients);
  return {
    ...d,
    clients: d.clients.map((c) => ({
      ...c,
      domains: c.domains.map((dom) => {
        const given = settings[dom.name];
        return given === undefined ? dom : { ...dom, settings: given };
      }),
    })),
  };
}

/** `live(clients, domains)` with each domain's settings as the panel's record shows them. */
function panel(
  clients: Parameters<typeof live>[0],
  domains: Parameters<typeof live>[1],
  settings: Record<string, LiveDomainSettings>,
): Live {
  const l = live(clients, domains);
  return {
    ...l,
    domain: { ...l.domain, records: l.domain.records.map((d) => ({ ...d, settings: settings[d.name] })) },
  };
}

function viewOf(plan: Plan): PlanView {
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

/** alice's shop on the panel with the defaults; the manifest forces HTTPS there. */
function forceHttps(): PlanView {
  return viewOf(
    diff(
      wants({ alice: { domains: ['shop.alice.example'] } }, { 'shop.alice.example': { 'https.force': true } }),
      panel([[7, 'alice']], [[70, 'shop.alice.example', 7]], {
        'shop.alice.example': { php_version: '', security: SECURITY, target: TARGET },
      }),
    ),
  );
}

/** Characters that must never reach an output raw (the program's own line breaks aside). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('a domain settings update in text', () => {
  it('says the field before -> after beside the domain, then the request with its nested object whole', () => {
    const text = renderPlanText(forceHttps(), { color: false });
    expect(text).toContain(
      '  # domain "shop.alice.example" of client "alice" will be updated: differs from the manifest\n' +
        '  ~ domain "shop.alice.example": https.force: false -> true\n' +
        '  ~ PUT /domains/70 {"security":{"id_certificate":0,"lets_encrypt":false,"is_prefer_https":true,' +
        '"is_hsts":false,"hsts_max_age":0,"hsts_include":false,"hsts_preload":false}}\n',
    );
    expect(text).toMatch(/^Plan: 1 to update \(1 domain\)\.$/m);
  });

  it('lists several settings on one line in the table order, each value as JSON text', () => {
    const plan = diff(
      wants(
        { alice: { domains: ['shop.alice.example'] } },
        {
          'shop.alice.example': {
            redirect: { to: 'https://alice.example/', status: 302 },
            'https.hsts': { max_age: 31536000, include_subdomains: true, preload: false },
            php_version: '8.3',
          },
        },
      ),
      panel([[7, 'alice']], [[70, 'shop.alice.example', 7]], {
        'shop.alice.example': { php_version: null, security: SECURITY, target: TARGET },
      }),
    );
    const text = renderPlanText(viewOf(plan), { color: false });
    expect(text).toContain(
      '  ~ domain "shop.alice.example": php_version: "default" -> "8.3", ' +
        'https.hsts: false -> {"max_age":31536000,"include_subdomains":true,"preload":false}, ' +
        'redirect: false -> {"to":"https://alice.example/","status":302}\n',
    );
    // The request: top-level php_version, each nested object whole with the keys no manifest manages.
    expect(text).toContain(
      '  ~ PUT /domains/70 {"php_version":"8.3","security":{"id_certificate":0,"lets_encrypt":false,' +
        '"is_prefer_https":false,"is_hsts":true,"hsts_max_age":31536000,"hsts_include":true,"hsts_preload":false},' +
        '"target":{"target":"https://alice.example/","is_forwarding":true,"forwarding_type":302}}\n',
    );
  });

  it('says what a new domain sets, in the manifest terms, above its POST; a create without settings has no such line', () => {
    const plan = diff(
      wants(
        { bob: { plan: 'Basic', domains: ['bob.example', 'plain.bob.example'] } },
        { 'bob.example': { php_version: '8.2', 'https.lets_encrypt': true, 'https.force': true } },
      ),
      live(),
    );
    const text = renderPlanText(viewOf(plan), { color: false });
    expect(text).toContain(
      '  # domain "bob.example" of client "bob" will be created: not on the panel\n' +
        '  + domain "bob.example": php_version: "8.2", https.lets_encrypt: true, https.force: true\n' +
        '  + POST /domains {"domain":"bob.example","id_user":(known after apply),"php_version":"8.2",' +
        '"security":{"lets_encrypt":true,"is_prefer_https":true}}\n',
    );
    expect(text).toContain(
      '  # domain "plain.bob.example" of client "bob" will be created: not on the panel, after bob.example\n' +
        '  + POST /domains {"domain":"plain.bob.example","id_user":(known after apply),"id_parent_domain":(known after apply)}\n',
    );
    expect(text).not.toContain('+ client "bob":');
    expect(text).toMatch(/^Plan: 3 to create \(1 client, 2 domains\)\.$/m);
  });

  it('warns of a managed setting the panel record does not show, and changes nothing for it', () => {
    const plan = diff(
      wants({ alice: { domains: ['shop.alice.example'] } }, { 'shop.alice.example': { 'https.force': true } }),
      panel([[7, 'alice']], [[70, 'shop.alice.example', 7]], { 'shop.alice.example': { php_version: '' } }),
    );
    expect(plan.changes).toEqual([]);
    const text = renderPlanText(viewOf(plan), { color: false });
    const line = settingUnknownLine({
      client: 'alice',
      domain: 'shop.alice.example',
      field: 'https.force',
      keys: ['security'],
    });
    expect(line).toMatch(/^domain "shop\.alice\.example" of client "alice": .*has no "security" object.*https\.force/);
    expect(text).toContain(`Warnings:\n  ! ${line}\n`);
    expect(text).toMatch(/^No changes: the panel matches the manifest; 1 warning\.$/m);
    const markdown = renderPlanMarkdown(viewOf(plan));
    expect(markdown).toContain('| warnings | 1 |');
    expect(markdown).toContain(`- :warning: ${line.replaceAll('_', '&#95;')}\n`);
    expect(markdown).toContain('has no "security" object');
  });

  it('names an international domain in Unicode beside its ASCII form', () => {
    const plan = diff(
      wants({ alice: { domains: ['xn--bcher-kva.example'] } }, { 'xn--bcher-kva.example': { 'https.force': true } }),
      panel([[7, 'alice']], [[70, 'xn--bcher-kva.example', 7]], {
        'xn--bcher-kva.example': { security: SECURITY },
      }),
    );
    expect(renderPlanText(viewOf(plan), { color: false })).toContain(
      '  ~ domain "xn--bcher-kva.example" (bücher.example): https.force: false -> true\n',
    );
  });
});

/** A redirect's URL and the panel's own strings holding what would act in a terminal, a log, or Markdown. */
const EVIL = 'https://a.example/\n::error::pwn\u001b]8;;http://evil.example\u0007\u202e`<img src=x>` ```\n</details>';

function hostile(): PlanView {
  return viewOf(
    diff(
      wants(
        { alice: { domains: ['shop.alice.example', 'new.alice.example'] } },
        {
          'shop.alice.example': { redirect: { to: EVIL, status: 301 }, 'https.force': true },
          'new.alice.example': { redirect: { to: EVIL, status: 301 } },
        },
      ),
      panel([[7, 'alice']], [[70, 'shop.alice.example', 7]], {
        'shop.alice.example': {
          // A certificate's name and a document root as a panel may hold them: sent back as they are.
          security: { ...SECURITY, note: `**bold** | cell | ${EVIL}` },
          target: { ...TARGET, target: `/home/${EVIL}`, [`key${EVIL}`]: EVIL },
        },
      }),
    ),
  );
}

/** A panel that forwards to a hostile target, which the manifest turns off: the value is panel data (`before`). */
function hostileBefore(): PlanView {
  return viewOf(
    diff(
      wants({ alice: { domains: ['shop.alice.example'] } }, { 'shop.alice.example': { redirect: false } }),
      panel([[7, 'alice']], [[70, 'shop.alice.example', 7]], {
        'shop.alice.example': {
          security: { ...SECURITY, note: `**bold** | cell | ${EVIL}` },
          target: { ...TARGET, target: EVIL, is_forwarding: true, forwarding_type: 301 },
        },
      }),
    ),
  );
}

describe('setting values are data', () => {
  it('in text: escapes in JSON text, nothing raw', () => {
    const text = renderPlanText(hostile(), { color: false });
    expect(text).not.toMatch(RAW);
    expect(text).toContain(
      '  ~ domain "shop.alice.example": https.force: false -> true, redirect: false -> ' +
        '{"to":"https://a.example/\\n::error::pwn\\u001b]8;;http://evil.example\\u0007\\u202e`<img src=x>` ```\\n</details>",' +
        '"status":301}\n',
    );
    // The panel's keys and values inside the nested objects sent back whole: data too.
    expect(text).toContain('"keyhttps://a.example/\\n::error::pwn');
    expect(text).toContain('"note":"**bold** | cell | https://a.example/\\n::error::pwn');
    for (const line of text.split('\n')) expect(line).not.toMatch(/^::/);
  });

  it('in Markdown: the settings list under their domain inside the diff fence, which nothing closes', () => {
    const markdown = renderPlanMarkdown(hostile());
    expect(markdown).not.toMatch(RAW);
    const fence = markdown.slice(markdown.indexOf('```diff\n'), markdown.lastIndexOf('\n```\n'));
    expect(fence.split('\n').slice(1)).toEqual([
      '~ domain "shop.alice.example":',
      '~     https.force: false -> true',
      expect.stringMatching(/^~ {5}redirect: false -> \{"to":"https:\/\/a\.example\/\\n::error::pwn\\u001b/),
      expect.stringMatching(/^~ PUT \/domains\/70 \{"security":\{.*"note":"\*\*bold\*\* \| cell \| https/),
      expect.stringMatching(
        /^\+ domain "new\.alice\.example": redirect: \{"to":"https:\/\/a\.example\/\\n::error::pwn\\u001b/,
      ),
      expect.stringMatching(/^\+ POST \/domains \{"domain":"new\.alice\.example","id_user":7,"target":\{/),
    ]);
    // Outside the fence, only the program's own markup: no line of data starts a block.
    const outside = markdown.replace(fence, '');
    expect(outside).not.toContain('<img');
    expect(outside).not.toContain('evil.example');
  });

  it('in JSON: the values as they are, the fields by their dotted names', () => {
    const document = JSON.parse(renderPlanJson(hostile())) as {
      format_version: string;
      changes: { action: string; type: string; name: string; fields?: unknown; settings?: unknown }[];
      summary: Record<string, number>;
    };
    expect(document.format_version).toBe('2.5');
    expect(document.summary).toMatchObject({ create: 1, update: 1, delete: 0 });
    expect(document.changes[0]).toMatchObject({
      action: 'update',
      type: 'domain',
      name: 'shop.alice.example',
      client: 'alice',
      fields: [
        { field: 'https.force', before: false, after: true },
        { field: 'redirect', before: false, after: { to: EVIL, status: 301 } },
      ],
    });
    expect(document.changes[1]).toMatchObject({ action: 'create', settings: { redirect: { to: EVIL, status: 301 } } });
    expect(renderPlanJson(hostile())).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
  });
});

describe('the Markdown comment', () => {
  it('counts a settings update as a domain to update, in its client section', () => {
    const markdown = renderPlanMarkdown(forceHttps());
    expect(markdown).toContain('### panel-provision plan: 1 to update (1 domain)\n');
    expect(markdown).toContain('| domains to update | 1 |\n');
    expect(markdown).toContain(
      '<details><summary><code>alice</code>: 1 to update (1 domain)</summary>\n\n```diff\n' +
        '~ domain "shop.alice.example": https.force: false -> true\n~ PUT /domains/70 {"security":{',
    );
  });
});

describe('a saved plan read back', () => {
  it('renders the same text, Markdown and JSON', () => {
    // A manifest cannot give a hostile target (the plan file's reader refuses one in `after`); a panel can hold one.
    for (const view of [forceHttps(), hostileBefore()]) {
      const saved = parsePlanFile(renderPlanJson(view), 'plan.json');
      expect(renderPlanText(saved, { color: false })).toBe(renderPlanText(view, { color: false }));
      expect(renderPlanMarkdown(saved)).toBe(renderPlanMarkdown(view));
      expect(renderPlanJson(saved)).toBe(renderPlanJson(view));
    }
  });
});
