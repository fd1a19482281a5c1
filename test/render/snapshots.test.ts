/**
 * The plan as people read it, whole: text for the terminal and CI logs, Markdown for the
 * pull-request comment. A change of wording or layout shows here as a diff to review.
 */
import { describe, expect, it } from 'vitest';
import type { DomainSettings } from '../../src/kinds/domain.js';
import { diff } from '../../src/plan/diff.js';
import type { PlanView } from '../../src/render/common.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { desired, live } from '../helpers/builders.js';
import { aliceZone, newDomainZone } from './zone-fixtures.js';

const plan = diff(
  desired({
    alice: {
      plan: 'Basic',
      email: 'alice@example.com',
      domains: ['alice.example', 'shop.alice.example', 'xn--bcher-kva.example'],
    },
    carol: { plan: 'Basic', domains: ['carol.example', 'taken.example'] },
  }),
  live(
    [
      [7, 'carol', 2],
      [8, 'zed'],
    ],
    [
      [70, 'taken.example', 8],
      [71, 'zed.example', 8],
    ],
  ),
);
const view: PlanView = {
  plan,
  panelUrl: 'https://panel.example.com/api/v2',
  manifest: 'manifest.yaml',
  showUnmanaged: false,
  notes: ["The panel has no domain list: looked up the manifest's 5 domains one by one."],
  manifestSha256: 'a'.repeat(64),
  fingerprint: `sha256:${'b'.repeat(64)}`,
  warnings: ['manifest.yaml:3:15: username "a1ice" looks like username "alice"'],
};

describe('rendered plans', () => {
  it('text', () => {
    expect(renderPlanText(view, { color: false })).toMatchInlineSnapshot(`
      "note: The panel has no domain list: looked up the manifest's 5 domains one by one.

      Changes to https://panel.example.com/api/v2:

        # client "alice" on hosting plan "Basic" will be created: not on the panel
        + POST /clients {"username":"alice","id_hosting_plan":1,"email":"alice@example.com","send_login_credentials":false}
        # domain "alice.example" of client "alice" will be created: not on the panel
        + POST /domains {"domain":"alice.example","id_user":(known after apply)}
        # domain "shop.alice.example" of client "alice" will be created: not on the panel, after alice.example
        + POST /domains {"domain":"shop.alice.example","id_user":(known after apply),"id_parent_domain":(known after apply)}
        # domain "xn--bcher-kva.example" (bücher.example) of client "alice" will be created: not on the panel
        + POST /domains {"domain":"xn--bcher-kva.example","id_user":(known after apply)}
        # client "carol" will be updated: differs from the manifest
        ~ client "carol": plan: "Standard" -> "Basic"
        ~ PUT /clients/7 {"id_hosting_plan":1}
        # domain "carol.example" of client "carol" will be created: not on the panel
        + POST /domains {"domain":"carol.example","id_user":7}

      Conflicts: apply will send nothing until the manifest or the panel is changed:
        ✗ domain "taken.example" is listed under client "carol" but belongs to client "zed" on the panel

      Warnings:
        ! manifest.yaml:3:15: username "a1ice" looks like username "alice"

      Not in the manifest, left alone: 1 client, 1 domain.
        (--show-unmanaged lists their names)

      Plan: 5 to create (1 client, 4 domains), 1 to update (1 client); 1 conflict, 1 warning.
      "
    `);
  });

  it('Markdown', () => {
    expect(renderPlanMarkdown(view)).toMatchInlineSnapshot(`
      "### panel-provision plan: 5 to create (1 client, 4 domains), 1 to update (1 client)

      Manifest <code>manifest.yaml</code>.

      | | count |
      |---|---:|
      | clients to update | 1 |
      | clients to create | 1 |
      | domains to create | 4 |
      | conflicts | 1 |
      | warnings | 1 |

      > The panel has no domain list: looked up the manifest's 5 domains one by one.

      **Conflicts**: apply will send nothing until they are resolved.

      - :x: domain "taken.example" is listed under client "carol" but belongs to another client on the panel

      **Warnings**

      - :warning: manifest.yaml:3:15: username "a1ice" looks like username "alice"

      Not in the manifest, left alone: 1 client, 1 domain.

      <details><summary><code>carol</code>: 1 to create (1 domain), 1 to update (1 client)</summary>

      \`\`\`diff
      ~ client "carol": plan: "Standard" -> "Basic"
      ~ PUT /clients/7 {"id_hosting_plan":1}
      + POST /domains {"domain":"carol.example","id_user":7}
      \`\`\`
      </details>

      <details><summary><code>alice</code>: 4 to create (1 client, 3 domains)</summary>

      \`\`\`diff
      + POST /clients {"username":"alice","id_hosting_plan":1,"email":"alice@example.com","send_login_credentials":false}
      + POST /domains {"domain":"alice.example","id_user":(known after apply)}
      + POST /domains {"domain":"shop.alice.example","id_user":(known after apply),"id_parent_domain":(known after apply)}
      # domain "xn--bcher-kva.example" (bücher.example) of client "alice"
      + POST /domains {"domain":"xn--bcher-kva.example","id_user":(known after apply)}
      \`\`\`
      </details>

      "
    `);
  });
});

