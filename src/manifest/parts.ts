import { basename } from 'node:path';
import { quote } from '../escape.js';
import { USERNAME_PATTERN } from '../names.js';
import { listedAgain } from '../kinds/domain.js';
import { planListedAgain } from '../kinds/hosting-plan/manifest.js';
import { placeOf, sha256Hex } from '../util.js';
import { usernameTwice } from './build.js';
import { checkClientPlans } from '../kinds/hosting-plan/manifest-list.js';
import { type LoadResult, MAX_DIAGNOSTICS, moreProblems, parseManifestBytes, validatePartBytes } from './load.js';
import { lookalikeDiagnostics } from './lookalike.js';
import { NO_PRUNE } from './types.js';
import { SectionSeens } from './sections.js';

export { isPartName, partOrder } from './part-names.js';
import type { Desired, DesiredClient, DesiredDomain, DesiredHostingPlan, Diagnostic, Location } from './types.js';

/**
 * Manifest directories (docs/manifest.md, "Manifest directories"): every `*.yaml` and `*.yml` file of a
 * directory, in name order, is one part; `clients` and `hosting_plans` of all parts are one
 * list; `prune` stands in one part at most. Each part is validated on its own (as a file is,
 * except that it may leave out `clients`), then across parts: a username, domain or plan name
 * listed in two parts is an error at the second naming the first's file and line, as two
 * `prune` are; a client on a plan another part marks absent too; look-alike names are warned
 * about over the whole. With part-names.ts (which entries are parts, and their order), the one
 * owner of what a directory is: how its parts make one manifest, the digest a plan records.
 */

/** One part: its path as messages name it (`manifests/clients.yaml`), and its bytes. */
export interface ManifestPart {
  readonly file: string;
  readonly bytes: Uint8Array;
}

/**
 * A manifest as read: one file (a single part, `directory` false), or a directory's parts in
 * name order. `name` is the path as the user gave it.
 */
export interface ManifestFiles {
  readonly name: string;
  readonly directory: boolean;
  readonly parts: readonly ManifestPart[];
}

/** A part's digest as a plan records it. */
export interface PartDigest {
  readonly file: string;
  readonly sha256: string;
}

/**
 * What a plan records of its manifest: the sha256 of a file's bytes; for a directory, of the
 * list of its parts' digests (`<sha256>  <name>` lines, each part's name in the directory, as
 * `sha256sum *.yaml` prints them inside it, so anyone can check it; the same however the
 * directory's path was typed), and each part's (named as given).
 */
export function manifestDigest(files: ManifestFiles): { sha256: string; parts?: PartDigest[] } {
  const [only] = files.parts;
  if (!files.directory && only !== undefined) return { sha256: sha256Hex(only.bytes) };
  const parts = files.parts.map((p) => ({ file: p.file, sha256: sha256Hex(p.bytes) }));
  return { sha256: sha256Hex(parts.map((p) => `${p.sha256}  ${basename(p.file)}\n`).join('')), parts };
}

/** Validates a manifest as read: a file as parseManifestBytes does, a directory's parts as one manifest. */
export function parseManifestFiles(files: ManifestFiles): LoadResult {
  const [only] = files.parts;
  if (!files.directory && only !== undefined) return parseManifestBytes(only.bytes, only.file);
  return parseManifestParts(files.parts, files.name);
}

