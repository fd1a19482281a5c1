/**
 * The manifest's `hosting_plans` list and `prune.hosting_plans` (docs/manifest.md, "Hosting plans";
 * issue 25, item 1): a valid list gives exactly these DesiredHostingPlans and Prune keys; every
 * refusal and warning is located at file:line:column in the house's words; the whole and the
 * chunked read agree, for a small file and a large one; the schema lists exactly the plan's
 * known keys; typed keep entries match plan names as written.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import {
  CHUNKED_DIAGNOSTICS_ABOVE,
  parseManifestChunked,
  parseManifestWhole,
  validateManifest,
} from '../../src/manifest/load.js';
import { KNOWN_KEYS, PLAN_OBJECTS } from '../../src/kinds/hosting-plan/fields.js';
import { planNameMatcher } from '../../src/kinds/hosting-plan/manifest.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const FILE = 'm.yaml';
const at = (line: number, column: number) => ({ file: FILE, line, column });

function report(text: string): string[] {
  return parseManifest(text, FILE).diagnostics.map(formatDiagnostic);
}

/** The whole read, the chunked read (when it answers) and validateManifest give one answer. */
function agree(text: string): ReturnType<typeof parseManifestWhole> {
  const whole = parseManifestWhole(text, FILE);
  expect(validateManifest(text, FILE)).toEqual(whole);
  const chunked = parseManifestChunked(text, FILE, 64);
  if (chunked !== undefined) expect(chunked).toEqual(whole);
  const keeping = parseManifestChunked(text, FILE, 64, true);
  if (keeping !== undefined) expect(keeping).toEqual(whole);
  return whole;
}

const VALID = `version: 1
hosting_plans:
  - name: Business
    resources: {disk_space: 10737418240, traffic: -1, domains: 10, databases: 10}
    permissions: {ssh: true, backup: true}
    php: {memory_limit: 512M, max_execution_time: 60}
    php_fpm: {pm: ondemand, max_children: 10}
  - name: Premium Plus
    php_fpm: {status: null}
  - name: Legacy
    state: absent
clients:
  - username: alice
    plan: Premium Plus
prune:
  hosting_plans: true
  keep: [legacy-*, {hosting_plan: "Premium *"}]
`;

describe('hosting_plans, valid', () => {
  it('gives each plan with the keys it manages, located at its name, and the prune keys', () => {
    const result = agree(VALID);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.hostingPlans).toEqual([
      {
        name: 'Business',
        state: 'present',
        wants: {
          resources: { disk_space: 10737418240, traffic: -1, domains: 10, databases: 10 },
          permissions: { ssh: true, backup: true },
          php: { memory_limit: '512M', max_execution_time: 60 },
          php_fpm: { pm: 'ondemand', max_children: 10 },
        },
        loc: at(3, 11),
      },
      { name: 'Premium Plus', state: 'present', wants: { php_fpm: { status: null } }, loc: at(8, 11) },
      { name: 'Legacy', state: 'absent', wants: {}, loc: at(10, 11) },
    ]);
    expect(result.desired?.prune).toEqual({
      domains: false,
      clients: false,
      keep: ['legacy-*'],
      hostingPlans: true,
      keepHostingPlans: ['Premium *'],
      loc: at(15, 1),
    });
    // The chunked read takes it (the list stands in the header).
    expect(parseManifestChunked(VALID, FILE)).toEqual(result);
  });

  it('a list at column 0, after the clients: the chunked read takes it too', () => {
    const text = 'version: 1\nclients:\n- username: alice\nhosting_plans:\n- name: Basic\n  resources: {domains: 1}\n';
    const result = agree(text);
    expect(result.desired?.hostingPlans).toEqual([
      { name: 'Basic', state: 'present', wants: { resources: { domains: 1 } }, loc: at(5, 9) },
    ]);
    expect(parseManifestChunked(text, FILE)).toEqual(result);
  });

  it('none listed: no hostingPlans, and prune without its plan keys', () => {
    for (const text of [
      'version: 1\nclients: []\n',
      'version: 1\nhosting_plans: []\nclients: []\nprune: {clients: true}\n',
    ]) {
      const { desired } = agree(text);
      expect(desired).toBeDefined();
      expect(desired && 'hostingPlans' in desired).toBe(false);
      expect(desired?.prune.hostingPlans).toBeUndefined();
      expect(desired?.prune.keepHostingPlans).toBeUndefined();
    }
  });

  it('a key panel-provision does not know is a warning with "did you mean", and is managed', () => {
    const text = 'version: 1\nclients: []\nhosting_plans:\n  - name: Basic\n    permissions: {sh: true}\n';
    const result = agree(text);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:5:19: warning: "permissions.sh" of hosting plan "Basic" is not a key panel-provision knows in "permissions": did you mean "ssh"? (releases differ: plan refuses it if the panel\'s plans lack it)',
    ]);
    expect(result.desired?.hostingPlans?.[0]?.wants).toEqual({ permissions: { sh: true } });
  });
});

