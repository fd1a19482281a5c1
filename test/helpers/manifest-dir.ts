/** What the manifest-directory tests through the CLI share: two parts, a workspace holding them. */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { workspace } from './cli.js';

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
export const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** validate's line for a valid directory: `<dir>: valid (2 parts, 2 clients, 3 domains…)` (more counts may follow). */
export const validLine = (dir: string, counts: string): RegExp =>
  new RegExp(`^${escaped(dir)}: valid \\(${counts}[,)][^\\n]*\\n$`);

/** alice (on plan Basic) and her two domains. */
export const CLIENTS = `version: 1
clients:
  - username: alice
    plan: Basic
    domains: [alice.example, shop.alice.example]
`;
/** A hosting plan, and bob with one domain. */
export const MORE = `version: 1
hosting_plans:
  - name: Gold
    resources: {domains: 10}
clients:
  - username: bob
    plan: Gold
    domains: [bob.example]
`;

/**
 * A simulator, and a manifest directory `<tmp>/manifests` holding `parts` (name: text), for one
 * test; `path(name)` is a part's path as messages name it.
 */
export async function setup(parts: Record<string, string> = { 'a-clients.yaml': CLIENTS, 'b-more.yml': MORE }) {
  const w = await workspace('version: 1\nclients: []\n');
  const dir = join(w.dir, 'manifests');
  await mkdir(dir);
  for (const [name, text] of Object.entries(parts)) await writeFile(join(dir, name), text);
  return { ...w, manifests: dir, path: (name: string) => join(dir, name) };
}