/** The parts of a directory named `name` as one manifest (see the module's comment). Pure. */
export function parseManifestParts(parts: readonly ManifestPart[], name: string): LoadResult {
  if (parts.length === 0) {
    return {
      desired: undefined,
      diagnostics: [
        {
          file: name,
          line: 1,
          column: 1,
          severity: 'error',
          message: 'the directory holds no manifest part: add a *.yaml file with "version: 1" and a "clients" list',
        },
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  let errorCount = 0;
  /** Problems a part found past the ones it listed, and where the first of them stands. */
  let hidden = 0;
  let firstHidden: Diagnostic | undefined;
  const readParts: Desired[] = [];
  // What the kinds' sections remember of the items listed, across the parts (an item listed in two is refused).
  const seens = new SectionSeens();
  for (const part of parts) {
    const result = validatePartBytes(part.bytes, part.file, seens);
    const listed = [...result.diagnostics];
    // A part's own "… and N more" line (its last) is said again once for the whole directory.
    if (result.hidden !== undefined) {
      const line = listed.pop();
      hidden += result.hidden;
      firstHidden ??= line;
    }
    diagnostics.push(...listed);
    errorCount += result.errorCount ?? listed.filter((d) => d.severity === 'error').length;
    // A part with errors of its own is checked across too, as far as it reads: every problem at once.
    const read = result.desired ?? result.partial;
    if (read !== undefined) readParts.push(read);
  }
  const across = acrossParts(readParts, name);
  diagnostics.push(...across.diagnostics);
  errorCount += across.diagnostics.filter((d) => d.severity === 'error').length;
  const failed = errorCount > 0 || readParts.length < parts.length;
  const desired = failed ? undefined : across.desired;
  if (desired !== undefined) diagnostics.push(...lookalikeDiagnostics(desired));
  const order = new Map(parts.map((p, i) => [p.file, i] as const));
  const rank = (d: Diagnostic): number => order.get(d.file) ?? -1;
  const inOrder = (a: Diagnostic, b: Diagnostic): number => rank(a) - rank(b) || a.line - b.line || a.column - b.column;
  diagnostics.sort(inOrder);
  // At most MAX_DIAGNOSTICS for the whole directory, as for a file, then one line for the rest.
  const shown = diagnostics.slice(0, MAX_DIAGNOSTICS);
  const more = diagnostics.length - shown.length + hidden;
  // The line stands at the first problem not listed, in the directory's order.
  const [at] = [diagnostics[MAX_DIAGNOSTICS], firstHidden].filter((d) => d !== undefined).sort(inOrder);
  if (more > 0 && at !== undefined) shown.push({ ...at, message: moreProblems(more) });
  const listed = shown.filter((d) => d.severity === 'error').length - (more > 0 && at?.severity === 'error' ? 1 : 0);
  return { desired, diagnostics: shown, ...(listed === errorCount ? {} : { errorCount }) };
}

/** The parts (as far as they read) as one Desired, with what may stand only once across them. */
function acrossParts(parts: readonly Desired[], name: string): { desired: Desired; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const error = (at: Location, message: string): void => {
    diagnostics.push({ ...at, severity: 'error', message });
  };
  const clients: DesiredClient[] = [];
  const plans: DesiredHostingPlan[] = [];
  let prune: Desired['prune'] | undefined;
  // The first listings, as the items themselves (their places made when a message needs one):
  // these live as long as the check (issue 30, 7f).
  const usernames = new Map<string, DesiredClient>();
  const domains = new Map<string, { readonly domain: DesiredDomain; readonly client: DesiredClient }>();
  const planNames = new Map<string, Location>();
  for (const part of parts) {
    if (part.prune.loc !== undefined) {
      if (prune?.loc === undefined) prune = part.prune;
      else
        error(
          part.prune.loc,
          `"prune" is given again (first at ${placeOf(prune.loc, part.prune.loc.file)}): ` +
            'prune applies to the whole directory and stands in one part only; merge the two',
        );
    }
    for (const client of part.clients) {
      clients.push(client);
      const loc = client.loc;
      if (loc === undefined) continue;
      // A username its part refused (uppercase) is not compared: its own error says enough.
      const first = USERNAME_PATTERN.test(client.username) ? usernames.get(client.username)?.loc : loc;
      if (first === undefined) usernames.set(client.username, client);
      else if (first.file !== loc.file) error(loc, usernameTwice(client.username, placeOf(first, loc.file)));
      for (const domain of client.domains) {
        const at = domain.loc;
        if (at === undefined) continue;
        const earlier = domains.get(domain.name);
        const earlierAt = earlier?.domain.loc;
        if (earlier === undefined || earlierAt === undefined) domains.set(domain.name, { domain, client });
        else if (earlierAt.file !== at.file) {
          const label = `client ${quote(client.username)}`;
          const first = {
            input: earlier.domain.input,
            client: `client ${quote(earlier.client.username)}`,
            at: placeOf(earlierAt, at.file),
          };
          error(at, listedAgain(domain.input, label, first, earlier.client.username === client.username));
        }
      }
    }

    for (const plan of part.hostingPlans ?? []) {
      plans.push(plan);
      const loc = plan.loc;
      if (loc === undefined) continue;
      const first = planNames.get(plan.name);
      if (first === undefined) planNames.set(plan.name, loc);
      else if (first.file !== loc.file) error(loc, planListedAgain(plan.name, placeOf(first, loc.file)));
    }
  }
  // A client on a plan another part marks absent (each part checked its own clients already):
  // one pass over the clients, whatever the number of parts.
  const absentIn = new Map<string, string | undefined>();
  for (const plan of plans)
    if (plan.state === 'absent' && !absentIn.has(plan.name)) absentIn.set(plan.name, plan.loc?.file);
  const elsewhere = clients.filter(
    (c) => c.plan !== undefined && absentIn.has(c.plan) && absentIn.get(c.plan) !== c.loc?.file,
  );
  if (elsewhere.length > 0) checkClientPlans(elsewhere, plans, name, diagnostics);
  const desired: Desired = {
    file: name,
    clients,
    prune: prune ?? NO_PRUNE,
    ...(plans.length === 0 ? {} : { hostingPlans: plans }),
  };
  return { desired, diagnostics };
}
