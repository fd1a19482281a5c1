/**
 * Hosting plans' changes as people read them (issue 25, item 2): text and Markdown for a plan's
 * create, update (how many clients are on it, who keep their copied values), delete, the
 * conflicts (clients named in text, counted in Markdown), the unmanaged plans counted; in
 * Markdown the plans' own section, headed by the kind, not as a client. And each kind's delete
 * says what it takes with it, by name (issue 24, item 6): a domain's delete is not worded as a
 * client's, and its line names it beside `DELETE /domains/{id}`. Names are data throughout.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredHostingPlan, Desired } from '../../src/manifest/types.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import type { PlanView } from '../../src/render/common.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { desired, live } from '../helpers/builders.js';

const RESOURCES = { disk_space: 1024, traffic: -1, domains: 5 };

function withPlans(d: Desired, plans: DesiredHostingPlan[], prune: Partial<Desired['prune']> = {}): Desired {
  return { ...d, hostingPlans: plans, prune: { ...d.prune, ...prune } };
}

/** Basic (alice and bob on it), Legacy (carol on it), Unused and Other (no one). */
const PANEL: Live = live(
  [
    [7, 'alice', 1],
    [8, 'bob', 1],
    [9, 'carol', 2],
  ],
  [[70, 'old.alice.example', 7]],
  {
    plans: [
      { id: 1, name: 'Basic', objects: { resources: RESOURCES, permissions: { ssh: false } } },
      { id: 2, name: 'Legacy', objects: { resources: RESOURCES } },
      { id: 3, name: 'Unused', objects: { resources: RESOURCES } },
      { id: 4, name: 'Other', objects: { resources: RESOURCES } },
    ],
  },
);

/** Pro new (dave on it), Basic's domains raised, Unused absent: a create, an update, a delete. */
const MANIFEST = withPlans(desired({ dave: { plan: 'Pro' } }), [
  {
    name: 'Pro',
    state: 'present',
    wants: { resources: { domains: 20, disk_space: 1024 }, permissions: { ssh: true } },
  },
  { name: 'Basic', state: 'present', wants: { resources: { domains: 10 } } },
  { name: 'Unused', state: 'absent', wants: {} },
]);

function view(d: Desired, l: Live = PANEL, showUnmanaged = false): PlanView {
  return {
    plan: diff(d, l),
    panelUrl: 'https://panel.example.com/api/v2',
    manifest: 'manifest.yaml',
    showUnmanaged,
    notes: [],
    manifestSha256: 'a'.repeat(64),
    fingerprint: `sha256:${'b'.repeat(64)}`,
  };
}

describe('hosting plans in the text plan', () => {
  it('a create with its keys, an update with the clients on it, a delete; the unmanaged plan counted', () => {
    const text = renderPlanText(view(MANIFEST), { color: false });
    expect(text).toContain(
      '  # hosting plan "Pro" will be created: not on the panel\n' +
        '  + hosting plan "Pro": resources.domains: 20, resources.disk_space: 1024, permissions.ssh: true\n' +
        '  + POST /hosting-plans {"name":"Pro","resources":{"domains":20,"disk_space":1024},"permissions":{"ssh":true}}\n' +
        '  # hosting plan "Basic" will be updated: differs from the manifest; the 2 clients on it keep their ' +
        'copied values (the panel copies a plan when it is assigned)\n' +
        '  ~ hosting plan "Basic": resources.domains: 5 -> 10\n' +
        '  ~ PUT /hosting-plans/1 {"resources":{"disk_space":1024,"traffic":-1,"domains":10}}\n' +
        '  # client "dave" on hosting plan "Pro" will be created: not on the panel\n' +
        '  + POST /clients {"username":"dave","id_hosting_plan":(known after apply),"send_login_credentials":false}\n' +
        '  # hosting plan "Unused" will be deleted: state: absent in the manifest\n' +
        '  - DELETE /hosting-plans/3\n',
    );
    // Legacy and Other are the panel's, not listed: counted, never named without --show-unmanaged.
    expect(text).toContain('Not in the manifest, left alone: 3 clients, 1 domain, 2 hosting plans.\n');
    expect(text).not.toContain('Other');
    expect(text).toMatch(
      /^Plan: 2 to create \(1 client, 1 hosting plan\), 1 to update \(1 hosting plan\), 1 to delete \(1 hosting plan\)\.$/m,
    );
    const named = renderPlanText(view(MANIFEST, PANEL, true), { color: false });
    expect(named).toContain('  hosting plan Legacy\n  hosting plan Other\n');
  });

  it('an update says when no client is on the plan, or when the panel does not say', () => {
    const d = withPlans(desired({}), [{ name: 'Unused', state: 'present', wants: { resources: { domains: 9 } } }]);
    expect(renderPlanText(view(d), { color: false })).toContain(
      '# hosting plan "Unused" will be updated: differs from the manifest; no client is on it\n',
    );
    const unknown = live([[7, 'alice', undefined]], [], { plans: [...PANEL.hosting_plan] });
    expect(renderPlanText(view(d, unknown), { color: false })).toContain(
      'differs from the manifest; the panel does not say how many clients are on it (they keep their copied values)\n',
    );
  });

  it('a conflict names the clients on a plan marked absent', () => {
    const d = withPlans(desired({}), [{ name: 'Basic', state: 'absent', wants: {} }]);
    const text = renderPlanText(view(d), { color: false });
    expect(text).toContain(
      '  ✗ hosting plan "Basic" is to be deleted, but "alice", "bob" are on it: move them to another plan first\n',
    );
    expect(text).not.toContain('DELETE /hosting-plans');
  });
});

