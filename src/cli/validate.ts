import { ProvisionError } from '../errors.js';
import { quote, safeText } from '../escape.js';
import { renderValidateJson, type ValidatedFile } from '../render/diagnostics.js';
import { plural } from '../util.js';
import type { Command } from './args.js';
import { oneOf, parseCommandLine } from './args.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { STDIN } from './files.js';
import { readManifestFiles } from './manifest-files.js';
import type { Io } from './io.js';
import {
  annotate,
  checkManifest,
  loadWithDiagnostics,
  MANIFEST_SIZE_HELP,
  MANIFEST_SIZE_OPTIONS,
  manifestSizeLimit,
  sourceName,
} from './manifest-input.js';
import type { SizeLimit } from './files.js';
import { sectionCounts } from '../manifest/sections.js';

const VALIDATE_OPTIONS = {
  ...MANIFEST_SIZE_OPTIONS,
  format: { type: 'string' },
} as const;

const usage = 'provision validate <manifest>... [--format text|json] [--max-manifest-mb N]';

export const validate: Command = {
  usage,
  options: VALIDATE_OPTIONS,
  summary:
    'Check manifests offline: YAML syntax, the schema, and the rules (usernames, domain names, duplicates). ' +
    `Exit ${EXIT.ok} when all are valid, ${EXIT.failure} when one is not.`,
  help: `Options:
  --format FORMAT        text (default: problems as file:line:column lines on stderr) or json (one
                         document on stdout: each manifest, valid or not, with its diagnostics;
                         schemas/validate-result.schema.json)
${MANIFEST_SIZE_HELP}

A manifest given as - is read from standard input; a directory is one manifest of parts (every
*.yaml and *.yml file in it, in name order: docs/manifest.md, "Manifest directories"). Each
manifest is checked and reported, whatever the others hold. A file that cannot be read is an
error, not a diagnostic.

Examples:
  provision validate manifest.yaml
  provision validate panels/*                      # each panel's directory of parts
  cat manifest.yaml | provision validate -
  provision validate manifest.yaml --format json | jq '.files[].diagnostics[]'

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, VALIDATE_OPTIONS, { atLeast: 1 }, usage);
    const format = oneOf(values.format, '--format', ['text', 'json'], 'text');
    const cap = manifestSizeLimit(values);
    if (positionals.filter((path) => path === STDIN).length > 1) {
      throw new ProvisionError('usage', 'standard input (-) can be given once', {
        hint: `usage: ${usage}`,
      });
    }
    const invalid =
      format === 'json' ? await validateJson(positionals, io, cap) : await validateText(positionals, io, cap);
    if (invalid.length > 0) {
      throw new ProvisionError(
        'manifest_invalid',
        `${plural(invalid.length, 'manifest')} of ${positionals.length} ` +
          `${invalid.length === 1 ? 'is' : 'are'} invalid: ${invalid.map((name) => quote(name)).join(', ')}`,
      );
    }
    return EXIT.ok;
  },
};

/** Each manifest's problems on stderr, a line per valid one on stdout; the names of the invalid ones. */
async function validateText(paths: readonly string[], io: Io, cap: SizeLimit): Promise<string[]> {
  const invalid: string[] = [];
  for (const path of paths) {
    try {
      const files = await readManifestFiles(path, io, 'manifest', cap);
      const desired = loadWithDiagnostics(files, io);
      const counts = [
        ...(files.directory ? [plural(files.parts.length, 'part')] : []),
        plural(desired.clients.length, 'client'),
        plural(domainCount(desired.clients), 'domain'),
        ...(desired.hostingPlans === undefined ? [] : [plural(desired.hostingPlans.length, 'hosting plan')]),
        ...sectionCounts(desired).map(({ noun, count }) => plural(count, noun.one, noun.many)),
      ];
      io.stdout.write(`${sourceName(path)}: valid (${counts.join(', ')})\n`);
    } catch (error) {
      // One manifest's problems are printed; the others are still checked.
      if (paths.length === 1 || !(error instanceof ProvisionError) || error.code !== 'manifest_invalid') throw error;
      io.stderr.write(`error: ${safeText(error.message)}\n`);
      invalid.push(sourceName(path));
    }
  }
  return invalid;
}

/**
 * One JSON document on stdout for all of them (annotations under GitHub Actions still on
 * stderr); the names of the invalid ones.
 */
async function validateJson(paths: readonly string[], io: Io, cap: SizeLimit): Promise<string[]> {
  const files: ValidatedFile[] = [];
  for (const path of paths) {
    const manifest = await readManifestFiles(path, io, 'manifest', cap);
    const checked = checkManifest(manifest);
    annotate(checked.diagnostics, io);
    const { desired } = checked;
    files.push({
      file: checked.file,
      diagnostics: checked.diagnostics,
      errors: checked.errors,
      counts:
        desired === undefined
          ? undefined
          : {
              clients: desired.clients.length,
              domains: domainCount(desired.clients),
              hostingPlans: desired.hostingPlans?.length,
              parts: manifest.directory ? manifest.parts.length : undefined,
            },
    });
  }
  io.stdout.write(renderValidateJson(files));
  return files.filter((f) => f.errors > 0).map((f) => f.file);
}

function domainCount(clients: readonly { readonly domains: readonly unknown[] }[]): number {
  return clients.reduce((n, c) => n + c.domains.length, 0);
}
