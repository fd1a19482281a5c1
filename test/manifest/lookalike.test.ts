import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GENERATED, generateConfusablesSource, loadData } from '../../scripts/generate-confusables.js';
import { confusablePrototype, lookalikeDiagnostics, lookalikeGroups, skeleton } from '../../src/manifest/lookalike.js';
import { parseManifest } from '../../src/manifest/index.js';

describe('skeleton', () => {
  it('of an ASCII name, folded a character at a time, is what the whole-name folding gives', () => {
    // A zero-width space (invisible: dropped) makes the name non-ASCII, so it takes the whole-name path.
    const slow = (name: string): string => skeleton(`${name}\u200b`);
    for (let code = 0; code < 0x80; code++)
      expect(skeleton(String.fromCharCode(code)), `U+${code.toString(16)}`).toBe(slow(String.fromCharCode(code)));
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('r', 'n', 'v', 'w', 'm', '0', '1', 'I', 'l', '|', '_', ' ', 'A', 'Z'),
            fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
          ),
          maxLength: 12,
        }),
        (name) => {
          expect(skeleton(name)).toBe(slow(name));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('folds case, spacing, NFKC forms and common Cyrillic/Greek look-alikes', () => {
    expect(skeleton('pаypal')).toBe('paypal'); // Cyrillic а
    expect(skeleton('ΡΑΥΡΑL')).toBe('paypal'); // Greek capitals, lowercased first
    expect(skeleton('ｐａｙｐａｌ')).toBe('paypal'); // fullwidth, by NFKC
    expect(skeleton('pay\u200bpal ')).toBe('paypal'); // zero-width space, trailing space
    expect(skeleton('rnodern')).toBe('modem');
    expect(skeleton('a1ice0')).toBe('alice' + 'o');
    expect(skeleton('bob')).not.toBe(skeleton('rob'));
  });

  it("knows Unicode's confusables data (UTS #39), not only a hand-picked table", () => {
    // Armenian ց (U+0581), Cherokee Ꭰ (U+13A0), Lisu ꓲ (U+A4F2), Latin ɩ (U+0269): none is in the hand-picked table.
    expect(skeleton('ցoogle')).toBe(skeleton('google'));
    expect(skeleton('Ꭰomain')).toBe(skeleton('domain'));
    expect(skeleton('ꓲogin')).toBe(skeleton('login'));
    expect(skeleton('ɩnbox')).toBe(skeleton('inbox'));
    expect(skeleton('shop')).not.toBe(skeleton('ship'));
  });

  it('the committed table is the data as the build generates it (run npm run build when this fails)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(generateConfusablesSource(loadData()));
  });

  it('the table gives each character of the data its prototype, and nothing for other characters', () => {
    const data = loadData();
    const wrong = Object.entries(data).filter(([char, prototype]) => confusablePrototype(char) !== prototype);
    expect(wrong).toEqual([]);
    // Characters outside the data: every 61st code point, the table's markers, lone surrogates, and pieces of entries.
    const others = Array.from({ length: 0x30000 / 61 }, (_, i) => String.fromCodePoint(i * 61)).filter(
      (c) => !Object.hasOwn(data, c),
    );
    others.push('\u0001', '\u0002', '\ud835', '\udc00', 'rn', '');
    expect(others.filter((c) => confusablePrototype(c) !== undefined)).toEqual([]);
  });

  it('groups different names that share a skeleton, once each', () => {
    const groups = lookalikeGroups([
      { name: 'alice' },
      { name: 'bob' },
      { name: 'a1ice' },
      { name: 'alice' },
      { name: 'rob' },
    ]);
    expect(groups.map((g) => g.map((n) => n.name))).toEqual([['alice', 'a1ice']]);
  });
});

describe('look-alike names in a manifest', () => {
  it('warns at the later name, naming the earlier and the odd character', () => {
    const { desired } = parseManifest(
      'version: 1\nclients:\n  - username: alice\n    domains: [paypal.example]\n  - username: a1ice\n    domains: [pаypal.example, bob.example]\n',
      'm.yaml',
    );
    expect(desired).toBeDefined();
    const diagnostics = lookalikeDiagnostics(desired!);
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.message}`)).toEqual([
      '5:15 warning username "a1ice" looks like username "alice" (line 3): they differ only by case, spacing or look-alike characters',
      '6:15 warning domain "pаypal.example" looks like domain "paypal.example" (line 4): they differ only by case, spacing or look-alike characters ("а" is U+0430)',
    ]);
  });

  it('warns for a domain whose look-alike only the data knows', () => {
    const { desired } = parseManifest(
      'version: 1\nclients:\n  - username: alice\n    domains: [google.example, ցoogle.example]\n',
      'm.yaml',
    );
    expect(lookalikeDiagnostics(desired!).map((d) => d.message)).toEqual([
      'domain "ցoogle.example" looks like domain "google.example" (line 4): they differ only by case, spacing or look-alike characters ("ց" is U+0581)',
    ]);
  });

  it('warns for hosting plan names that differ only by case or spacing (a panel may compare them without case)', () => {
    const { desired } = parseManifest(
      'version: 1\nhosting_plans:\n  - name: Basic\n  - name: basic\n  - name: "Premium Plus"\n  - name: "Premium  Plus"\n  - name: Business\n',
      'm.yaml',
    );
    expect(lookalikeDiagnostics(desired!).map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '4:11 hosting plan "basic" looks like hosting plan "Basic" (line 3): they differ only by case, spacing or look-alike characters',
      '6:11 hosting plan "Premium  Plus" looks like hosting plan "Premium Plus" (line 5): they differ only by case, spacing or look-alike characters',
    ]);
  });

  it('finds nothing in distinct names', () => {
    const { desired } = parseManifest(
      'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n  - username: bob\n',
      'm.yaml',
    );
    expect(lookalikeDiagnostics(desired!)).toEqual([]);
  });
});
