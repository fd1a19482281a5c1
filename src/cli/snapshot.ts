import { constants } from 'node:fs';
import { lstat, open, rm } from 'node:fs/promises';
import { type Prepared, planSnapshot } from '../api/prepare.js';
import { digestUpdates, parseSnapshot, snapshotDocument, takeSnapshot } from '../api/snapshot.js';
import { ProvisionError, errnoCode } from '../errors.js';
import { quote, safeText } from '../escape.js';
import { plural } from '../util.js';
import { type Command, parseCommandLine } from './args.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, type ConnectionValues, connect } from './connection.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { checkOutPath, readText, writeAtomically } from './files.js';
import { readManifestFiles } from './manifest-files.js';
import type { Io } from './io.js';
import {
  loadWithDiagnostics,
  MANIFEST_SIZE_HELP,
  MANIFEST_SIZE_OPTIONS,
  manifestSizeLimit,
  sourceName,
} from './manifest-input.js';
import { type ManifestFiles, manifestDigest } from '../manifest/parts.js';

/**
 * `provision snapshot`: the panel as plan reads it, saved for `plan --from-snapshot` (a job
 * without the key: pull requests, forks included); and that plan's side here (plan.ts takes the
 * flag). docs/snapshots.md says what a snapshot holds and who may read it.
 */

const SNAPSHOT_OPTIONS = {
  ...CONNECTION_OPTIONS,
  out: { type: 'string' },
  'with-emails': { type: 'boolean', default: false },
  ...MANIFEST_SIZE_OPTIONS,
} as const;

const usage = 'provision snapshot [<manifest>] [--out snapshot.json] [--with-emails]';

