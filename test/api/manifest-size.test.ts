/**
 * The library's side of the manifest limits: `maxManifestMb` (loadManifest, loadManifestParts)
 * refuses a manifest or part over it before parsing; aliases never expand past their bound
 * (the "billion laughs"), whichever reader takes the manifest (whole, chunked, a part).
 */
import { describe, expect, it } from 'vitest';
import { loadManifest, loadManifestParts } from '../../src/api/index.js';
import { ProvisionError } from '../../src/errors.js';
import { CHUNKED_DIAGNOSTICS_ABOVE } from '../../src/manifest/load.js';

const MB = 1024 * 1024;

/** Not a manifest: a parse would report it, located. */
const JUNK = '{ [ "unclosed\n';

function thrown(f: () => unknown): ProvisionError {
  try {
    f();
  } catch (error) {
    if (error instanceof ProvisionError) return error;
    throw error;
  }
  throw new Error('expected a ProvisionError');
}

/** Ten levels of ten aliases each: 10^10 nodes were they expanded. */
function bomb(levels: number): string {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

describe('maxManifestMb', () => {
  it('refuses a manifest one byte over it unparsed, naming the option; 16 MB by default', () => {
    const over = JUNK + '#'.repeat(MB + 1 - JUNK.length);
    const e = thrown(() => loadManifest(over, 'big.yaml', { maxManifestMb: 1 }));
    expect(e.code).toBe('manifest_invalid');
    expect(e.message).toBe(
      'the manifest big.yaml is 1.0 MB (1,048,577 bytes), over the manifest size limit of 1 MB: not read',
    );
    expect(e.hint).toContain('the maxManifestMb option');
    expect(e.located).toEqual([]);
    expect(e.meta).toMatchObject({ size_bytes: MB + 1, limit_bytes: MB });
    // Under the default limit, the same text is parsed: its errors are located.
    expect(thrown(() => loadManifest(over, 'big.yaml')).located.length).toBeGreaterThan(0);
    const past = new Uint8Array(16 * MB + 1);
    expect(thrown(() => loadManifest(past, 'huge.yaml')).message).toContain('over the manifest size limit of 16 MB');
  });

  it('refuses a limit that is not a number of MB from above 0 to 500, rather than reading without one', () => {
    for (const mb of [Number.NaN, Infinity, 0, -1, 501, '1' as unknown as number]) {
      const e = thrown(() => loadManifest('version: 1\nclients: []\n', 'm.yaml', { maxManifestMb: mb }));
      expect(e.code).toBe('usage');
      expect(e.message).toBe(`maxManifestMb ${String(mb)} is out of range`);
    }
    expect(loadManifest('version: 1\nclients: []\n', 'm.yaml', { maxManifestMb: 500 }).desired.clients).toEqual([]);
  });

  it("holds each of a directory's parts to it, naming the part", () => {
    const e = thrown(() =>
      loadManifestParts(
        [
          { file: 'm/a.yaml', source: 'version: 1\nclients: []\n' },
          { file: 'm/b.yaml', source: JUNK + '#'.repeat(MB) },
        ],
        'm',
        { maxManifestMb: 1 },
      ),
    );
    expect(e.message).toMatch(/^the manifest part m\/b\.yaml is 1\.0 MB \(1,048,590 bytes\)/);
    expect(e.located).toEqual([]);
  });
});

describe('alias expansion is bounded', () => {
  const refusal = /aliases expand to too much data \(more than [0-9,]+ nodes\)/;

  it('refuses a ten-level alias bomb in a manifest, at once and located', () => {
    const e = thrown(() => loadManifest(`version: 1\nclients: []\n${bomb(10)}`, 'm.yaml'));
    expect(e.details.join('\n')).toMatch(refusal);
    expect(e.located[0]).toMatchObject({ file: 'm.yaml', line: 4 });
  });

  it('refuses it in a part of a directory', () => {
    const e = thrown(() =>
      loadManifestParts(
        [
          { file: 'm/a.yaml', source: 'version: 1\nclients: []\n' },
          { file: 'm/b.yaml', source: `version: 1\n${bomb(10)}` },
        ],
        'm',
      ),
    );
    expect(e.details.join('\n')).toMatch(refusal);
  });

  it('refuses it inside a client of a manifest large enough for the chunked read', () => {
    const items: string[] = [];
    for (let i = 0, size = 0; size <= CHUNKED_DIAGNOSTICS_ABOVE; i++) {
      items.push(`  - username: c${i}\n    domains: [c${i}.example]\n`);
      size += items[i]?.length ?? 0;
    }
    const laughs = `  - username: lol\n    x: &l0 [a, a, a, a, a, a, a, a, a, a]\n${[1, 2, 3, 4, 5, 6, 7, 8]
      .map(
        (i) =>
          `    x${i}: &l${i} [${Array(10)
            .fill(`*l${i - 1}`)
            .join(', ')}]\n`,
      )
      .join('')}`;
    const text = `version: 1\nclients:\n${items.join('')}${laughs}`;
    const e = thrown(() => loadManifest(text, 'm.yaml'));
    expect(e.details.join('\n')).toMatch(refusal);
  });
});
