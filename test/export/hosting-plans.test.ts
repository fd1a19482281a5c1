/**
 * Hosting plans in export, pure (src/kinds/hosting-plan/export.ts, export-edits.ts,
 * export-rewrite.ts): the panel's values in the manifest's terms, refused values left out with a
 * warning naming the plan and the key; export --into sets the keys a listed plan gives in their
 * own style, adds the panel's other plans (with --with hosting-plans) in the list's style, or a
 * section before clients when the manifest has none. Every result validates and plans to no
 * hosting plan change.
 */
import { describe, expect, it } from 'vitest';
import { adopt } from '../../src/export/adopt.js';
import { LiveModel } from '../../src/export/model.js';
import { exportPlans } from '../../src/kinds/hosting-plan/export-edits.js';
import { rewrite } from '../../src/export/rewrite.js';
import { manifestText } from '../../src/export/write.js';
import type { LiveHostingPlan } from '../../src/kinds/common.js';
import { validateManifest } from '../../src/manifest/load.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import type { JsonObject } from '../../src/util.js';

function plan(id: number, name: string, objects: Record<string, JsonObject>): LiveHostingPlan {
  return { id, name, objects };
}

function panel(plans: LiveHostingPlan[]): Live {
  return {
    hosting_plan: plans,
    client: [],
    domain: { records: [], complete: true },
    dns_zone: new Map(),
    mailbox: { read: false, records: [] },
    database: { read: false, records: [] },
    ftp_user: { read: false, records: [] },
  };
}

const PANEL = panel([
  plan(1, 'Business', {
    resources: { disk_space: '10737418240', traffic: -1, domains: 10 },
    permissions: { ssh: 1, backup: '0', ftp: true },
    php: { memory_limit: '512M', max_execution_time: 60, upload_max_filesize: 64 },
    php_fpm: { pm: 'ondemand', max_children: 10, status: null, status_ip_restriction: null },
  }),
  plan(2, 'Legacy #2: "old"', { resources: { disk_space: 1, inodes: 5 }, permissions: { ssh: 'yes' }, php: {} }),
  plan(3, 'Business', { resources: { disk_space: 2 } }),
  plan(4, '', {}),
]);

