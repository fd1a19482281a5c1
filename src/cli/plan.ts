import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { executePlan, type Outcome, tally } from '../apply/execute.js';
import { SecretsFile, type SecretsSink, secretsGitWarning, unansweredIntents } from '../apply/secrets.js';
import { ProvisionError } from '../errors.js';
import type { PanelClient } from '../panel/index.js';
import type { Live } from '../panel/types.js';
import { DEFAULT_CONNECTIONS, DEFAULT_SETTLE_TIMEOUT_MS, panelCreator, readLive } from '../panel/index.js';
import { diff } from '../plan/diff.js';
import { parsePlanFile, planFingerprint, type SavedPlan, staleReasons } from '../plan/saved.js';
import type { Plan } from '../plan/types.js';
import type { PlanView } from '../render/common.js';
import { plural } from '../util.js';
import { renderPlanJson } from '../render/json.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { renderApplyJson, renderApplySummary, renderOutcomeLine, renderProgressLine } from '../render/outcome.js';
import { renderPlanText } from '../render/text.js';
import type { Command } from './args.js';
import { oneOf, parseCommandLine, positiveInteger, seconds } from './args.js';
import { connect, CONNECTION_HELP, CONNECTION_OPTIONS } from './connection.js';
import type { Io, Output } from './io.js';
import { onGitHubActions, useColor } from './io.js';
import { loadOrReport } from './manifest.js';

/** Plans that create more than this many resources need --allow-mass-create to be applied. */
export const DEFAULT_MAX_CREATES = 100;

/** Exit code of an apply stopped by SIGINT/SIGTERM (128 + SIGINT), after its summary. */
export const EXIT_INTERRUPTED = 130;

const MASS_OPTIONS = {
  'max-creates': { type: 'string' },
  'allow-mass-create': { type: 'boolean', default: false },
} as const;

const MASS_HELP = `  --max-creates N        a plan creating more than N resources is a mass change (default ${DEFAULT_MAX_CREATES}):
                         plan warns, apply refuses (exit 4) unless --allow-mass-create
  --allow-mass-create    allow a plan over --max-creates`;

const PLAN_OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...MASS_OPTIONS,
  format: { type: 'string' },
  out: { type: 'string' },
  'detailed-exitcode': { type: 'boolean', default: false },
  'show-unmanaged': { type: 'boolean', default: false },
} as const;

const planUsage = 'provision plan <manifest> [--format text|json|markdown] [--out plan.json] [--detailed-exitcode]';

export const plan: Command = {
  usage: planUsage,
  options: PLAN_OPTIONS,
  summary: 'Read the panel (4 GET requests, whatever the manifest size) and show which clients and domains apply would create, with the POST each becomes, plus conflicts, drift and unmanaged accounts. Sends nothing that changes the panel.',
  help: `Options:
  --format FORMAT        text (default), json (for scripts) or markdown (for a pull-request comment)
  --out FILE             save the plan (JSON, with a fingerprint of the panel state it depends on)
                         for 'provision apply FILE', which applies exactly it or refuses it as stale
  --detailed-exitcode    exit 0 when there are no changes, 2 when there are, 1 on errors
  --show-unmanaged       list the names of clients and domains the manifest does not list
${MASS_HELP}

Under GitHub Actions (GITHUB_ACTIONS=true) manifest problems are also printed as annotations on
the manifest's lines, and the Markdown plan is appended to $GITHUB_STEP_SUMMARY when it is set.

${CONNECTION_HELP}

Examples:
  PROVISION_URL=https://panel.example PROVISION_API_KEY=... provision plan manifest.yaml
  provision plan manifest.yaml --out plan.json            # review it, then: provision apply plan.json
  provision plan manifest.yaml --format markdown > plan.md
  provision plan manifest.yaml --detailed-exitcode || [ $? -eq 2 ]`,
  async run(args, io, secrets) {
    const { values, positionals } = parseCommandLine(args, PLAN_OPTIONS, 1, planUsage);
    const format = oneOf(values.format, '--format', ['text', 'json', 'markdown'], 'text');
    const maxCreates = positiveInteger(values['max-creates'], '--max-creates', DEFAULT_MAX_CREATES);
    const prepared = await prepare(positionals[0] ?? '', values, io, secrets);
    if (prepared === undefined) return 1;
    const { panel } = prepared;
    await panel.close();
    const mass = massCreate(prepared.view.plan, maxCreates, values['allow-mass-create']);
    const view: PlanView = mass === undefined ? prepared.view : { ...prepared.view, warnings: [mass] };
    if (values.out !== undefined) await writeAtomically(values.out, renderPlanJson(view));
    io.stdout.write(format === 'json' ? renderPlanJson(view) : format === 'markdown' ? renderPlanMarkdown(view) : renderPlanText(view, { color: useColor(io.stdout, io.env) }));
    if (mass !== undefined && format !== 'text') io.stderr.write(`warning: ${mass}\n`);
    await stepSummary(io, renderPlanMarkdown(view));
    refuseConflicts(view.plan);
    return values['detailed-exitcode'] && view.plan.changes.length > 0 ? 2 : 0;
  },
};

