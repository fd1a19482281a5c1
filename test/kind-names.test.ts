/**
 * What a resource kind costs outside its room, held the way the import test holds the floors:
 * the files outside src/kinds/ and src/simulator/ that may name a kind (its name as a whole
 * word, comments included) are listed here, and a file that is not listed fails the test; no
 * hand-written file outside those folders is named after a kind. A kind's code lives in its room
 * and the stages loop over the table of kinds (src/kinds/index.ts): a new stage file that needs
 * to name a kind is a sign that the kind's descriptor lacks a member.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { KIND_NAMES } from '../src/kinds/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * The files outside the rooms and the simulator allowed to name each kind whose name is a word
 * of its own (`client` and `domain` are everyday words of every stage, and not counted). At most
 * 3 each; fewer is better.
 */
const ALLOWED: { readonly [kind: string]: readonly string[] } = {
  dns_zone: [],
  hosting_plan: [],
  mailbox: [],
};

/** Words in a file's name that say it is about one kind. */
const KIND_FILE_WORDS = /zone|dns|hosting-plan|plans/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Hand-written source files outside the rooms and the simulator, relative to src/. */
const STAGE_FILES = filesUnder(SRC)
  .map((file) => relative(SRC, file))
  .filter((file) => !/^(kinds|simulator)\//.test(file) && !file.endsWith('.generated.ts'));

describe('what a kind costs outside its room', () => {
  test('every kind named here is in the table, and at most 3 files outside the rooms name it', () => {
    for (const [kind, files] of Object.entries(ALLOWED)) {
      expect(KIND_NAMES).toContain(kind);
      expect(files.length, kind).toBeLessThanOrEqual(3);
    }
  });

  test.each(Object.keys(ALLOWED))('only the listed files outside the rooms name %s', (kind) => {
    const word = new RegExp(`\\b${kind}\\b`);
    const naming = STAGE_FILES.filter((file) => word.test(readFileSync(join(SRC, file), 'utf8')));
    expect(naming.sort()).toEqual([...(ALLOWED[kind] ?? [])].sort());
  });

  test('at most 6 files outside the rooms say mailbox or mailboxes, in any case, comments included', () => {
    const naming = STAGE_FILES.filter((file) => /mailbox/i.test(readFileSync(join(SRC, file), 'utf8')));
    expect(naming.length, naming.join(', ')).toBeLessThanOrEqual(6);
  });

  test('no file outside the rooms and the simulator is named after a kind', () => {
    expect(STAGE_FILES.filter((file) => KIND_FILE_WORDS.test(file.split('/').pop() ?? ''))).toEqual([]);
  });
});
