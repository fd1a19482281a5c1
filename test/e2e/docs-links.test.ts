/**
 * The README and docs/*.md as a reader meets them: every relative link names a file or folder
 * of the repository, and every `#anchor` a heading of its target (GitHub's slugs); every YAML
 * manifest shown in them validates; the README opens with Install, then its two set-up commands, and stays a
 * front door (issue 24, item 7: shorter than the 7,000 words it had).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [
  'README.md',
  'RELEASING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The text outside fenced code blocks, with inline code blanked (a link in code is no link). */
function prose(markdown: string): string {
  let fenced = false;
  const lines = markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
  });
  return lines.join('\n');
}

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Each relative link's target in a document: `path`, `path#anchor` or `#anchor`. */
function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const match of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) targets.push(target);
  }
  return targets;
}

/** What is wrong with one link of `from`, or null. */
function brokenLink(from: string, target: string): string | null {
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? from : relative(ROOT, join(ROOT, dirname(from), decodeURIComponent(path)));
  if (file.startsWith('..')) return `${target}: outside the repository`;
  if (!existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
  if (anchor === undefined) return null;
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  return headingAnchors(read(file)).has(anchor) ? null : `${target}: no heading #${anchor} in ${file}`;
}

/** The YAML blocks that are manifests (a line `version: 1`), with the line each starts on. */
function manifestBlocks(markdown: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((line, j) => j > i && /^```\s*$/.test(line));
    const text = lines.slice(i + 1, end).join('\n');
    if (/^version: 1$/m.test(text)) blocks.push({ line: i + 2, text: `${text}\n` });
    i = end;
  }
  return blocks;
}

describe('README.md and docs/*.md', () => {
  it.each(DOCS)('%s: every relative link and anchor resolves', (path) => {
    const broken = relativeLinks(read(path))
      .map((target) => brokenLink(path, target))
      .filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s: every manifest shown validates', (path) => {
    for (const block of manifestBlocks(read(path))) {
      const { diagnostics } = parseManifest(block.text, `${path}:${block.line}`);
      expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
  });

  it('the README opens with how to install, then its two set-up commands, and stays a front door', () => {
    const readme = read('README.md');
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections.slice(0, 3)).toEqual(['Install', 'Try it (one command)', 'Run the tests (one command)']);
    // Install before the test command; the npm line is marked for after the first release.
    expect(readme.indexOf('## Install')).toBeLessThan(readme.indexOf('```sh\nnpm test\n```'));
    expect(readme).toMatch(/\*\*After the first release\*\*[^#]*npm install --save-dev @panel-provision\/cli/);
    expect(readme).toMatch(/## Try it \(one command\)[^#]*```sh\nnpm ci && npm run demo\n```/);
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThan(3500);
  });

  it('the checks can fail: a missing file, a missing anchor, a link in code', () => {
    expect(brokenLink('README.md', 'docs/nowhere.md')).toContain('no file docs/nowhere.md');
    expect(brokenLink('README.md', 'docs/commands.md#no-such-heading')).toContain('no heading #no-such-heading');
    expect(brokenLink('docs/commands.md', '../README.md#the-manifest')).toBeNull();
    expect(relativeLinks('`[a](missing.md)`\n```\n[b](missing.md)\n```\n[c](https://x.example/)')).toEqual([]);
    expect([...headingAnchors('## `apply --generate-passwords`\n## A b\n## A b')]).toEqual([
      'apply---generate-passwords',
      'a-b',
      'a-b-1',
    ]);
  });
});
