/**
 * `hosting_plans` lists as text for the chunked-read property tests (arbitraries.ts): valid ones
 * and ones with every kind of mistake, standing before `clients:` or at the end.
 */
import fc from 'fast-check';

/** A `hosting_plans:` list's lines, and whether it stands before `clients:` or at the end. */
export interface PlanLines {
  lines: string[];
  first: boolean;
}

/**
 * Valid `hosting_plans` lists: the plans the clients name (never one marked absent: "Legacy"
 * and "Old Plan" are named by no client), block or flow, indented or not (a list at column 0
 * leaves the text to the whole read).
 */
export const validPlans: fc.Arbitrary<PlanLines | undefined> = fc.option(
  fc.record({
    lines: fc.constantFrom(
      ['hosting_plans: []'],
      ['hosting_plans:', '  - name: Basic', '    resources: {disk_space: 1073741824, traffic: -1}'],
      [
        'hosting_plans:  # the catalogue',
        '  - name: Business Pro',
        '    resources:',
        '      domains: 10',
        '      databases: -1',
        '    permissions: {ssh: true, backup: false}',
        '    php: {memory_limit: 512M, max_execution_time: 60}',
        '    php_fpm: {pm: ondemand, max_children: 10, status: null}',
        '  # retired',
        '  - {name: Legacy, state: absent}',
      ],
      [
        'hosting_plans:',
        '- name: "Premium Plus"',
        '  php: {upload_max_filesize: "64M"}',
        '- name: Old Plan',
        '  state: absent',
      ],
      ['hosting_plans: [{name: Basic, permissions: {ftp: true}}, {name: Legacy, state: absent}]'],
      ['hosting_plans:', '    - name: Basic', '      resources: {ftp_users: 3}'],
    ),
    first: fc.boolean(),
  }),
  { nil: undefined },
);

/** `hosting_plans` lists with mistakes (and a valid one): every kind of refusal and warning. */
export const anyPlans: fc.Arbitrary<PlanLines | undefined> = fc.option(
  fc.record({
    lines: fc.constantFrom(
      ['hosting_plans:'],
      ['hosting_plans: Basic'],
      ['hosting_plans:', '  - Basic', '  - {}', '  - name: ""', '  - name: 2024'],
      ['hosting_plans:', '  - name: Basic', '    resources: {disk_space: 1.5, traffic: unlimited, disk_spcae: 3}'],
      ['hosting_plans:', '  - name: Basic', '    permissions: {ssh: yes}', '    php: {memory_limit: 512}'],
      ['hosting_plans:', '  - name: Basic', '  - name: Basic', '    state: gone'],
      ['hosting_plans:', '  - name: Business Pro', '    state: absent', '    resources: {domains: 1}'],
      ['hosting_plans:', '  - {name: Basic, state: absent}', '  - {name: Premium Plus, resource: {}}'],
      [
        'hosting_plans:',
        '  - name: Basic',
        '    php: {env: [a], pm: 3}',
        '    php_fpm: {pm: true}',
        '    resources: 5',
      ],
      ['hosting_plans:', '  - name: Basic', '    permissions: {}'],
    ),
    first: fc.boolean(),
  }),
  { nil: undefined },
);
