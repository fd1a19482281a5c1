import { basename } from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { ProvisionError } from '../errors.js';
import { quote, safeText } from '../escape.js';
import {
  adoptInto,
  EXPORT_WITH,
  type ExportOptions,
  exportAsks,
  exportManifest,
  type ExportWith,
  EXPORT_WITH_HELP,
  exportZones,
  type IntoManifest,
  intoScope,
  KEEP_PLAN_KEY,
  readForExport,
  type RunAsk,
  withHeader,
  type ZoneCounts,
  type ZonePick,
} from '../api/export.js';
import { globMatcher } from '../names.js';
import type { Live } from '../panel/index.js';
import { inWords, plural } from '../util.js';
import type { Command, Credentials } from './args.js';
import { checkClientPatterns, parseCommandLine } from './args.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect, type ConnectionValues } from './connection.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { checkOutPath, STDIN, writeAllAtomically, writeAtomically } from './files.js';
import { checkReplaceable, newEntriesPart } from './export-parts.js';
import { readManifestFiles } from './manifest-files.js';
import type { Io } from './io.js';
import { loadWithDiagnostics, MANIFEST_SIZE_HELP, MANIFEST_SIZE_OPTIONS, manifestSizeLimit } from './manifest-input.js';

/**
 * `provision export`: the manifest of the live panel (src/export/model.ts, write.ts), or, with
 * --into, an existing manifest rewritten in place so that it describes the panel for what it
 * manages (src/export/adopt.ts, rewrite.ts), shown as a unified diff.
 */

const EXPORT_OPTIONS = {
  ...CONNECTION_OPTIONS,
  out: { type: 'string' },
  into: { type: 'string' },
  check: { type: 'boolean', default: false },
  clients: { type: 'string', multiple: true },
  'drop-missing': { type: 'boolean', default: false },
  'new-entries': { type: 'string' },
  with: { type: 'string', multiple: true },
  ...MANIFEST_SIZE_OPTIONS,
} as const;

const usage =
  `provision export [--out FILE] [--clients GLOB]... [--with ${EXPORT_WITH.join('|')}] | ` +
  'provision export --into MANIFEST|DIR [--new-entries FILE] [--check] [--clients GLOB]... [--drop-missing] ' +
  `[--with ${EXPORT_WITH.join('|')}]`;

/** --check's exit codes, as its help line gives them. */
const checkExitText = `exit ${EXIT.changes} when MANIFEST (a part of DIR)
                         would change, ${EXIT.ok} when not`;

/**
 * `provision export`: reads the panel (never writes to it) and prints or writes a manifest;
 * with --into, the change to an existing manifest as a unified diff, then writes it unless
 * --check (exit EXIT.changes when it would change). Flags that belong to --into are refused
 * without it; --out and --into exclude each other.
 */