/** A domain's settings: one updated on the panel, one created with settings. */
const SETTINGS: Record<string, DomainSettings> = {
  'alice.example': { php_version: '8.3', 'https.force': true },
  'shop.alice.example': {
    'https.lets_encrypt': true,
    'https.hsts': { max_age: 31536000, include_subdomains: true, preload: false },
    redirect: { to: 'https://alice.example/', status: 301 },
  },
};
const settingsWanted = desired({ alice: { domains: ['alice.example', 'shop.alice.example'] } });
const settingsLive = live([[7, 'alice']], [[70, 'alice.example', 7]]);
const settingsPlan = diff(
  {
    ...settingsWanted,
    clients: settingsWanted.clients.map((c) => ({
      ...c,
      domains: c.domains.map((d) => {
        const settings = SETTINGS[d.name];
        return settings === undefined ? d : { ...d, settings };
      }),
    })),
  },
  {
    ...settingsLive,
    domain: {
      ...settingsLive.domain,
      records: settingsLive.domain.records.map((d) => ({
        ...d,
        settings: {
          php_version: '8.1',
          security: {
            id_certificate: 3,
            lets_encrypt: true,
            is_prefer_https: false,
            is_hsts: false,
            hsts_max_age: 0,
            hsts_include: false,
            hsts_preload: false,
          },
        },
      })),
    },
  },
);
const settingsView: PlanView = { ...view, plan: settingsPlan, notes: [], warnings: [] };

describe('rendered plans with domain settings', () => {
  it('text', () => {
    expect(renderPlanText(settingsView, { color: false })).toMatchInlineSnapshot(`
      "Changes to https://panel.example.com/api/v2:

        # domain "alice.example" of client "alice" will be updated: differs from the manifest
        ~ domain "alice.example": php_version: "8.1" -> "8.3", https.force: false -> true
        ~ PUT /domains/70 {"php_version":"8.3","security":{"id_certificate":3,"lets_encrypt":true,"is_prefer_https":true,"is_hsts":false,"hsts_max_age":0,"hsts_include":false,"hsts_preload":false}}
        # domain "shop.alice.example" of client "alice" will be created: not on the panel
        + domain "shop.alice.example": https.lets_encrypt: true, https.hsts: {"max_age":31536000,"include_subdomains":true,"preload":false}, redirect: {"to":"https://alice.example/","status":301}
        + POST /domains {"domain":"shop.alice.example","id_user":7,"id_parent_domain":70,"security":{"lets_encrypt":true,"is_hsts":true,"hsts_max_age":31536000,"hsts_include":true,"hsts_preload":false},"target":{"is_forwarding":true,"target":"https://alice.example/","forwarding_type":301}}

      Plan: 1 to create (1 domain), 1 to update (1 domain).
      "
    `);
  });

  it('Markdown', () => {
    expect(renderPlanMarkdown(settingsView)).toMatchInlineSnapshot(`
      "### panel-provision plan: 1 to create (1 domain), 1 to update (1 domain)

      Manifest <code>manifest.yaml</code>.

      | | count |
      |---|---:|
      | domains to update | 1 |
      | clients to create | 0 |
      | domains to create | 1 |
      | conflicts | 0 |
      | warnings | 0 |

      <details><summary><code>alice</code>: 1 to create (1 domain), 1 to update (1 domain)</summary>

      \`\`\`diff
      ~ domain "alice.example":
      ~     php_version: "8.1" -> "8.3"
      ~     https.force: false -> true
      ~ PUT /domains/70 {"php_version":"8.3","security":{"id_certificate":3,"lets_encrypt":true,"is_prefer_https":true,"is_hsts":false,"hsts_max_age":0,"hsts_include":false,"hsts_preload":false}}
      + domain "shop.alice.example":
      +     https.lets_encrypt: true
      +     https.hsts: {"max_age":31536000,"include_subdomains":true,"preload":false}
      +     redirect: {"to":"https://alice.example/","status":301}
      + POST /domains {"domain":"shop.alice.example","id_user":7,"id_parent_domain":70,"security":{"lets_encrypt":true,"is_hsts":true,"hsts_max_age":31536000,"hsts_include":true,"hsts_preload":false},"target":{"is_forwarding":true,"target":"https://alice.example/","forwarding_type":301}}
      \`\`\`
      </details>

      "
    `);
  });
});