/** `text` rewritten to describe `live`; it validates and then plans to no hosting plan update (a plan the panel lacks, or marked absent, stays as written: a create or a delete). */
function into(text: string, live: Live, withPlans = false): { text: string; warnings: readonly string[] } {
  const before = validateManifest(text, 'm.yaml');
  if (before.desired === undefined) throw new Error(`test manifest invalid: ${JSON.stringify(before.diagnostics)}`);
  const { edits, warnings } = adopt(
    before.desired,
    new LiveModel(live),
    withPlans ? { with: new Set(['hosting-plans']) } : {},
  );
  const out = rewrite(text, edits, 'm.yaml');
  const after = validateManifest(out, 'm.yaml');
  expect(after.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (after.desired === undefined) throw new Error('the rewrite does not validate');
  const changes = diff(after.desired, live).changes;
  expect(changes.filter((c) => c.type === 'hosting_plan' && c.action === 'update')).toEqual([]);
  return { text: out, warnings };
}

describe('export --with hosting-plans', () => {
  it("writes the panel's values in the manifest's terms; what it refuses is left out, warned, by plan and key", () => {
    const warnings: string[] = [];
    const notes: string[] = [];
    const plans = exportPlans(
      PANEL.hosting_plan,
      (w) => warnings.push(w),
      (n) => notes.push(n),
    );
    expect(plans).toEqual([
      {
        name: 'Business',
        resources: { disk_space: 10737418240, traffic: -1, domains: 10 },
        permissions: { ssh: true, backup: false, ftp: true },
        php: { memory_limit: '512M', max_execution_time: 60 },
        php_fpm: { pm: 'ondemand', max_children: 10, status: null, status_ip_restriction: null },
      },
      { name: 'Legacy #2: "old"', resources: { disk_space: 1, inodes: 5 } },
    ]);
    expect(warnings).toEqual([
      'hosting plan id 4 has an empty name, which the manifest refuses: left out',
      '"php.upload_max_filesize" of hosting plan "Business" must be a PHP size like "512M" (quoted), or "-1": ' +
        "the panel's value 64 is left out (not managed)",
      'hosting plan "Business" (id 3) has the name of another plan, and the manifest lists a name once: left out',
      '"permissions.ssh" of hosting plan "Legacy #2: \\"old\\"" must be true or false: ' +
        'the panel\'s value "yes" is left out (not managed)',
    ]);
    expect(notes).toEqual([
      'hosting plan "Legacy #2: \\"old\\"": resources.inodes written as the panel holds it ' +
        '(keys panel-provision does not know: validate warns of them)',
    ]);
    const text = manifestText([], [], [{ key: 'hosting_plans', entries: plans }]);
    expect(text).toContain(`hosting_plans:
  - name: Business
    resources:
      disk_space: 10737418240
      traffic: -1
      domains: 10
    permissions:
      ssh: true
      backup: false
      ftp: true
    php:
      memory_limit: "512M"
      max_execution_time: 60
    php_fpm:
      pm: ondemand
      max_children: 10
      status: null
      status_ip_restriction: null
  - name: 'Legacy #2: "old"'
    resources:
      disk_space: 1
      inodes: 5
clients: []
`);
    const loaded = validateManifest(text, 'm.yaml');
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    if (loaded.desired === undefined) throw new Error('the export does not validate');
    // Without the plans left out (the planner takes its own one of two plans of a name).
    const written = panel(PANEL.hosting_plan.filter((p) => p.id <= 2));
    const changes = diff(loaded.desired, written).changes.filter((c) => c.type === 'hosting_plan');
    expect(changes).toEqual([]);
  });
});

const MANIFEST = `version: 1
hosting_plans:
  - name: Business          # the main product
    resources: {disk_space: 5368709120, domains: 10}
    permissions:
      ssh: false            # no shells
    php:
      memory_limit: '256M'
      open_basedir:
  - name: "Legacy #2"
    state: absent
  - name: New
    resources: {domains: 1}
clients: []
`;

const ADOPTED = panel([
  plan(1, 'Business', {
    resources: { disk_space: 10737418240, domains: '10' },
    permissions: { ssh: 1, backup: 0 },
    php: { memory_limit: '512M', open_basedir: '/srv/' },
  }),
  plan(2, 'Legacy #2', { resources: { disk_space: 1 } }),
  plan(5, 'Extra', { resources: { domains: 3 }, php: { memory_limit: '-1' } }),
]);

describe('export --into: hosting_plans', () => {
  it("gives the keys a listed plan manages the panel's values in their own style; absent and new plans stay", () => {
    const { text, warnings } = into(MANIFEST, ADOPTED);
    expect(text).toBe(
      MANIFEST.replace('disk_space: 5368709120', 'disk_space: 10737418240')
        .replace('ssh: false', 'ssh: true')
        .replace("'256M'", "'512M'")
        .replace('open_basedir:\n', 'open_basedir: /srv/\n'),
    );
    expect(warnings).toEqual([]);
    expect(into(text, ADOPTED).text).toBe(text);
  });

  it('warns of a key the panel lacks and of a value it cannot write, leaving both as written', () => {
    const live = panel([plan(1, 'Business', { resources: { disk_space: 'lots' }, permissions: { ssh: false } })]);
    const text = `version: 1\nhosting_plans:\n  - name: Business\n    resources: {disk_space: 1, domains: 2}\n    php: {max_execution_time: 5}\nclients: []\n`;
    const before = validateManifest(text, 'm.yaml').desired;
    if (before === undefined) throw new Error('invalid');
    const { edits, warnings } = adopt(before, new LiveModel(live));
    expect(edits).toEqual([]);
    expect(warnings).toEqual([
      '"resources.disk_space" of hosting plan "Business" must be a whole number (-1: unlimited; sizes in bytes): ' +
        'the panel\'s value "lots" cannot be written, so it is left as written',
      'hosting plan "Business": the panel\'s record has no "resources.domains": "resources.domains" left as written (plan refuses to manage it)',
      'hosting plan "Business": the panel\'s record has no "php": "php.max_execution_time" left as written (plan refuses to manage it)',
    ]);
  });

  it("with --with hosting-plans adds the panel's other plans whole, at the end of the list, in its style", () => {
    const { text } = into(MANIFEST, ADOPTED, true);
    expect(text.slice(text.indexOf('  - name: New'))).toBe(`  - name: New
    resources: {domains: 1}
  - name: Extra
    resources:
      domains: 3
    php:
      memory_limit: "-1"
clients: []
`);
    const flow = 'version: 1\nhosting_plans: [{name: Business}]\nclients: []\n';
    expect(into(flow, ADOPTED, true).text).toBe(
      'version: 1\nhosting_plans: [{name: Business}, {name: Extra, resources: {domains: 3}, php: {memory_limit: "-1"}}, ' +
        '{name: "Legacy #2", resources: {disk_space: 1}}]\nclients: []\n',
    );
    expect(into(flow, ADOPTED).text).toBe(flow);
  });

  it('a manifest without hosting_plans gets the section before clients, above its comments, dashes as its clients', () => {
    const text = `version: 1\n\n# our customers\nclients:\n- username: alice\n`;
    const live = panel([plan(5, 'Extra', { resources: { domains: 3 } })]);
    const { text: out } = into(text, { ...live, client: [] }, true);
    expect(out).toBe(
      `version: 1\n\nhosting_plans:\n- name: Extra\n  resources:\n    domains: 3\n# our customers\nclients:\n- username: alice\n`,
    );
    expect(into(text, live).text).toBe(text);
    expect(into('{version: 1, clients: []}\n', live, true).text).toBe(
      '{version: 1, hosting_plans: [{name: Extra, resources: {domains: 3}}], clients: []}\n',
    );
  });
});