export const exportCommand: Command = {
  usage,
  options: EXPORT_OPTIONS,
  summary:
    'Write the manifest of the live panel (the same 4 GET requests as plan, ' +
    'more only where its client list leaves out a field), or rewrite an existing manifest (--into) ' +
    'so that it describes the panel for what it manages, keeping its comments and formatting. ' +
    'Sends nothing that changes the panel.',
  help: `Without --into: the manifest of the panel, on stdout (or --out FILE): every client sorted by
username with its plan, email, suspended: true when suspended, and its domains (international
names in Unicode, subdomains after their parents; no system domains), each with the settings
that differ from the panel's default (php_version, https, redirect). It validates, and plan
of it against the same panel shows no changes. A name or value the manifest would refuse is
left out with a warning on stderr.

With --into MANIFEST: the clients MANIFEST lists get the panel's values of the fields they
manage (plan, email, suspended, language; a field the manifest leaves out stays out), their
domains the panel's values of the settings they manage (a domain listed by name alone manages
none), and the domains the panel has and the manifest lacks, at the end of their lists; the panel's other clients are added
only where the manifest claims them (prune.clients, or --clients), never a prune.keep match.
Entries the panel lacks stay (plan will create them) unless --drop-missing; state: absent
entries stay. The change is printed as a unified diff on stdout; the file is rewritten (only
the changed entries) unless --check. A manifest that uses YAML aliases, or says %YAML 1.1, is
refused: write it as plain YAML 1.2 first.

With --into DIR (a manifest directory: its *.yaml and *.yml files, in name order, are one
manifest): each entry is edited in the part that holds it (a client with its domains, a hosting
plan; --drop-missing removes an entry from its part), and new entries (the clients claimed, the
hosting plans added) go to the part --new-entries FILE names, by name (b.yaml) or as a path
inside DIR; default the first part that is not a link (a part shared with other directories is
never rewritten). A part without clients gets the key. One diff per changed
part; the parts are written only when every part's rewrite succeeded and they validate together,
and the others stay as they are, byte for byte.

DNS zones: without --with dns, export reads none (no GET /dns). With it, export reads the zone
of every domain it writes (GET /dns/{id} each, 8 at a time; not subdomains: their records are
in their parent's zone) and writes a dns block (ttl: the zone's most common TTL, then its
records) for each zone the panel marks custom; a zone that is not custom holds the panel's
default records and gets none. prune is never written: plan of the export adds and updates
records, it removes none. A record the manifest cannot hold (a value its type refuses, a host
outside the zone, a TTL outside 60-2592000) is left out with a warning. With --into, the
domains whose entries have dns get their records from the panel (records the panel lacks are
removed, its records the block does not list are added, except hosts its keep patterns match;
ttl, prune and keep stay); their zones are read even without --with dns. With --with dns, the
listed domains without dns whose zone is custom get a dns block too.

Hosting plans: with --with hosting-plans, export writes a hosting_plans section before the
clients: every plan of the panel sorted by name, each whole (resources, permissions, php,
php_fpm with every key the panel's record holds; permissions the panel sends as 0/1 as true or
false, resources it sends as numeric strings as numbers). prune is never written. A value the
manifest would refuse is left out with a warning naming the plan and the key. With --into, the
plans the manifest lists get the panel's values of the keys they give (a key left out stays
out; a plan marked absent stays as written); with --with hosting-plans (or
prune.hosting_plans: true), the panel's plans the manifest does not list are added whole,
except those a prune.keep entry {${KEEP_PLAN_KEY}: ...} matches.

Lists under a client or a domain: with their --with word, export reads them (one GET each) and
writes them in each client or domain item, never a password:
${EXPORT_WITH_HELP.map((line) => `  ${line}`).join('\n')}
With --into, the lists a manifest gives are read even without the word: each listed item's keys
get the panel's values; with the word (or the list's prune key true), the panel's items the
manifest lists nowhere are added; with --drop-missing, listed items the panel lacks go.

Options:
  --out FILE             write the manifest to FILE (replaced atomically) instead of stdout
  --clients GLOB         only clients whose username matches (* any run, ? one character);
                         repeatable; with --into: also add the panel's clients that match
  --into MANIFEST|DIR    rewrite MANIFEST, or the parts of DIR, in place (see above)
  --new-entries FILE     with --into DIR: the part that takes new entries (default: the first
                         that is not a link)
  --check                with --into: write nothing; ${checkExitText}
  --drop-missing         with --into: remove the clients and domains the panel does not have
  --with WHAT            also read and write WHAT: dns (the records of custom DNS zones),
                         hosting-plans (the hosting_plans section), the lists above;
                         repeatable, or a comma list
${MANIFEST_SIZE_HELP}
                         (with --into, the manifest it rewrites)

${CONNECTION_HELP}

Examples:
  provision export --out manifest.yaml               # then: provision plan manifest.yaml
  provision export --clients 'team-a-*' > team-a.yaml
  provision export --into manifest.yaml              # adopt changes made in the panel
  provision export --into manifest.yaml --check      # in CI: exit ${EXIT.changes} on drift
  provision export --into manifests/ --clients 'team-c-*' --new-entries team-c.yaml
  provision export --with dns --out manifest.yaml    # with the records of custom zones
  provision export --with hosting-plans --out m.yaml # with the hosting plans, each whole

${exitCodesHelp(['ok', 'failure', 'changes'])}`,
  async run(args, io, credentials) {
    const { values } = parseCommandLine(args, EXPORT_OPTIONS, 0, usage);
    checkOutPath(values.out, '--out', 'without --out the manifest goes to stdout');
    const patterns = checkClientPatterns(values.clients ?? []);
    const options: ExportOptions = { with: withOf(values.with ?? []) };
    const into = values.into;
    if (into === undefined) {
      for (const flag of ['check', 'drop-missing', 'new-entries', 'max-manifest-mb'] as const) {
        if (values[flag] === true || typeof values[flag] === 'string')
          throw new ProvisionError('usage', `--${flag} works with --into only`, {
            hint: `usage: ${usage}`,
          });
      }
      return exportPanel(io, credentials, values, patterns, options);
    }
    if (values.out !== undefined)
      throw new ProvisionError('usage', '--out and --into do not go together: --into rewrites the manifest it names', {
        hint: `usage: ${usage}`,
      });
    if (into === STDIN)
      throw new ProvisionError('usage', '--into needs the path of the manifest to rewrite, not standard input', {
        hint: `usage: ${usage}`,
      });
    return exportInto(io, credentials, values, into, patterns, options);
  },
};