describe('rendered plans with zones', () => {
  // An existing zone's records added, changed and pruned; a new domain's zone after its POST.
  const zones: PlanView = {
    ...aliceZone(),
    plan: { ...aliceZone().plan, changes: [...aliceZone().plan.changes, ...newDomainZone().plan.changes] },
  };
  it('text', () => {
    expect(renderPlanText(zones, { color: false })).toMatchInlineSnapshot(`
      "Changes to https://panel.example.com/api/v2:

        # dns "alice.example" of client "alice" will be updated: differs from the manifest (1 record to add, 1 TTL to change, 1 to remove); the zone becomes custom: the panel stops regenerating its default records
        ~ dns "alice.example":
        +     A @ 192.0.2.10 (ttl 3600)
        ~     TXT @ "v=spf1 mx -all": ttl 3600 -> 300
        -     TXT _old "old value" (ttl 3600)
        ~ PUT /dns/70 (the zone's 3 records after the change, its SOA and DKIM record as read)
        # domain "new.example" of client "alice" will be created: not on the panel
        + POST /domains {"domain":"new.example","id_user":7}
        # dns "new.example" of client "alice" will be updated: a new domain (2 records to add); its records are written after the domain's POST; the default records the panel fills in then are removed, except keep matches (which ones: known after apply; --max-deletes does not count them); the zone becomes custom: the panel stops regenerating its default records
        ~ dns "new.example":
        +     A @ 192.0.2.10 (ttl 3600)
        +     MX @ "10 mail.new.example." (ttl 3600)
        ~ PUT /dns/{id} (known after apply: the zone as the panel fills it in after the domain's POST, with these changes)

      Plan: 1 to create (1 domain), 2 to update (2 zones), 1 DNS record to remove.
      "
    `);
  });
  it('Markdown', () => {
    expect(renderPlanMarkdown(zones)).toMatchInlineSnapshot(`
      "### panel-provision plan: 1 to create (1 domain), 2 to update (2 zones), 1 DNS record to remove

      Manifest <code>manifest.yaml</code>.

      | | count |
      |---|---:|
      | :warning: **DNS records to remove** | **1** and the defaults of 1 new zone |
      | zones to update | 2 |
      | clients to create | 0 |
      | domains to create | 1 |
      | conflicts | 0 |
      | warnings | 0 |

      **DNS records to remove**: 1 record leaves its zone, and the default records of 1 new domain.

      - :x: dns "alice.example": TXT &#95;old "old value" (ttl 3600)
      - :x: dns "new.example": the default records the panel fills in, except keep matches (known after apply)

      <details><summary><code>alice</code>: 1 to create (1 domain), 2 to update (2 zones), 1 DNS record to remove</summary>

      \`\`\`diff
      # dns "alice.example": the zone becomes custom: the panel stops regenerating its default records
      ~ dns "alice.example":
      -     TXT _old "old value" (ttl 3600)
      ~     TXT @ "v=spf1 mx -all": ttl 3600 -> 300
      +     A @ 192.0.2.10 (ttl 3600)
      ~ PUT /dns/70 (the zone's 3 records after the change, its SOA and DKIM record as read)
      + POST /domains {"domain":"new.example","id_user":7}
      # dns "new.example": its records are written after the domain's POST; the default records the panel fills in then are removed, except keep matches (which ones: known after apply; --max-deletes does not count them)
      # dns "new.example": the zone becomes custom: the panel stops regenerating its default records
      ~ dns "new.example":
      +     A @ 192.0.2.10 (ttl 3600)
      +     MX @ "10 mail.new.example." (ttl 3600)
      ~ PUT /dns/{id} (known after apply: the zone as the panel fills it in after the domain's POST, with these changes)
      \`\`\`
      </details>

      "
    `);
  });
});