describe('hosting plans in the pull-request comment', () => {
  it('their own section, headed by the kind; each change named; the update says who keeps copied values', () => {
    const md = renderPlanMarkdown(view(MANIFEST));
    expect(md).not.toContain('(hosting plans)');
    expect(md).toContain(
      '<details><summary>hosting plans: 1 to create (1 hosting plan), 1 to update (1 hosting plan), ' +
        '1 to delete (1 hosting plan)</summary>\n\n```diff\n' +
        '+ hosting plan "Pro":\n' +
        '+     resources.domains: 20\n' +
        '+     resources.disk_space: 1024\n' +
        '+     permissions.ssh: true\n' +
        '+ POST /hosting-plans {"name":"Pro","resources":{"domains":20,"disk_space":1024},"permissions":{"ssh":true}}\n' +
        '# hosting plan "Basic": the 2 clients on it keep their copied values (the panel copies a plan when it is assigned)\n' +
        '~ hosting plan "Basic": resources.domains: 5 -> 10\n' +
        '~ PUT /hosting-plans/1 {"resources":{"disk_space":1024,"traffic":-1,"domains":10}}\n' +
        '- hosting plan "Unused"\n' +
        '- DELETE /hosting-plans/3\n```\n</details>\n',
    );
    expect(md).toContain('<details><summary><code>dave</code>: 1 to create (1 client)</summary>');
    // The table: the plan's delete counts with the deletes, its create and update have rows.
    expect(md).toContain('| :warning: **resources to delete** | **1** |\n');
    expect(md).toContain('| hosting plans to update | 1 |\n');
    expect(md).toContain('| hosting plans to create | 1 |\n');
    expect(md).toContain(
      '**Deletes**: 1 resource is deleted for good (a hosting plan alone (no client is on it)).\n\n' +
        '- :x: hosting plan "Unused": state: absent in the manifest\n',
    );
    expect(md).toContain('Not in the manifest, left alone: 3 clients, 1 domain, 2 hosting plans.\n');
  });

  it('a conflict counts the clients on the plan (they may be other customers)', () => {
    const d = withPlans(desired({}), [{ name: 'Basic', state: 'absent', wants: {} }]);
    const md = renderPlanMarkdown(view(d));
    expect(md).toContain(
      '- :x: hosting plan "Basic" is to be deleted, but 2 clients are on it: move them to another plan first\n',
    );
    expect(md).not.toContain('alice');
  });
});

describe("each kind's delete says what it takes with it", () => {
  it('a domain alone: its own words, and its name beside its request', () => {
    const d = desired({ alice: { domains: [{ name: 'old.alice.example', state: 'absent' }] } });
    const md = renderPlanMarkdown(view(d));
    expect(md).toContain(
      '**Deletes**: 1 resource is deleted for good (a domain with its DNS zone, and its mail and files if ' +
        'the panel takes them (not documented)).\n',
    );
    expect(md).not.toContain('a client with its domains');
    expect(md).toContain('```diff\n- domain "old.alice.example"\n- DELETE /domains/70\n```');
  });

  it("a client with what goes with it; the kinds deleted, each once, in the kinds' order", () => {
    const d = withPlans(
      desired({
        alice: { domains: [{ name: 'old.alice.example', state: 'absent' }] },
        carol: { state: 'absent' },
      }),
      [{ name: 'Legacy', state: 'absent', wants: {} }],
    );
    const md = renderPlanMarkdown(view(d));
    expect(md).toContain(
      '(a client with its domains, mail, databases and files; a domain with its DNS zone, and its mail and ' +
        'files if the panel takes them (not documented); a hosting plan alone (no client is on it)).\n',
    );
    expect(md).toContain('```diff\n- client "carol" with its mail, databases and files\n- DELETE /clients/9\n```');
    // Legacy's delete waits for carol's: both in the plan, carol off it first.
    expect(md).toContain('- hosting plan "Legacy"\n- DELETE /hosting-plans/2\n');
  });

  it('names are data: a plan named with markup, quotes and a line break', () => {
    const name = 'Gold <b>"x"</b>\n| y';
    const d = withPlans(desired({}), [{ name, state: 'present', wants: { resources: { domains: 1 } } }]);
    const md = renderPlanMarkdown(view(d));
    expect(md).toContain('+ hosting plan "Gold <b>\\"x\\"</b>\\n| y": resources.domains: 1\n');
    expect(md).not.toContain('<b>"x"');
    const text = renderPlanText(view(d), { color: false });
    expect(text).toContain('  # hosting plan "Gold <b>\\"x\\"</b>\\n| y" will be created: not on the panel\n');
  });
});
