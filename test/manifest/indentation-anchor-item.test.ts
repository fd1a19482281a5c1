/**
 * A list item whose anchor (or tag) stands alone on its `-` line, its mapping on the lines
 * below (`- &base` then `  name: info`): valid YAML, never an indentation mistake.
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/load.js';
import { indentationMistakes } from '../../src/manifest/indentation.js';

const HEAD = [
  'version: 1',
  'clients:',
  '  - username: big',
  '    domains:',
  '      - name: m.example',
  '        mailboxes:',
];

describe('an anchor alone on a list item line', () => {
  it('opens the mapping below it, as yaml reads it', () => {
    for (const props of ['&mb', '!!map', '&mb !!map']) {
      const text = [
        ...HEAD,
        `          - ${props}`,
        '            name: info',
        '            quota: 5',
        '          - other',
        '',
      ].join('\n');
      expect(parse(text)).toMatchObject({
        clients: [{ domains: [{ mailboxes: [{ name: 'info', quota: 5 }, 'other'] }] }],
      });
      expect(indentationMistakes(text)).toEqual([]);
      expect(parseManifest(text, 'm.yaml').diagnostics).toEqual([]);
    }
  });

  it('still finds a list item read as more of a scalar after one', () => {
    const text = ['a:', '  - &x', '    b: c', '  - d', '    - e', ''].join('\n');
    expect(indentationMistakes(text).map((m) => [m.line, m.continued])).toEqual([[5, true]]);
  });
});