const APPLY_OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...MASS_OPTIONS,
  'auto-approve': { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  'secrets-file': { type: 'string' },
  'secrets-recipient': { type: 'string' },
  'settle-timeout': { type: 'string' },
  format: { type: 'string' },
  'show-unmanaged': { type: 'boolean', default: false },
} as const;

const applyUsage = 'provision apply <manifest | plan.json> [--auto-approve] [--concurrency N] [--secrets-file PATH] [--secrets-recipient AGE_KEY]';

export const apply: Command = {
  usage: applyUsage,
  options: APPLY_OPTIONS,
  summary: `Create what the plan lists: POST /clients, then POST /domains, at most --concurrency at a time. Given a manifest, it plans first and asks for confirmation on a terminal (without a terminal, as in CI, it needs --auto-approve). Given a plan file saved by 'provision plan --out', it applies exactly that plan without asking (the plan was the review), after checking that nothing it depends on changed on the panel (else exit 3, nothing sent). New clients' passwords go to the secrets file only. It creates; it never updates or deletes.`,
  help: `Options:
  --auto-approve             apply a manifest's plan without asking (needed without a terminal)
  --concurrency N            requests in flight at once (default 4)
  --secrets-file PATH        JSON Lines file for new clients' passwords, mode 0600 (or PROVISION_SECRETS_FILE)
  --secrets-recipient KEY    encrypt each password to this age public key, "age1..." (or
                             PROVISION_SECRETS_RECIPIENT); read them back with 'provision secrets decrypt'
  --settle-timeout SECONDS   how long a new client's domains are retried while the panel still sets
                             the account up (400/404 right after its 201); default ${DEFAULT_SETTLE_TIMEOUT_MS / 1000}
  --format FORMAT            text (default) or json (outcomes for scripts on stdout; progress on stderr)
  --show-unmanaged           list the names of clients and domains the manifest does not list
${MASS_HELP}

Progress: a live line on a terminal; one timestamped line per finished action otherwise.
Ctrl-C (SIGINT) or SIGTERM: requests in flight finish, the rest is skipped, the summary is
printed, exit 130; running apply again finishes the job.

Exit codes: 0 done; 1 failures (see the outcomes); 3 stale saved plan; 4 mass create refused; 130 interrupted.

${CONNECTION_HELP}

Examples:
  provision apply manifest.yaml --secrets-file ~/secrets/panel.jsonl       # on a terminal: asks first
  provision plan manifest.yaml --out plan.json && provision apply plan.json --secrets-file s.jsonl
  PROVISION_SECRETS_FILE=/secure/passwords.jsonl provision apply manifest.yaml --auto-approve --concurrency 8
  provision apply plan.json --secrets-file secrets.jsonl --secrets-recipient age1...   # CI artifact`,
  async run(args, io, secrets) {
    const { values, positionals } = parseCommandLine(args, APPLY_OPTIONS, 1, applyUsage);
    const format = oneOf(values.format, '--format', ['text', 'json'], 'text');
    const concurrency = positiveInteger(values.concurrency, '--concurrency', 4);
    const settleTimeoutMs = seconds(values['settle-timeout'], '--settle-timeout', DEFAULT_SETTLE_TIMEOUT_MS);
    const maxCreates = positiveInteger(values['max-creates'], '--max-creates', DEFAULT_MAX_CREATES);
    const recipientValue = values['secrets-recipient'] ?? io.env.PROVISION_SECRETS_RECIPIENT;
    // age-encryption loads only when asked for: it costs every other run start-up time.
    const encryption = recipientValue === undefined || recipientValue === '' ? undefined : await import('../apply/encrypt.js');
    const recipient = recipientValue === undefined || encryption === undefined ? undefined : encryption.checkRecipient(recipientValue);
    // The pool holds a connection per request in flight, whatever its default size.
    const connection = { ...values, connections: Math.max(concurrency, DEFAULT_CONNECTIONS) };
    const input = positionals[0] ?? '';
    const secretsPath = values['secrets-file'] ?? io.env.PROVISION_SECRETS_FILE;
    const saved = await readSavedPlan(input);
    let prepared: Prepared | undefined;
    if (saved === undefined) {
      io.stderr.write(`${input}: a manifest: planning against the panel now\n`);
      prepared = await prepare(input, connection, io, secrets, secretsPath);
    } else {
      io.stderr.write(`${input}: a saved plan (format ${saved.formatVersion}, made from ${saved.manifest}): applying exactly it, without asking: the plan was the review\n`);
      prepared = await prepareSaved(saved, input, connection, io, secrets, secretsPath);
    }
    if (prepared === undefined) return 1;
    const { view, panel } = prepared;
    try {
      const color = useColor(io.stdout, io.env);
      if (format === 'text') io.stdout.write(renderPlanText(view, { color }));
      refuseConflicts(view.plan);
      if (view.plan.changes.length === 0) {
        if (format === 'json') io.stdout.write(renderApplyJson([], [], view.panelUrl));
        return 0;
      }
      const mass = massCreate(view.plan, maxCreates, values['allow-mass-create']);
      if (mass !== undefined) {
        throw new ProvisionError('mass_create', `${mass}: nothing was sent`, { hint: 'check the plan; if it is meant, run apply again with --allow-mass-create (or a higher --max-creates)' });
      }
      requireSecretsDestination(view.plan, secretsPath);
      if (saved === undefined && !values['auto-approve']) await confirm(view, io, format);
      const secretsFile = await openSecrets(view.plan, secretsPath, io);
      const file: SecretsSink | undefined =
        secretsFile === undefined || recipient === undefined || encryption === undefined ? secretsFile : new encryption.EncryptingSink(secretsFile, recipient);
      const sink = file === undefined ? undefined : redactingPasswords(file, secrets);
      const progress = new Progress(io, format, view.plan.changes.length);
      const controller = new AbortController();
      let running = true;
      void io.untilStopped().then(() => {
        if (!running) return;
        controller.abort();
        progress.note('interrupted: requests in flight finish; nothing new is sent');
      });
      let outcomes: Outcome[];
      try {
        const creator = panelCreator(panel, {
          settleTimeoutMs,
          signal: controller.signal,
          onWait: (message) => {
            progress.note(message);
          },
        });
        outcomes = await executePlan(view.plan, creator, {
          concurrency,
          secrets: sink,
          panelUrl: view.panelUrl,
          signal: controller.signal,
          onOutcome: (outcome) => {
            progress.outcome(outcome);
          },
        });
      } finally {
        running = false;
        progress.end();
        await secretsFile?.close();
      }
      const interrupted = controller.signal.aborted;
      if (format === 'json') io.stdout.write(renderApplyJson(outcomes, view.plan.changes.map((c) => c.id), view.panelUrl));
      else io.stdout.write(`\n${renderApplySummary(outcomes)}\n`);
      if (secretsFile !== undefined && tally(outcomes).succeeded > 0) {
        io.stderr.write(`New clients' passwords are in ${secretsFile.path}${recipient === undefined ? '' : ', encrypted to the age recipient'}.\n`);
      }
      if (interrupted) io.stderr.write('Interrupted: run apply again to create what is still missing.\n');
      await stepSummary(io, `${renderPlanMarkdown(view)}\n**${renderApplySummary(outcomes)}**\n`);
      return interrupted ? EXIT_INTERRUPTED : tally(outcomes).failed > 0 ? 1 : 0;
    } finally {
      await panel.close();
    }
  },
};

