import { describe, expect, it } from 'vitest';
import { isCi } from '../src/ci.js';

describe('isCi', () => {
  it('is true for any non-empty CI but false and 0', () => {
    for (const value of ['true', '1', 'yes', 'TRUE', 'on', 'woodpecker', ' true '])
      expect(isCi({ CI: value })).toBe(true);
  });

  it('is false without CI, or with it empty, false or 0', () => {
    for (const value of [undefined, '', ' ', 'false', 'False', 'FALSE', '0', ' 0 '])
      expect(isCi({ CI: value })).toBe(false);
    expect(isCi({})).toBe(false);
  });
});
