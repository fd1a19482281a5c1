import { rename, writeFile } from 'node:fs/promises';
import { executePlan, postCreator, tally } from '../apply/execute.js';
import { SecretsFile, secretsGitWarning, unansweredIntents } from '../apply/secrets.js';
import { ProvisionError } from '../errors.js';
import type { PanelClient } from '../panel/index.js';
import type { Live } from '../panel/types.js';
import { readLive } from '../panel/index.js';
import { diff } from '../plan/diff.js';
import type { Plan } from '../plan/types.js';
import type { PlanView } from '../render/common.js';
import { plural } from '../render/common.js';
import { renderPlanJson } from '../render/json.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { renderApplyJson, renderApplySummary, renderOutcomeLine } from '../render/outcome.js';
import { renderPlanText } from '../render/text.js';
import type { Command } from './args.js';
import { oneOf, parseCommandLine, positiveInteger } from './args.js';
import { connect, CONNECTION_HELP, CONNECTION_OPTIONS } from './connection.js';
import type { Io } from './io.js';
import { useColor } from './io.js';
import { loadOrReport } from './manifest.js';

const PLAN_OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string' },
  out: { type: 'string' },
  'detailed-exitcode': { type: 'boolean', default: false },
  'show-unmanaged': { type: 'boolean', default: false },
} as const;

const planUsage = 'provision plan <manifest> [--format text|json|markdown] [--out plan.json] [--detailed-exitcode]';

export const plan: Command = {
  usage: planUsage,
  summary: 'Read the panel (4 GET requests, whatever the manifest size) and show which clients and domains apply would create, with the POST each becomes, plus conflicts, drift and unmanaged accounts. Sends nothing that changes the panel.',
  help: `Options:
  --format FORMAT        text (default), json (for scripts) or markdown (for a pull-request comment)
  --out FILE             also write the plan as JSON to FILE
  --detailed-exitcode    exit 0 when there are no changes, 2 when there are, 1 on errors
  --show-unmanaged       list the names of clients and domains the manifest does not list

${CONNECTION_HELP}

Examples:
  PROVISION_URL=https://panel.example PROVISION_API_KEY=... provision plan manifest.yaml
  provision plan manifest.yaml --format markdown > plan.md
  provision plan manifest.yaml --detailed-exitcode || [ $? -eq 2 ]`,
  async run(args, io, secrets) {
    const { values, positionals } = parseCommandLine(args, PLAN_OPTIONS, 1, planUsage);
    const format = oneOf(values.format, '--format', ['text', 'json', 'markdown'], 'text');
    const prepared = await prepare(positionals[0] ?? '', values, io, secrets);
    if (prepared === undefined) return 1;
    const { view, panel } = prepared;
    await panel.close();
    if (values.out !== undefined) await writeAtomically(values.out, renderPlanJson(view));
    io.stdout.write(format === 'json' ? renderPlanJson(view) : format === 'markdown' ? renderPlanMarkdown(view) : renderPlanText(view, { color: useColor(io.stdout, io.env) }));
    refuseConflicts(view.plan);
    return values['detailed-exitcode'] && view.plan.changes.length > 0 ? 2 : 0;
  },
};

