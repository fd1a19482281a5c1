import { describe, expect, test } from 'vitest';
import { readsManifest } from '../../src/cli/heap.js';

describe('which command lines run under the heap flags of a manifest read', () => {
  test.each([
    [['plan', 'm.yaml'], true],
    [['validate', 'm.yaml'], true],
    [['apply', 'm.yaml'], true],
    [['export', '--into', 'm.yaml'], true],
    [['export', '--into=m.yaml'], true],
    // The global --no-color before the command does not hide it.
    [['--no-color', 'plan', 'm.yaml'], true],
    [['--no-color', 'export', '--into', 'dir'], true],
    [['export'], false],
    [['snapshot', '--out', 's.json'], false],
    [['help', 'plan'], false],
    [['--version'], false],
    [[], false],
  ])('%j: %s', (args, expected) => {
    expect(readsManifest(args)).toBe(expected);
  });
});