interface Prepared {
  readonly view: PlanView;
  readonly panel: PanelClient;
}

/** Adds each password to the run's redaction set as it is recorded: it can then never be printed. */
function redactingPasswords(inner: SecretsSink, secrets: Set<string>): SecretsSink {
  return {
    intend: (entry) => inner.intend(entry),
    record: (entry) => {
      if (entry.password !== null) secrets.add(entry.password);
      return inner.record(entry);
    },
  };
}

/** Manifest, panel, diff: what plan and apply share. Undefined when the manifest is invalid. */
async function prepare(
  manifest: string,
  values: Parameters<typeof connect>[0] & { 'show-unmanaged'?: boolean | undefined },
  io: Io,
  secrets: Set<string>,
  secretsPath?: string,
): Promise<Prepared | undefined> {
  const { desired, sha256: manifestSha256 } = await loadOrReport(manifest, io);
  if (desired === undefined) return undefined;
  const panel = await connect(values, io, secrets);
  try {
    const notes: string[] = [];
    const live = await readLive(panel, {
      domainNames: desired.clients.flatMap((c) => c.domains.map((d) => d.name)),
      onNote: (note) => notes.push(note),
    });
    // Before any refusal (an unknown plan, a conflict): a client whose password was lost is named.
    await reportLostPasswords(secretsPath, panel.baseUrl, live, io);
    const plan = diff(desired, live);
    const view: PlanView = {
      plan,
      panelUrl: panel.baseUrl,
      manifest,
      showUnmanaged: values['show-unmanaged'] === true,
      notes,
      manifestSha256,
      fingerprint: planFingerprint(plan, live),
    };
    return { view, panel };
  } catch (error) {
    await panel.close();
    throw error;
  }
}

