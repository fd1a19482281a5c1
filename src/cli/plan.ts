import { fingerprintNow, type Prepared as PreparedPlan, refuseConflicts, withWarnings } from '../api/prepare.js';
import { planTextPieces } from '../render/text.js';
import type { Command, Credentials } from './args.js';
import { oneOf, parseCommandLine } from './args.js';
import { safeText } from '../escape.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, type ConnectionValues } from './connection.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { checkOutPath, writeAtomically } from './files.js';
import { writePieces } from './write-pieces.js';
import { readManifestFiles } from './manifest-files.js';
import { MANIFEST_SIZE_HELP, MANIFEST_SIZE_OPTIONS, manifestSizeLimit } from './manifest-input.js';
import { onGitHubActions, stepSummary } from './github.js';
import { type Io, useColor } from './io.js';
import type { ManifestFiles } from '../manifest/parts.js';
import {
  MASS_HELP,
  MASS_OPTIONS,
  type ManifestHandle,
  massLimits,
  planFromManifest,
  SCOPE_HELP,
  SCOPE_OPTIONS,
  scopeOf,
} from './prepare.js';

const PLAN_OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...MASS_OPTIONS,
  ...SCOPE_OPTIONS,
  ...MANIFEST_SIZE_OPTIONS,
  format: { type: 'string' },
  out: { type: 'string' },
  'detailed-exitcode': { type: 'boolean', default: false },
  'show-unmanaged': { type: 'boolean', default: false },
  'show-url': { type: 'boolean', default: false },
  'from-snapshot': { type: 'string' },
} as const;

/** --detailed-exitcode's exit codes, as its help line gives them. */
const exitText = `exit ${EXIT.ok} when there are no changes, ${EXIT.changes} when there are, ${EXIT.failure} on errors`;

const planUsage =
  'provision plan <manifest> [--format text|json|markdown] [--out plan.json] [--detailed-exitcode] [--show-url] ' +
  '[--clients GLOB]... [--from-snapshot FILE]';

export const plan: Command = {
  usage: planUsage,
  options: PLAN_OPTIONS,
  summary:
    'Read the panel (4 GET requests whatever the manifest size, plus GET /dns/{id} for each existing domain with dns; ' +
    'more only where its client list leaves out a field the manifest manages) ' +
    'and show what apply would create, update and delete, with the request each change becomes, ' +
    'plus conflicts, fields the panel does not show, and unmanaged accounts. ' +
    'Sends nothing that changes the panel.',
  help: `Options:
  --format FORMAT        text (default), json (for scripts) or markdown (for a pull-request comment)
  --out FILE             save the plan (JSON, with a fingerprint of the panel state it depends on)
                         for 'provision apply FILE', which applies exactly it or refuses it as stale
  --detailed-exitcode    ${exitText}
  --show-unmanaged       list the names of clients and domains the manifest does not list
  --show-url             name the panel's URL in the Markdown too (left out by default: a
                         pull-request comment is read by everyone who can read the repository)
  --from-snapshot FILE   plan against a snapshot ('provision snapshot') instead of the panel: no URL,
                         no key; refused when the manifest needs reads it lacks. --out still works:
                         apply reads the live panel and refuses the plan as stale if it moved
${SCOPE_HELP}
${MASS_HELP}
${MANIFEST_SIZE_HELP}

A manifest may be a file or a directory of parts (every *.yaml and *.yml file in it, in name
order, as one manifest: docs/manifest.md, "Manifest directories").

Under GitHub Actions (GITHUB_ACTIONS=true) manifest problems and conflicts are also printed as
annotations on the manifest's lines, and the Markdown plan is appended to $GITHUB_STEP_SUMMARY
when it is set. A plan saved with --out is printed again, without the panel, by 'provision show FILE'.

${CONNECTION_HELP}

Examples:
  PROVISION_URL=https://panel.example PROVISION_API_KEY=... provision plan manifest.yaml
  provision plan manifest.yaml --out plan.json            # review it, then: provision apply plan.json
  provision plan manifest.yaml --format markdown > plan.md
  provision plan manifests/ --clients alice --out fix.json  # a directory of parts; one client only
  provision plan manifest.yaml --detailed-exitcode || [ $? -eq ${EXIT.changes} ]

${exitCodesHelp(['ok', 'failure', 'changes'])}`,
  async run(args, io, credentials) {
    const { values, positionals } = parseCommandLine(args, PLAN_OPTIONS, 1, planUsage);
    const format = oneOf(values.format, '--format', ['text', 'json', 'markdown'], 'text');
    const limits = massLimits(values);
    const scope = scopeOf(values);
    const out = checkOutPath(values.out, '--out', '--format json prints the same plan document on stdout');
    // The manifest (its bytes, what it wants) lives only while the plan is made: its
    // fingerprint is made after (api/prepare.ts viewOf), the plan written after that.
    const prepared = await planOf(positionals[0] ?? '', values, io, credentials, { out, scope });
    const view = withWarnings(fingerprintNow(prepared.view), limits);
    const warnings = view.warnings ?? [];
    // The JSON and Markdown renderers are loaded only for a run that writes them (start-up: test/cli/startup.test.ts).
    // The text and the JSON are written in pieces as they are made, never whole (write-pieces.ts).
    const json = async (): Promise<Iterable<string>> => (await import('../render/json.js')).planJsonPieces(view);
    const markdown = async (): Promise<string> =>
      (await import('../render/markdown.js')).renderPlanMarkdown(view, {
        showUrl: values['show-url'],
      });
    if (out !== undefined) await writeAtomically(out, await json());
    if (format === 'json') await writePieces(io.stdout, await json());
    else if (format === 'markdown') io.stdout.write(await markdown());
    else await writePieces(io.stdout, planTextPieces(view, { color: useColor(io.stdout, io.env) }));
    if (format !== 'text') for (const warning of warnings) io.stderr.write(`warning: ${safeText(warning)}\n`);
    // The step summary exists only under GitHub Actions (stepSummary checks the rest).
    if (onGitHubActions(io.env)) await stepSummary(io, credentials.redactions, await markdown());
    refuseConflicts(view.plan, prepared.conflictsAt);
    return values['detailed-exitcode'] && view.plan.changes.length > 0 ? EXIT.changes : EXIT.ok;
  },
};

/** Reads the manifest at `path` and plans it, against the panel or `--from-snapshot`'s snapshot. */
async function planOf(
  path: string,
  values: ConnectionValues & {
    'max-manifest-mb'?: string | undefined;
    'show-unmanaged': boolean;
    'from-snapshot'?: string | undefined;
  },
  io: Io,
  credentials: Credentials,
  options: { readonly out: string | undefined; readonly scope: readonly string[] | undefined },
): Promise<PreparedPlan> {
  // Handed over: planFromManifest takes the files out once read and hashed (ManifestHandle).
  const manifest: ManifestHandle = { files: await readManifestFiles(path, io, 'manifest', manifestSizeLimit(values)) };
  const snapshotFile = values['from-snapshot'];
  const prepared = await (snapshotFile === undefined
    ? planFromManifest(manifest, io, credentials, {
        connection: values,
        showUnmanaged: values['show-unmanaged'],
        scope: options.scope,
      })
    : // Loaded only for a plan from a snapshot.
      import('./snapshot.js').then((m) =>
        m.planFromSnapshot(manifest.files as ManifestFiles, io, {
          file: snapshotFile,
          out: options.out,
          connection: values,
          showUnmanaged: values['show-unmanaged'],
          scope: options.scope,
        }),
      ));
  if ('panel' in prepared) await (prepared as { panel: { close(): Promise<void> } }).panel.close();
  return prepared;
}
