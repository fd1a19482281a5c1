/**
 * Look-alike names between the manifest's hosting plans and the panel's (issue 30, 7e): a
 * Cyrillic `Вasic` created beside the panel's `Basic` (deleted by prune in the same plan) is
 * warned of in every format; a plan whose name looks like none of the panel's is not.
 */
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const CYRILLIC_BASIC = '\u0412asic';

describe('hosting plan names that look like the panel’s', () => {
  it('warns of a created plan that looks like a panel plan the same plan deletes, in text, JSON and Markdown', async () => {
    const w = await workspace(`version: 1
hosting_plans:
  - name: ${CYRILLIC_BASIC}
    resources: {domains: 3}
  - name: Standard
  - name: Premium Plus
prune:
  hosting_plans: true
`);
    const text = await run(['plan', w.file], w.env);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain(`+ hosting plan "${CYRILLIC_BASIC}"`);
    expect(text.stdout).toContain('hosting plan "Basic" will be deleted');
    const warning =
      `hosting plan "${CYRILLIC_BASIC}" is to be created, and the panel has hosting plan "Basic", which looks like it: ` +
      'they differ only by case, spacing or look-alike characters ("\u0412" is U+0412); this plan also deletes "Basic"';
    expect(text.stdout).toContain('Warnings:');
    expect(text.stdout).toContain(warning);

    const json = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { warnings?: string[] }).warnings?.join('\n')).toContain(warning);
    expect(json.stderr).toContain(`warning: ${warning}`);

    const md = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('**Warnings**');
    expect(md.stdout).toContain('looks like it');
  });

  it('warns without prune too, once, and not of a name unlike any panel plan', async () => {
    const w = await workspace(`version: 1
hosting_plans:
  - name: "basic "
  - name: Pro
`);
    const text = await run(['plan', w.file], w.env);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    const lines = text.stdout.split('\n').filter((l) => l.includes('looks like it'));
    expect(lines, text.stdout).toHaveLength(1);
    expect(lines[0]).toContain('hosting plan "basic " is to be created, and the panel has hosting plan "Basic"');
    expect(lines[0]).not.toContain('also deletes');
    expect(text.stdout).not.toMatch(/"Pro" is to be created, and the panel/);
  });
});