/**
 * A saved plan when `path` is one: a JSON object with `format_version` (validated fully), or a
 * `.json` file that mentions `"format_version"` (so a damaged plan file is reported as one).
 * Undefined: treat it as a manifest (YAML reads JSON too, so a `.json` manifest works).
 */
async function readSavedPlan(path: string): Promise<SavedPlan | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined; // the manifest loader words the error
  }
  if (!text.trimStart().startsWith('{')) return undefined;
  let isPlan: boolean;
  try {
    const data = JSON.parse(text) as unknown;
    isPlan = typeof data === 'object' && data !== null && 'format_version' in data;
  } catch {
    isPlan = extname(path).toLowerCase() === '.json' && text.includes('"format_version"');
  }
  if (!isPlan) return undefined;
  return parsePlanFile(text, path);
}

/**
 * The panel re-read for a saved plan: refused when made for another panel, or stale when
 * anything it depends on changed (then nothing is sent).
 */
async function prepareSaved(
  saved: SavedPlan,
  file: string,
  values: Parameters<typeof connect>[0],
  io: Io,
  secrets: Set<string>,
  secretsPath: string | undefined,
): Promise<Prepared> {
  const panel = await connect(values, io, secrets);
  try {
    if (panel.baseUrl !== saved.panelUrl) {
      throw new ProvisionError('plan_file', `${file} was made for the panel ${saved.panelUrl}, not ${panel.baseUrl}: nothing was sent`, {
        hint: 'apply it with --url / PROVISION_URL set to the panel it was made for, or make a plan for this panel',
      });
    }
    const notes: string[] = [];
    const live = await readLive(panel, {
      domainNames: saved.plan.changes.filter((c) => c.type === 'domain').map((c) => c.name),
      onNote: (note) => notes.push(note),
    });
    // Before any refusal: a stale plan must not hide a client whose password was lost.
    await reportLostPasswords(secretsPath, panel.baseUrl, live, io);
    if (planFingerprint(saved.plan, live) !== saved.fingerprint) {
      const reasons = staleReasons(saved.plan, live);
      throw new ProvisionError('stale_plan', `stale plan: the panel changed since ${file} was made (${plural(reasons.length, 'difference')}): nothing was sent`, {
        details: reasons.length > 0 ? reasons : ['the panel state does not match the fingerprint recorded in the plan'],
        hint: 'make a new plan (provision plan <manifest> --out FILE), review it, and apply that',
      });
    }
    const view: PlanView = {
      plan: saved.plan,
      panelUrl: panel.baseUrl,
      manifest: saved.manifest,
      showUnmanaged: false,
      notes,
      manifestSha256: saved.manifestSha256,
      fingerprint: saved.fingerprint,
    };
    return { view, panel };
  } catch (error) {
    await panel.close();
    throw error;
  }
}

