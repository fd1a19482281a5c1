import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_REDACTED_LENGTH, REDACTED, Redactions } from '../src/redact.js';

/** The reference: one expression of every form, longest first, so that at each position the longest wins. */
function naive(text: string, forms: readonly string[]): string {
  const sorted = [...new Set(forms)].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return text;
  return text.replace(
    new RegExp(sorted.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g'),
    REDACTED,
  );
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

  /** A key with every character HTML escaping changes, spaces, and what URL encoders disagree on. */
  const hostile = `k'"<>& x/?#+~é`;
  const htmlOld = (v: string) =>
    v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const phpUrlencode = (v: string) =>
    encodeURIComponent(v)
      .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');

  it.each([
    ['PHP 8.1+ htmlspecialchars (&#039;)', htmlOld(hostile).replace(/'/g, '&#039;')],
    ['PHP < 8.1 htmlspecialchars (the apostrophe raw)', htmlOld(hostile)],
    [
      'HTML, no quotes escaped (ENT_NOQUOTES)',
      hostile.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    ],
    [
      'HTML, numeric references in upper-case hex',
      hostile.replace(/[<>&'"]/g, (c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`),
    ],
    ['encodeURI (reserved characters raw)', encodeURI(hostile)],
    ["PHP's urlencode (space as +, ~ encoded)", phpUrlencode(hostile)],
    [
      "PHP's rawurlencode",
      encodeURIComponent(hostile).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    ],
    ['half URL-encoded, half raw', `${encodeURIComponent(hostile.slice(0, 6))}${hostile.slice(6)}`],
    [
      'JSON inside, HTML-escaped outside (one level each, per character)',
      JSON.stringify(hostile).slice(1, -1).replace(/\//g, '\\/').replace(/</g, '&lt;'),
    ],
  ])('blanks a credential echoed as %s', (_, form) => {
    expect(form).not.toBe(hostile);
    const redactions = new Redactions().add(hostile);
    expect(redactions.redact(`panel said: (${form})!`)).toBe(`panel said: (${REDACTED})!`);
  });

  it('blanks any per-character mix of the escapes', () => {
    const escapes: ((c: string) => string)[] = [
      (c) => c,
      (c) => encodeURIComponent(c),
      (c) => encodeURIComponent(c).toLowerCase(),
      (c) => `&#${c.codePointAt(0) ?? 0};`,
      (c) => `&#x${(c.codePointAt(0) ?? 0).toString(16)};`,
      (c) => `&#${String(c.codePointAt(0) ?? 0).padStart(3, '0')};`,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
      (c) => (c === ' ' ? '+' : c),
      (c) => JSON.stringify(c).slice(1, -1),
      (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
    ];
    const printable = fc.string({
      unit: fc.constantFrom(...Array.from(`ab0 '"<>&/?#+%;\\~é`)),
      minLength: MIN_REDACTED_LENGTH,
      maxLength: 16,
    });
    fc.assert(
      fc.property(
        printable,
        fc.array(fc.nat(escapes.length - 1), { minLength: 16, maxLength: 16 }),
        (secret, choice) => {
          const form = Array.from(secret)
            .map((c, i) => (escapes[choice[i] ?? 0] ?? String)(c))
            .join('');
          const redactions = new Redactions().add(secret);
          expect(redactions.redact(`(${form})`)).toBe(`(${REDACTED})`);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('leaves alone what decodes to another value, and escapes that are not whole', () => {
    const redactions = new Redactions().add("k'y&z");
    for (const text of ['k%27x&z', 'k&#39;y&am', 'k&#39y&amp;z', "k'y%2", 'k%2G'])
      expect(redactions.redact(text)).toBe(text);
    expect(redactions.redact('k&#39;y&amp;z')).toBe(REDACTED);
  });

  it('reads only its own entity names: `&__proto__;` is text, not a character', () => {
    const redactions = new Redactions().add('a<b-Secret');
    expect(redactions.redact('x&__proto__;a&lt;b-Secret')).toBe(`x&__proto__;${REDACTED}`);
    expect(redactions.redact('a&__proto__;b-Secret')).toBe('a&__proto__;b-Secret');
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
    const word = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', '/', '"', 'é', '&'),
      minLength: 0,
      maxLength: 10,
    });
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), fc.array(word, { maxLength: 12 }), (secrets, parts) => {
        const redactions = new Redactions();
        for (const secret of secrets) redactions.add(secret);
        const kept = secrets.filter((s) => s.length >= MIN_REDACTED_LENGTH);
        // Each credential's plain form, and its other forms, inside the text now and then.
        const text = parts
          .map((p, i) => (i % 3 === 0 && kept.length > 0 ? `${p}${kept[i % kept.length] ?? ''}` : p))
          .join('');
        const forms = kept.flatMap((s) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]);
        const safe = redactions.redact(text);
        for (const secret of kept) expect(safe.replaceAll(REDACTED, '\u0000')).not.toContain(secret);
        // Where only plain forms occur, the result is the reference's.
        if (forms.every((f) => kept.includes(f))) expect(safe).toBe(naive(text, kept));
      }),
      { numRuns: 500 },
    );
  });

  it('holds credentials that part late, early, or are prefixes of each other, in any order', () => {
    // Three letters: the later credentials run along the earlier ones' tails and part from them
    // anywhere, or end inside them.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', '%'), minLength: 4, maxLength: 14 });
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 24 }),
        fc.array(word, { maxLength: 8 }),
        (secrets, others) => {
          const redactions = new Redactions();
          for (const secret of secrets) redactions.add(secret);
          expect(redactions.size).toBe(new Set(secrets).size);
          for (const text of [...secrets, ...others].map((w, i) => `x${w}y${secrets[i % secrets.length] ?? ''}`))
            expect(redactions.redact(text)).toBe(naive(text, secrets));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds 20,000 generated passwords, each blanked and nothing else', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const passwords = Array.from({ length: 20_000 }, () =>
      Array.from({ length: 24 }, () => alphabet[randomInt(alphabet.length)]).join(''),
    );
    const redactions = new Redactions();
    for (const password of passwords) redactions.add(password);
    expect(redactions.size).toBe(new Set(passwords).size);
    for (const password of passwords.slice(0, 2000)) {
      expect(redactions.redact(`<${password}>`)).toBe(`<${REDACTED}>`);
      // One code unit short of a credential is none.
      expect(redactions.redact(`<${password.slice(0, -1)}>`)).toBe(`<${password.slice(0, -1)}>`);
    }
  });
});