const APPLY_OPTIONS = {
  ...CONNECTION_OPTIONS,
  'auto-approve': { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  'secrets-file': { type: 'string' },
  format: { type: 'string' },
  'show-unmanaged': { type: 'boolean', default: false },
} as const;

const applyUsage = 'provision apply <manifest> --auto-approve [--concurrency N] [--secrets-file PATH]';

export const apply: Command = {
  usage: applyUsage,
  summary: 'Plan, then create what the manifest lists and the panel lacks: POST /clients, then POST /domains, at most --concurrency at a time. New clients\' passwords go to the secrets file only. It creates; it never updates or deletes.',
  help: `Options:
  --auto-approve         apply without asking (required for now: there is no prompt yet)
  --concurrency N        requests in flight at once (default 4)
  --secrets-file PATH    JSON Lines file for new clients' passwords, mode 0600 (or PROVISION_SECRETS_FILE)
  --format FORMAT        text (default) or json (outcomes for scripts on stdout; progress on stderr)
  --show-unmanaged       list the names of clients and domains the manifest does not list

${CONNECTION_HELP}

Examples:
  provision apply manifest.yaml --auto-approve --secrets-file ~/secrets/panel.jsonl
  PROVISION_SECRETS_FILE=/secure/passwords.jsonl provision apply manifest.yaml --auto-approve --concurrency 8`,
  async run(args, io, secrets) {
    const { values, positionals } = parseCommandLine(args, APPLY_OPTIONS, 1, applyUsage);
    const format = oneOf(values.format, '--format', ['text', 'json'], 'text');
    const concurrency = positiveInteger(values.concurrency, '--concurrency', 4);
    const prepared = await prepare(positionals[0] ?? '', values, io, secrets);
    if (prepared === undefined) return 1;
    const { view, panel, live } = prepared;
    try {
      const secretsPath = values['secrets-file'] ?? io.env.PROVISION_SECRETS_FILE;
      await reportLostPasswords(secretsPath, view.panelUrl, live, io);
      const color = useColor(io.stdout, io.env);
      if (format === 'text') io.stdout.write(renderPlanText(view, { color }));
      refuseConflicts(view.plan);
      if (view.plan.changes.length === 0) {
        if (format === 'json') io.stdout.write(renderApplyJson([], [], view.panelUrl));
        return 0;
      }
      if (!values['auto-approve']) {
        throw new ProvisionError('approval_required', `apply needs --auto-approve: ${plural(view.plan.changes.length, 'change')} planned, nothing was sent`, {
          hint: 'review the plan above (or run provision plan), then run apply again with --auto-approve',
        });
      }
      const secretsFile = await openSecrets(view.plan, secretsPath, io);
      const progress = format === 'json' ? io.stderr : io.stdout;
      try {
        const outcomes = await executePlan(view.plan, postCreator(panel), {
          concurrency,
          secrets: secretsFile,
          panelUrl: view.panelUrl,
          onOutcome: (outcome) => {
            const stamp = progress.isTTY ? '' : `${new Date().toISOString()} `;
            progress.write(`${stamp}${renderOutcomeLine(outcome, { color: useColor(progress, io.env) })}\n`);
          },
        });
        if (format === 'json') io.stdout.write(renderApplyJson(outcomes, view.plan.changes.map((c) => c.id), view.panelUrl));
        else io.stdout.write(`\n${renderApplySummary(outcomes)}\n`);
        if (secretsFile !== undefined && tally(outcomes).succeeded > 0) {
          io.stderr.write(`New clients' passwords are in ${secretsFile.path}.\n`);
        }
        return tally(outcomes).failed > 0 ? 1 : 0;
      } finally {
        await secretsFile?.close();
      }
    } finally {
      await panel.close();
    }
  },
};

/** Manifest, panel, diff: what plan and apply share. Undefined when the manifest is invalid. */
async function prepare(
  manifest: string,
  values: Parameters<typeof connect>[0] & { 'show-unmanaged'?: boolean | undefined },
  io: Io,
  secrets: Set<string>,
): Promise<{ view: PlanView; panel: PanelClient; live: Live } | undefined> {
  const desired = await loadOrReport(manifest, io);
  if (desired === undefined) return undefined;
  const panel = await connect(values, io, secrets);
  try {
    const notes: string[] = [];
    const live = await readLive(panel, {
      domainNames: desired.clients.flatMap((c) => c.domains.map((d) => d.name)),
      onNote: (note) => notes.push(note),
    });
    const view: PlanView = { plan: diff(desired, live), panelUrl: panel.baseUrl, manifest, showUnmanaged: values['show-unmanaged'] === true, notes };
    return { view, panel, live };
  } catch (error) {
    await panel.close();
    throw error;
  }
}

function refuseConflicts(plan: Plan): void {
  if (plan.conflicts.length === 0) return;
  throw new ProvisionError('plan_conflict', `${plural(plan.conflicts.length, 'domain')} of the manifest belong${plan.conflicts.length === 1 ? 's' : ''} to another client on the panel: apply sends nothing until this is resolved`, {
    hint: 'move the domain under its owner in the manifest, remove it, or move it on the panel',
  });
}

/**
 * Names the clients that an earlier, interrupted run created without ever seeing their
 * password (its write-ahead intent has no answer, and the client exists), and closes each
 * intent with a `password: null` record so the secrets file itself says it too, once.
 */
async function reportLostPasswords(path: string | undefined, panelUrl: string, live: Live, io: Io): Promise<void> {
  if (path === undefined || path === '') return;
  const unanswered = await unansweredIntents(path, panelUrl);
  const lost = live.clients.filter((c) => unanswered.has(c.username));
  if (lost.length === 0) return;
  const file = await SecretsFile.open(path);
  try {
    for (const client of lost) {
      io.stderr.write(
        `warning: client "${client.username}" (id ${client.id}) was created by an earlier apply that was stopped before the panel's answer arrived: its password is unknown: set a new one in the panel\n`,
      );
      await file.record({ created_at: new Date().toISOString(), panel_url: panelUrl, username: client.username, id: client.id, password: null });
    }
  } finally {
    await file.close();
  }
}

/** The secrets file, opened before any POST; required only when clients will be created. */
async function openSecrets(plan: Plan, path: string | undefined, io: Io): Promise<SecretsFile | undefined> {
  if (!plan.changes.some((c) => c.type === 'client')) return undefined;
  if (path === undefined || path === '') {
    throw new ProvisionError('secrets', 'this apply creates clients, and their passwords need a secrets file: nothing was sent', {
      hint: 'give --secrets-file PATH or set PROVISION_SECRETS_FILE (a JSON Lines file, created with mode 0600, outside git)',
    });
  }
  const file = await SecretsFile.open(path);
  const warning = await secretsGitWarning(path);
  if (warning !== undefined) io.stderr.write(`warning: ${warning}\n`);
  return file;
}

/** Write to a temporary file beside `path`, then rename: a reader never sees half a plan. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o644 });
    await rename(temp, path);
  } catch (error) {
    throw new ProvisionError('usage', `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { hint: 'check that the directory exists and is writable' });
  }
}