const BAD = `version: 1
hosting_plans:
  - name: Basic
    resources: {disk_space: 1.5, traffic: unlimited, disk_spcae: 3, domains: -2}
    permissions: {ssh: yes, backup: 1}
    php: {memory_limit: 512, post_max_size: 64MB, env: [a], max_execution_time: 60}
    php_fpm: {pm: true, max_children: 10}
  - name: Basic
  - name: ""
  - name: 2024
  - Premium
  - {}
  - name: Old
    state: absent
    resources: {domains: 1}
    php: {}
  - {name: Gone, state: gone}
  - name: Empty
    permissions: {}
    resource: {domains: 1}
    php_fpm: 5
  - name: " Spaced "
clients:
  - username: alice
    plan: Old
prune:
  hosting_plans: yes
  keep: [legacy-*, "Premium Plus", {hosting_plan: ""}, {hosting_plans: x}, {}, {hosting_plan: 3}, {hosting_plan: " P"}, 3]
`;

describe('hosting_plans, refused', () => {
  it('every problem at its place, in words that say what to do', () => {
    expect(report(BAD)).toEqual([
      'm.yaml:4:29: error: "resources.disk_space" of hosting plan "Basic" must be a whole number (-1: unlimited; sizes in bytes)',
      'm.yaml:4:43: error: "resources.traffic" of hosting plan "Basic" must be a whole number (-1: unlimited; sizes in bytes)',
      'm.yaml:4:54: warning: "resources.disk_spcae" of hosting plan "Basic" is not a key panel-provision knows in "resources": did you mean "disk_space"? (releases differ: plan refuses it if the panel\'s plans lack it)',
      'm.yaml:4:78: error: "resources.domains" of hosting plan "Basic" must be a whole number (-1: unlimited; sizes in bytes)',
      'm.yaml:5:24: error: "permissions.ssh" of hosting plan "Basic" must be true or false',
      'm.yaml:5:37: error: "permissions.backup" of hosting plan "Basic" must be true or false',
      'm.yaml:6:25: error: "php.memory_limit" of hosting plan "Basic" must be a PHP size like "512M" (quoted), or "-1"',
      'm.yaml:6:45: error: "php.post_max_size" of hosting plan "Basic" must be a PHP size like "512M" (quoted), or "-1"',
      'm.yaml:6:51: warning: "php.env" of hosting plan "Basic" is not a key panel-provision knows in "php": did you mean "env_variables"? (releases differ: plan refuses it if the panel\'s plans lack it)',
      'm.yaml:6:56: error: "php.env" of hosting plan "Basic" must be a string, a number, true or false, or null',
      'm.yaml:7:19: error: "php_fpm.pm" of hosting plan "Basic" must be a string, a number or null',
      'm.yaml:8:11: error: hosting plan "Basic" is listed twice (first at line 3): remove one',
      'm.yaml:9:11: error: "name" of hosting plan #3 is empty: give the plan\'s name as the panel shows it',
      'm.yaml:10:11: error: "name" of hosting plan #4 must be a string: the plan\'s name as the panel shows it: quote it, like name: "2024"',
      'm.yaml:11:5: error: hosting plan #5 must be a mapping with a "name" (and optionally "state", "resources", "permissions", "php" and "php_fpm")',
      'm.yaml:12:5: error: hosting plan #6 has no "name": add the plan\'s name as the panel shows it, like name: Business',
      'm.yaml:15:5: error: hosting plan "Old" has state: absent: remove "resources" and "php" (a plan that is deleted has no other keys than "name" and "state"), or remove "state: absent" to keep the plan',
      'm.yaml:17:25: error: "state" of hosting plan "Gone" must be present or absent, not "gone": did you mean "absent"?',
      'm.yaml:19:5: warning: "permissions" of hosting plan "Empty" is empty and manages nothing: give its keys, like permissions: {ssh: true, backup: true}, or remove it',
      'm.yaml:20:5: error: unknown key "resource" in hosting plan "Empty": did you mean "resources"?',
      'm.yaml:21:14: error: "php_fpm" of hosting plan "Empty" must be a mapping, like php_fpm: {pm: ondemand, max_children: 10}',
      'm.yaml:22:11: warning: the name " Spaced " of hosting plan " Spaced " has spaces around it: plan names are compared exactly, so it names another plan than one without them',
      'm.yaml:25:11: error: "plan" of client "alice" names hosting plan "Old", which is marked state: absent at line 13: give the client another plan, or remove "state: absent" from the plan',
      'm.yaml:27:18: error: "prune.hosting_plans" must be true or false, not "yes"',
      'm.yaml:28:20: error: pattern "Premium Plus" in "prune.keep" holds a space (U+0020), which no username or domain name has, so it would keep nothing: write "PremiumPlus"; for a hosting plan\'s name, write {hosting_plan: "Premium Plus"}',
      'm.yaml:28:51: error: hosting plan pattern "" in "prune.keep" is empty: write a plan\'s name, with * or ? as wildcards (like {hosting_plan: "Premium*"}), or remove it',
      'm.yaml:28:57: error: unknown key "hosting_plans" in pattern #4 of "prune.keep": did you mean "hosting_plan"?',
      'm.yaml:28:76: error: pattern #5 in "prune.keep" has no "hosting_plan": a mapping in "keep" names hosting plans, like {hosting_plan: "Premium*"}',
      'm.yaml:28:95: error: "hosting_plan" in pattern #6 in "prune.keep" must be a string: a plan\'s name, with * or ? as wildcards, like {hosting_plan: "Premium*"}',
      'm.yaml:28:114: warning: hosting plan pattern " P" in "prune.keep" has spaces around it: it keeps only plans whose names have them (names are compared exactly): write "P" for the plan without them',
      'm.yaml:28:121: error: pattern #8 in "prune.keep" must be a string, like "legacy-*", or a hosting plan\'s pattern, like {hosting_plan: "Premium*"}',
    ]);
    expect(agree(BAD).desired).toBeUndefined();
  });

  it('the list itself: null, or not a list', () => {
    expect(report('version: 1\nhosting_plans:\nclients: []\n')).toEqual([
      'm.yaml:2:15: error: "hosting_plans" must be a list of hosting plans (write "hosting_plans: []" for none)',
    ]);
    expect(report('version: 1\nhosting_plans: Basic\nclients: []\n')).toEqual([
      'm.yaml:2:16: error: "hosting_plans" must be a list of hosting plans',
    ]);
  });

  it('a client on a plan marked absent, found by the chunked read of a large file too', () => {
    const clients = Array.from({ length: 30000 }, (_, i) => `  - username: u${i}\n    plan: Basic\n`).join('');
    const text = `version: 1\nhosting_plans:\n  - {name: Legacy, state: absent}\nclients:\n${clients}  - username: last\n    plan: Legacy\n`;
    expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
    const keeping = parseManifestChunked(text, FILE, undefined, true);
    const message =
      'm.yaml:60006:11: error: "plan" of client "last" names hosting plan "Legacy", which is marked state: absent at line 3: give the client another plan, or remove "state: absent" from the plan';
    expect(keeping?.diagnostics.map(formatDiagnostic)).toEqual([message]);
    expect(validateManifest(text, FILE)).toEqual(keeping);
    expect(parseManifestWhole(text, FILE)).toEqual(keeping);
  });
});