export const snapshot: Command = {
  usage,
  options: SNAPSHOT_OPTIONS,
  summary:
    'Read the panel as plan would for the manifest (without one: the four lists; with one, also the zones ' +
    'and client fields it needs) and save it as one JSON document (schemas/snapshot.schema.json). ' +
    'Sends only GET requests. The document holds no key and no password, but client names and domains, ' +
    'and emails as sha256 digests (the addresses with --with-emails): treat it as personal data ' +
    "(docs/snapshots.md). Then 'provision plan MANIFEST --from-snapshot FILE' needs neither the panel nor its key.",
  help: `Options:
  --out FILE             write the snapshot to FILE (atomically, mode 0600); default: stdout
  --with-emails          keep the clients' email addresses; by default each is stored as the
                         sha256 of the lowercase address, which plan compares with the manifest's
${MANIFEST_SIZE_HELP}

Take it where the key is (a job on the default branch, on a schedule), with the manifest of
that branch; a pull request that adds a domain with "dns" or a managed client field the
snapshot did not read is refused by plan --from-snapshot until the snapshot is taken again.

A manifest may be a file or a directory of parts (every *.yaml and *.yml file in it, in name
order, as one manifest: docs/manifest.md, "Manifest directories").

${CONNECTION_HELP}

Examples:
  provision snapshot panel/manifest.yaml --out snapshot.json
  provision plan panel/manifest.yaml --from-snapshot snapshot.json     # no URL, no key

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io, credentials) {
    const { values, positionals } = parseCommandLine(args, SNAPSHOT_OPTIONS, { atLeast: 0 }, usage);
    if (positionals.length > 1)
      throw new ProvisionError('usage', `expected at most 1 argument (the manifest), got ${positionals.length}`, {
        hint: `usage: ${usage}`,
      });
    const out = checkOutPath(values.out, '--out', 'leave --out out to print the snapshot on stdout');
    const path = positionals[0];
    const cap = manifestSizeLimit(values);
    const files = path === undefined ? undefined : await readManifestFiles(path, io, 'manifest', cap);
    const manifest =
      files === undefined
        ? undefined
        : { desired: loadWithDiagnostics(files, io), sha256: manifestDigest(files).sha256 };
    const panel = await connect(values, io, credentials);
    let text: string;
    let taken: Awaited<ReturnType<typeof takeSnapshot>>;
    try {
      taken = await takeSnapshot(panel, { manifest, withEmails: values['with-emails'] });
      text = snapshotDocument(taken);
    } finally {
      await panel.close();
    }
    // The key is never in it; should the panel ever echo it in a record, nothing is written.
    if (credentials.redactions.redact(text) !== text)
      throw new ProvisionError(
        'panel_contract',
        'the panel answered the API key inside a record: nothing was written',
        {
          hint: 'report the panel version; do not keep or share what it answered',
        },
      );
    if (out === undefined) io.stdout.write(text);
    else {
      await writePrivately(out, text);
      // A line on success, as export --out says where it wrote (the document is on stdout otherwise).
      io.stderr.write(
        `wrote the snapshot of ${safeText(taken.panelUrl)} to ${safeText(out)} (mode 0600): ` +
          `${plural(taken.live.client.length, 'client')}, emails ${taken.emails === 'digest' ? 'as digests' : 'as addresses'}\n`,
      );
    }
    return EXIT.ok;
  },
};

/**
 * Writes `text` atomically (files.ts) to `path` as a file only its owner reads (0600): a new
 * file is made empty with that mode first, and an existing regular file is given it, so the
 * atomic write keeps it. A link or anything but a regular file is left for writeAtomically to
 * refuse; the first step opens without following links.
 */
async function writePrivately(path: string, text: string): Promise<void> {
  // Anything but "no such file" (a directory that cannot be read): writeAtomically says it.
  const existing = await lstat(path).catch((error: unknown) => (errnoCode(error) === 'ENOENT' ? undefined : null));
  let made = false;
  if (existing === undefined || existing?.isFile() === true) {
    try {
      const flags =
        existing === undefined
          ? constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW
          : constants.O_RDONLY | constants.O_NOFOLLOW;
      const handle = await open(path, flags, 0o600);
      made = existing === undefined;
      try {
        await handle.chmod(0o600);
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw new ProvisionError('io', `cannot write ${path}: ${errnoCode(error)}`, {
        hint: 'check that the directory exists and is writable, and that the file is yours',
        meta: { path },
        cause: error,
      });
    }
  }
  try {
    await writeAtomically(path, text);
  } catch (error) {
    if (made) await rm(path, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** What plan --from-snapshot needs beside the manifest. */
interface FromSnapshot {
  readonly file: string;
  readonly showUnmanaged: boolean;
  /** plan's --out: a warning when the plan updates an email known only by its digest. */
  readonly out: string | undefined;
  readonly connection: ConnectionValues;
  /** plan's --clients. */
  readonly scope?: readonly string[] | undefined;
}

/**
 * `plan MANIFEST --from-snapshot FILE`: the manifest (its diagnostics printed) planned against
 * the snapshot; no URL, no key (--url and --api-key-file are refused: they would suggest the
 * panel is read; PROVISION_URL and PROVISION_API_KEY are ignored).
 */
export async function planFromSnapshot(files: ManifestFiles, io: Io, options: FromSnapshot): Promise<Prepared> {
  const given = (['url', 'api-key-file', 'ca-file'] as const).filter((flag) => options.connection[flag] !== undefined);
  if (given.length > 0)
    throw new ProvisionError('usage', `--from-snapshot reads no panel: --${given.join(', --')} cannot go with it`, {
      hint: 'leave them out to plan from the snapshot, or leave --from-snapshot out to plan against the panel',
    });
  const desired = loadWithDiagnostics(files, io);
  const snap = parseSnapshot(await readText(options.file, io, 'snapshot'), options.file);
  const prepared = await planSnapshot(
    snap,
    options.file,
    { desired, name: sourceName(files.name), files },
    { showUnmanaged: options.showUnmanaged, scope: options.scope },
  );
  const digested = digestUpdates(prepared.view.plan);
  // Saved all the same (the Action saves every plan to show it in the log), with a word on apply.
  if (options.out !== undefined && digested.length > 0)
    io.stderr.write(
      `warning: --out: the plan updates the email of ${plural(digested.length, 'client')} ` +
        `(${digested.map(quote).join(', ')}) whose address the snapshot holds only as a digest: ` +
        'apply will refuse the saved plan as stale; plan against the panel (or a snapshot taken with --with-emails) to apply it\n',
    );
  return prepared;
}
