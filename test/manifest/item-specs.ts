/**
 * The keys a domain item of the random manifests (arbitraries.ts) may carry beside its name and
 * state: settings (`php_version`, `https`, `redirect`) and a `dns` block, valid ones (as export
 * writes them) and ones with mistakes, each in flow style and, where it can be, as block lines.
 */

/**
 * A setting of a domain item: its key, its value in flow style, and (when it can be written so)
 * the lines of its value as a block.
 */
export interface SettingSpec {
  key: string;
  flow: string;
  block?: readonly string[];
}

/** Settings as export writes them, in flow and block style. */
export const VALID_SETTINGS: readonly SettingSpec[] = [
  { key: 'php_version', flow: '"8.3"' },
  { key: 'https', flow: '{force: true, lets_encrypt: false}', block: ['force: true', 'lets_encrypt: false'] },
  { key: 'https', flow: '{hsts: {max_age: 31536000, include_subdomains: true}}' },
  { key: 'https', flow: '{hsts: false}', block: ['hsts: false'] },
  { key: 'redirect', flow: '{to: "https://x.example/", status: 302}' },
  { key: 'redirect', flow: 'false' },
  { key: 'dns', flow: '{records: [{host: "@", type: A, value: 192.0.2.10}]}' },
  {
    key: 'dns',
    flow:
      '{ttl: 600, records: [{host: www, type: cname, value: x.example.}, ' +
      '{host: "@", type: MX, value: "10 mail.x.example.", ttl: 300}], prune: true, keep: ["_acme-challenge*"]}',
    block: [
      'ttl: 600',
      'records:',
      '  - host: www',
      '    type: cname',
      '    value: x.example.',
      '  - {host: "@", type: MX, value: "10 mail.x.example.", ttl: 300}',
      'prune: true',
      'keep:',
      '  - _acme-challenge*',
    ],
  },
  {
    key: 'dns',
    flow: '{records: [{host: _dmarc, type: TXT, value: hello}]}',
    block: ['records:', '  - host: _dmarc', '    type: TXT', '    value: hello', 'prune: false'],
  },
];

/** Settings with mistakes (errors and warnings). */
export const BAD_SETTINGS: readonly SettingSpec[] = [
  { key: 'php_version', flow: '8.10' },
  { key: 'https', flow: '{}' },
  { key: 'https', flow: '{hsts: true, forse: yes}', block: ['hsts: true', 'forse: yes'] },
  { key: 'https', flow: '{hsts: {max_age: 60, preload: true}}' },
  { key: 'redirect', flow: '{to: "https://alice.example/"}' },
  { key: 'redirect', flow: '{to: nope, status: 303}' },
  { key: 'dns', flow: '{records: [{host: www.alice.example., type: A, value: 10}]}' },
  { key: 'dns', flow: '{ttl: 30, records: [], keep: ["a b"]}', block: ['ttl: 30', 'records: []', 'keep: ["a b"]'] },
  {
    key: 'dns',
    flow: '{records: [{host: www, type: CNAME, value: x.}, {host: WWW, type: cname, value: x.}], purne: true}',
    block: ['records:', '  - host: www', '    type: CNAME', '    value: x.', '  - {host: WWW, type: cname, value: x.}'],
  },
  { key: 'dns', flow: '[]' },
  { key: 'dns', flow: '{records: [{host: "@", type: TXT, value: hi}, {host: "@", type: CNAME, value: y.}]}' },
];
