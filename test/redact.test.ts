import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_REDACTED_LENGTH, REDACTED, Redactions } from '../src/redact.js';

/** The reference: one expression of every form, longest first, so that at each position the longest wins. */
function naive(text: string, forms: readonly string[]): string {
  const sorted = [...new Set(forms)].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return text;
  return text.replace(new RegExp(sorted.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g'), REDACTED);
}

describe('Redactions', () => {
  const key = 'k/é "<&>\' +x';

  it.each([
    ['as is', key],
    ['URL-encoded', encodeURIComponent(key)],
    ['form-encoded', encodeURIComponent(key).replace(/%20/g, '+')],
    ['URL-encoded, lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['JSON-escaped as PHP does', 'k\\/\\u00e9 \\"<&>\' +x'],
    ['HTML-escaped', 'k/é &quot;&lt;&amp;&gt;&#39; +x'],
    ['HTML-escaped, hex apostrophe', 'k/é &quot;&lt;&amp;&gt;&#x27; +x'],
  ])('blanks a credential echoed %s', (_, form) => {
    const redactions = new Redactions().add(key);
    expect(redactions.redact(`panel said: <${form}>!`)).toBe(`panel said: <${REDACTED}>!`);
  });

  it('leaves values shorter than MIN_REDACTED_LENGTH alone, and text without credentials untouched', () => {
    const redactions = new Redactions().add('abc');
    expect(MIN_REDACTED_LENGTH).toBe(4);
    expect(redactions.size).toBe(0);
    expect(redactions.redact('abc abcd')).toBe('abc abcd');
    expect(new Redactions().add('secret-1').redact('nothing here')).toBe('nothing here');
  });

  it('blanks overlapping credentials whole: the longest that starts at a position wins', () => {
    const redactions = new Redactions().add('abcd').add('abcdef').add('cdefgh');
    expect(redactions.redact('xabcdefghy')).toBe(`x${REDACTED}ghy`);
    expect(redactions.redact('abcdabcd')).toBe(`${REDACTED}${REDACTED}`);
  });

  it('matches the reference for any credentials and any text', () => {
    // A small alphabet makes overlaps and near-misses common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '/', '"', 'é', '&'), minLength: 0, maxLength: 10 });
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), fc.array(word, { maxLength: 12 }), (secrets, parts) => {
        const redactions = new Redactions();
        for (const secret of secrets) redactions.add(secret);
        const kept = secrets.filter((s) => s.length >= MIN_REDACTED_LENGTH);
        // Each credential's plain form, and its other forms, inside the text now and then.
        const text = parts.map((p, i) => (i % 3 === 0 && kept.length > 0 ? `${p}${kept[i % kept.length] ?? ''}` : p)).join('');
        const forms = kept.flatMap((s) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]);
        const safe = redactions.redact(text);
        for (const secret of kept) expect(safe.replaceAll(REDACTED, '\u0000')).not.toContain(secret);
        // Where only plain forms occur, the result is the reference's.
        if (forms.every((f) => kept.includes(f))) expect(safe).toBe(naive(text, kept));
      }),
      { numRuns: 500 },
    );
  });
});
