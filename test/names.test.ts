import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, globMatcher, normalizeDomain, wildcardMatcher } from '../src/names.js';

describe('closest', () => {
  it('suggests near names, counting a swap of neighbours as one edit', () => {
    expect(closest('domian', ['username', 'plan', 'email', 'domains'])).toBe('domains');
    expect(closest('Premium', ['Basic', 'Premium Plus'])).toBe('Premium Plus');
    expect(closest('basic', ['Basic', 'Standard'])).toBe('Basic');
    expect(closest('zzzzzz', ['Basic', 'Standard'])).toBeUndefined();
  });
});

describe('normalizeDomain', () => {
  it('lowercases and converts IDNs to punycode; a number is fine as a label, not as the last one', () => {
    expect(normalizeDomain('Bücher.Example')).toEqual({ name: 'xn--bcher-kva.example' });
    expect(normalizeDomain('1.2.example')).toEqual({ name: '1.2.example' });
    // The full stops IDNA maps are label separators of a name, too.
    expect(normalizeDomain('example\u3002com')).toEqual({ name: 'example.com' });
  });

  it('never returns a name whose last label is a number, whatever the spelling', () => {
    const unit = fc.constantFrom('1', '0', 'x', 'a', '.', '\u3002', '\uff0e', '\uff11', '\uff58', '\u2460', '-');
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 12 }), (input) => {
        const result = normalizeDomain(input);
        if ('name' in result) expect(result.name.split('.').at(-1)).not.toMatch(/^(?:\d+|0x[0-9a-f]*)$/);
      }),
      { numRuns: 2000 },
    );
  });
  it.each([
    ['', 'is empty'],
    ['example', 'needs at least two labels, like example.com'],
    ['a..example', 'has an invalid label "": use 1-63 letters, digits or inner hyphens'],
    ['-a.example', 'has an invalid label "-a": use 1-63 letters, digits or inner hyphens'],
    ['a_b.example', 'has an invalid label "a_b": use 1-63 letters, digits or inner hyphens'],
    ['example.com.', 'ends with a dot: write it without the trailing dot'],
    ['http://example.com', 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name'],
    // Address literals and the numbers the URL parser would rewrite into one ("127.1" -> "127.0.0.1").
    ['10.0.0.1', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['127.1', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['0x7f.0.0.2', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['example.0x10', 'is an IP address or a number, not a domain name: write a name like example.com'],
    // Spellings the URL parser maps onto those: fullwidth, mathematical, circled or superscript
    // digits, the ideographic, fullwidth and halfwidth full stops.
    ['127.\uff11', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['10.0.0\u30022', 'is an IP address or a number, not a domain name: write a name like example.com'],
    [
      '\uff11\uff10.\uff10.\uff10.\uff12',
      'is an IP address or a number, not a domain name: write a name like example.com',
    ],
    ['10.0.0\uff0e2', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['10.0.0\uff612', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['127.0.0.\u{1d7cf}', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['127.0.0.\u2460', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['127.0.0.\u00b9', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['example.\uff10x10', 'is an IP address or a number, not a domain name: write a name like example.com'],
    ['example.com\u3002', 'ends with a dot: write it without the trailing dot'],
    ['fd00\uff1a\uff1a1', 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name'],
    ['[::1]', 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name'],
    ['fd00::1', 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name'],
  ])('refuses %j', (input, problem) => {
    expect(normalizeDomain(input)).toEqual({ problem });
  });
});

describe('globMatcher', () => {
  it('matches whole names: * any run (dots too), ? one character, the rest literal, case-insensitively', () => {
    const keep = globMatcher(['legacy-*', 'a?c', '*.keep.example', 'x.y']);
    expect(['legacy-1', 'legacy-', 'abc', 'ABC', 'www.keep.example', 'a.b.keep.example', 'x.y'].map(keep)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['legacy', 'ac', 'abbc', 'keep.example', 'xzy', 'x.yz', 'my-legacy-1'].map(keep)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('matches nothing without patterns, and treats regular-expression characters literally', () => {
    expect(globMatcher([])('anything')).toBe(false);
    const keep = globMatcher(['a+b', '(x)', '[y]']);
    expect(['a+b', '(x)', '[y]'].map(keep)).toEqual([true, true, true]);
    expect(['aab', 'x', 'y'].map(keep)).toEqual([false, false, false]);
  });
});

describe('wildcardMatcher', () => {
  /** The meaning of a pattern, as a regular expression: the reference the matcher is held to. */
  const reference = (pattern: string, name: string): boolean =>
    new RegExp(
      `^${pattern.replace(/[\\^$.|+()[\]{}*?]/g, (ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : `\\${ch}`))}$`,
      'su',
    ).test(name);

  it('agrees with the regular expression a pattern means, on random patterns and names', () => {
    const text = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text(['a', 'b', '.', '*', '?', 'é', '😀']), text(['a', 'b', '.', 'é', '😀']), (pattern, name) => {
        expect(wildcardMatcher([pattern])(name)).toBe(reference(pattern, name));
      }),
      { numRuns: 3000 },
    );
  });

  it('is case-sensitive (plan names), where globMatcher folds case; ? is one character, an emoji included', () => {
    expect(wildcardMatcher(['Premium*'])('Premium Plus')).toBe(true);
    expect(wildcardMatcher(['Premium*'])('premium plus')).toBe(false);
    expect(globMatcher(['Premium*'])('premium plus')).toBe(true);
    expect(wildcardMatcher(['?'])('😀')).toBe(true);
    expect(wildcardMatcher([])('x')).toBe(false);
  });

  it('answers a pattern of many stars against a long name that fails only at its end (a regular expression backtracks for minutes)', () => {
    const pattern = `${'*a'.repeat(14)}*b`;
    expect(globMatcher([pattern])('a'.repeat(200))).toBe(false);
    expect(globMatcher([pattern])(`${'a'.repeat(200)}b`)).toBe(true);
  });
});