describe('the schema and the plan room agree', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/manifest.schema.json', import.meta.url), 'utf8')) as {
    $defs: { hosting_plan: { properties: Record<string, { properties?: Record<string, unknown> }> } };
  };

  it('lists exactly the known keys of each object (editors complete them)', () => {
    for (const object of PLAN_OBJECTS)
      expect(Object.keys(schema.$defs.hosting_plan.properties[object]?.properties ?? {})).toEqual([
        ...KNOWN_KEYS[object],
      ]);
  });
});

describe('typed keep entries', () => {
  it('match plan names whole, case-sensitive, spaces and any text included', () => {
    const keep = planNameMatcher(['Premium *', 'B?siness', 'Alt (2019)']);
    expect(['Premium Plus', 'Premium ', 'Business', 'Alt (2019)'].map(keep)).toEqual([true, true, true, true]);
    expect(['premium plus', 'PremiumPlus', 'Business Pro', 'Alt 2019', 'x Premium Plus'].map(keep)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(planNameMatcher([])('anything')).toBe(false);
  });

  it('a string pattern with a space says to write a typed entry for a plan', () => {
    expect(report('version: 1\nclients: []\nprune: {keep: ["Premium Plus"]}\n')).toEqual([
      'm.yaml:3:16: error: pattern "Premium Plus" in "prune.keep" holds a space (U+0020), which no username or domain name has, so it would keep nothing: write "PremiumPlus"; for a hosting plan\'s name, write {hosting_plan: "Premium Plus"}',
    ]);
  });
});