/** --with's values (each repeatable, or a comma list), or a usage error naming the known ones. */
function withOf(values: readonly string[]): ReadonlySet<ExportWith> {
  const known: readonly string[] = EXPORT_WITH;
  const out = new Set<ExportWith>();
  for (const word of values.flatMap((v) => v.split(',')).map((w) => w.trim().toLowerCase())) {
    if (!known.includes(word))
      throw new ProvisionError(
        'usage',
        `--with ${quote(word)}: export knows ${EXPORT_WITH.map((w) => quote(w)).join(', ')}`,
        { hint: `usage: ${usage}` },
      );
    out.add(word);
  }
  return out;
}

/** The plain export: the panel's manifest on stdout or in --out. */
async function exportPanel(
  io: Io,
  credentials: Credentials,
  values: ConnectionValues & { out?: string | undefined },
  patterns: readonly string[],
  options: ExportOptions,
): Promise<typeof EXIT.ok> {
  const include = patterns.length === 0 ? () => true : globMatcher(patterns);
  const { live, url } = await readPanel(
    io,
    credentials,
    values,
    [],
    include,
    exportZones(include, options),
    exportAsks(options),
  );
  const filter = patterns.length === 0 ? '' : ` (clients matching ${patterns.map((p) => quote(p)).join(', ')})`;
  const { text, clients, domains, warnings, notes, zones, plans, listed } = exportManifest(
    live,
    include,
    [
      `The panel ${url}${filter}, as provision export read it.`,
      'Review it, commit it: provision plan of it against this panel shows no changes.',
      ...withHeader(options),
    ],
    options,
  );
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  for (const note of notes) io.stderr.write(`note: ${note}\n`);
  if (values.out !== undefined) await writeAtomically(values.out, text);
  else {
    io.stdout.write(text);
    await io.stdout.flushed?.();
  }
  const left =
    warnings.length === 0
      ? ''
      : `; ${plural(warnings.length, 'name or value', 'names or values')} left out (see the warnings above)`;
  const counted = [
    ...(plans === undefined ? [] : [plural(plans, 'hosting plan')]),
    plural(clients, 'client'),
    plural(domains, 'domain'),
    ...listed.map(({ noun, count }) => plural(count, noun.one, noun.many)),
  ];
  io.stderr.write(
    `exported ${inWords(counted)} of ${url}` +
      `${values.out === undefined ? '' : ` to ${safeText(values.out)}`}${left}\n`,
  );
  if (zones !== undefined) io.stderr.write(`${zonesLine(zones)}\n`);
  return EXIT.ok;
}

