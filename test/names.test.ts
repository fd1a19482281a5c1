import { describe, expect, it } from 'vitest';
import { closest, globMatcher, normalizeDomain } from '../src/names.js';

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
    ['[::1]', 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name'],
    ['fd00::1', 'contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name'],
  ])('refuses %j', (input, problem) => {
    expect(normalizeDomain(input)).toEqual({ problem });
  });
});

describe('globMatcher', () => {
  it('matches whole names: * any run (dots too), ? one character, the rest literal, case-insensitively', () => {
    const keep = globMatcher(['legacy-*', 'a?c', '*.keep.example', 'x.y']);
    expect(['legacy-1', 'legacy-', 'abc', 'ABC', 'www.keep.example', 'a.b.keep.example', 'x.y'].map(keep)).toEqual([true, true, true, true, true, true, true]);
    expect(['legacy', 'ac', 'abbc', 'keep.example', 'xzy', 'x.yz', 'my-legacy-1'].map(keep)).toEqual([false, false, false, false, false, false, false]);
  });

  it('matches nothing without patterns, and treats regular-expression characters literally', () => {
    expect(globMatcher([])('anything')).toBe(false);
    const keep = globMatcher(['a+b', '(x)', '[y]']);
    expect(['a+b', '(x)', '[y]'].map(keep)).toEqual([true, true, true]);
    expect(['aab', 'x', 'y'].map(keep)).toEqual([false, false, false]);
  });
});
