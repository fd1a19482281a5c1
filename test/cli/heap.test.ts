import { describe, expect, test } from 'vitest';
import { heapFlags, MANIFEST_HEAP_FLAGS, PLAN_HEAP_FLAGS, readsManifest } from '../../src/cli/heap.js';

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

describe('the heap flags of each command line', () => {
  test.each([
    [['validate', 'm.yaml'], MANIFEST_HEAP_FLAGS],
    [['export', '--into', 'm.yaml'], MANIFEST_HEAP_FLAGS],
    [['--no-color', 'validate', 'm.yaml'], MANIFEST_HEAP_FLAGS],
    // plan and apply read the panel's lists too: V8's own young generation, the old one bounded.
    [['plan', 'm.yaml'], PLAN_HEAP_FLAGS],
    [['apply', 'm.yaml'], PLAN_HEAP_FLAGS],
    [['plan', '--no-color', 'm.yaml'], PLAN_HEAP_FLAGS],
    [['export'], []],
    [['help', 'plan'], []],
    [['--version'], []],
  ])('%j', (args, expected) => {
    expect(heapFlags(args)).toEqual(expected);
  });

  test('plan and apply keep the old generation bound, not the young generation held at 1 MB; they optimize later', () => {
    expect(PLAN_HEAP_FLAGS).toEqual([
      '--semi-space-growth-factor=1',
      '--heap-growing-percent=25',
      '--interrupt-budget=1081344',
    ]);
    expect(MANIFEST_HEAP_FLAGS).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=25']);
  });
});