/** --into: the manifest (a file, or a directory's parts) rewritten, each change a diff, written unless --check. */
async function exportInto(
  io: Io,
  credentials: Credentials,
  values: IntoValues,
  path: string,
  patterns: readonly string[],
  options: ExportOptions,
): Promise<typeof EXIT.ok | typeof EXIT.changes> {
  const files = await readManifestFiles(path, io, 'manifest', manifestSizeLimit(values));
  const desired = loadWithDiagnostics(files, io);
  const newEntries = await newEntriesPart(files, values['new-entries']);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const manifest: IntoManifest = {
    name: path,
    directory: files.directory,
    parts: files.parts.map((p) => ({ file: p.file, text: decoder.decode(p.bytes) })),
  };
  const { claim, wanted, domainNames, zones, asks } = intoScope(desired, manifest, patterns, options);
  const { live } = await readPanel(io, credentials, values, domainNames, wanted, zones, asks);
  const { rewritten, warnings } = adoptInto(desired, manifest, live, {
    claim,
    dropMissing: values['drop-missing'],
    newEntries,
    ...(options.with === undefined ? {} : { with: options.with }),
  });
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  const changed = manifest.parts.flatMap((part, i) => {
    const after = rewritten[i] ?? part.text;
    return after === part.text ? [] : [{ ...part, after, bytes: files.parts[i]?.bytes }];
  });
  if (changed.length === 0) {
    io.stderr.write(`${safeText(path)}: already describes the panel for what it manages: nothing to change\n`);
    return EXIT.ok;
  }
  for (const part of changed)
    io.stdout.write(
      createTwoFilesPatch(part.file, part.file, part.text, part.after, undefined, undefined, {
        headerOptions: FILE_HEADERS_ONLY,
      }),
    );
  await io.stdout.flushed?.();
  // A directory: `manifests: 2 of 3 parts (a.yaml, b.yaml) differ from the panel`.
  const which = files.directory
    ? `: ${changed.length} of ${plural(files.parts.length, 'part')} ` +
      `(${changed.map((p) => safeText(basename(p.file))).join(', ')})`
    : '';
  if (values.check) {
    io.stderr.write(
      `${safeText(path)}${which === '' ? ':' : which} ${changed.length === 1 ? 'differs' : 'differ'} ` +
        'from the panel (the diff above); --check: nothing was written\n',
    );
    return EXIT.changes;
  }
  // Every part is checked, then written beside itself, before the first is replaced: none is
  // replaced when one cannot be (files.ts writeAllAtomically).
  if (files.directory) for (const part of changed) await checkReplaceable(part.file);
  // A part saved by someone while the panel was read is refused, not overwritten.
  await writeAllAtomically(
    changed.map((part) => ({
      path: part.file,
      text: part.after,
      ...(part.bytes === undefined ? {} : { unchangedFrom: part.bytes }),
    })),
  );
  io.stderr.write(`${safeText(path)}${which}: rewritten (the diff above)\n`);
  return EXIT.ok;
}

/** --into's flags, as parsed. */
type IntoValues = ConnectionValues & {
  check: boolean;
  'drop-missing': boolean;
  'new-entries'?: string | undefined;
  'max-manifest-mb'?: string | undefined;
};

/** Connects and reads the panel (api/export.ts readForExport), printing its notes as they come. */
async function readPanel(
  io: Io,
  credentials: Credentials,
  values: ConnectionValues,
  domainNames: readonly string[],
  details: (username: string) => boolean,
  zones?: ZonePick,
  asks?: RunAsk,
): Promise<{ live: Live; url: string }> {
  const panel = await connect(values, io, credentials);
  try {
    const live = await readForExport(
      panel,
      domainNames,
      details,
      (event) => {
        if (event.type === 'note') io.stderr.write(`note: ${safeText(event.message)}\n`);
      },
      zones,
      asks,
    );
    return { live, url: panel.baseUrl };
  } finally {
    await panel.close();
  }
}

/**
 * The summary of --with dns: `read 5 DNS zones (GET /dns/{id}); wrote 2 (custom), 3 hold the
 * panel's defaults`, and the zones passed over for being disabled or not saying.
 */
function zonesLine(zones: ZoneCounts): string {
  const defaults = zones.read - zones.written - zones.disabled - zones.unsaid;
  const parts = [
    `wrote ${zones.written} (custom)`,
    defaults > 0 ? `${defaults} ${defaults === 1 ? 'holds' : 'hold'} the panel's defaults (no dns block)` : '',
    zones.disabled > 0 ? `${zones.disabled} served no DNS (is_dns_disabled: no dns block)` : '',
    zones.unsaid > 0 ? `${zones.unsaid} did not say whether custom (no is_custom_dns: no dns block)` : '',
  ].filter((p) => p !== '');
  return `read ${plural(zones.read, 'DNS zone')}: ${parts.join(', ')}`;
}