/** The mass-create warning, or undefined when the plan is within the limit or it is allowed. */
function massCreate(plan: Plan, max: number, allowed: boolean | undefined): string | undefined {
  const count = plan.changes.length;
  if (count <= max || allowed === true) return undefined;
  return `this plan creates ${count} resources, more than the limit of ${max} (--max-creates): apply refuses it without --allow-mass-create`;
}

/**
 * On a terminal, asks before a manifest's plan is applied; without one (CI), refuses:
 * nobody can answer, and a pipeline must say --auto-approve on purpose.
 */
async function confirm(view: PlanView, io: Io, format: 'text' | 'json'): Promise<void> {
  const count = plural(view.plan.changes.length, 'change');
  if (io.prompt === undefined || !io.stderr.isTTY) {
    throw new ProvisionError('approval_required', `apply needs --auto-approve without a terminal to confirm on: ${count} planned, nothing was sent`, {
      hint: 'review the plan above (or run provision plan --out plan.json), then run apply with --auto-approve (or apply the saved plan file)',
    });
  }
  if (format === 'json') io.stderr.write(renderPlanText(view, { color: useColor(io.stderr, io.env) }));
  const answer = await io.prompt(`\nApply ${count} to ${view.panelUrl}? Only "yes" goes on: `);
  if (answer.trim() !== 'yes') {
    throw new ProvisionError('approval_required', `apply cancelled: ${count} planned, nothing was sent`);
  }
}

/**
 * Progress of an apply. On a terminal with a known width, finished actions are printed as they
 * come with one live counts line under them (stderr, redrawn in place); otherwise one
 * timestamped line per finished action, for CI logs. Outcome lines go to stdout in text
 * format, to stderr in json format (stdout is then the result only).
 */
class Progress {
  private readonly lines: Output;
  private readonly live: boolean;
  private readonly counts = { succeeded: 0, failed: 0, skipped: 0 };
  private shown = false;

  constructor(
    private readonly io: Io,
    format: 'text' | 'json',
    private readonly total: number,
  ) {
    this.lines = format === 'json' ? io.stderr : io.stdout;
    this.live = io.stderr.isTTY && (io.stderr.columns ?? 0) > 0;
  }

  outcome(outcome: Outcome): void {
    this.counts[outcome.status]++;
    this.clear();
    const stamp = this.lines.isTTY ? '' : `${new Date().toISOString()} `;
    this.lines.write(`${stamp}${renderOutcomeLine(outcome, { color: useColor(this.lines, this.io.env) })}\n`);
    this.draw();
  }

  note(text: string): void {
    this.clear();
    this.io.stderr.write(`${text}\n`);
    this.draw();
  }

  end(): void {
    this.clear();
  }

  private draw(): void {
    if (!this.live) return;
    this.io.stderr.write(renderProgressLine(this.counts, this.total, this.io.stderr.columns ?? 0));
    this.shown = true;
  }

  private clear(): void {
    if (!this.shown) return;
    this.io.stderr.write('\r\x1b[2K');
    this.shown = false;
  }
}

/** Appends Markdown to $GITHUB_STEP_SUMMARY under GitHub Actions; a failure there is a warning. */
async function stepSummary(io: Io, markdown: string): Promise<void> {
  const path = io.env.GITHUB_STEP_SUMMARY;
  if (!onGitHubActions(io.env) || path === undefined || path === '') return;
  try {
    await appendFile(path, `${markdown}\n`);
  } catch (error) {
    io.stderr.write(`warning: cannot append to $GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
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

/** Refuses, before anything is asked or sent, a plan that creates clients without a secrets destination. */
function requireSecretsDestination(plan: Plan, path: string | undefined): void {
  if (!plan.changes.some((c) => c.type === 'client')) return;
  if (path === undefined || path === '') {
    throw new ProvisionError('secrets', 'this apply creates clients, and their passwords need a secrets file: nothing was sent', {
      hint: 'give --secrets-file PATH or set PROVISION_SECRETS_FILE (a JSON Lines file, created with mode 0600, outside git)',
    });
  }
}

/** The secrets file, opened before any POST; required only when clients will be created. */
async function openSecrets(plan: Plan, path: string | undefined, io: Io): Promise<SecretsFile | undefined> {
  if (!plan.changes.some((c) => c.type === 'client')) return undefined;
  requireSecretsDestination(plan, path);
  const file = await SecretsFile.open(path ?? '');
  const warning = await secretsGitWarning(path ?? '');
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
