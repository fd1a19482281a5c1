import {
  DEFAULT_CONCURRENCY,
  DEFAULT_SETTLE_TIMEOUT_MS,
  MAX_CONCURRENCY,
  type Outcome,
  runPlan,
  secretNouns,
  settlePasswords,
  tally,
} from '../api/apply.js';
import {
  DEFAULT_MAX_DELETES,
  fingerprintNow,
  refuseConflicts,
  refuseMassChanges,
  withWarnings,
} from '../api/prepare.js';
import { ProvisionError } from '../errors.js';
import { DEFAULT_CONNECTIONS } from '../panel/index.js';
import type { PlanView } from '../render/common.js';
import { applyJsonPieces, renderApplyJson, renderApplySummary } from '../render/outcome.js';
import { planTextPieces } from '../render/text.js';
import { generatePassword } from '../secrets/password.js';
import { secretsGitWarning } from '../secrets/git.js';
import { SecretsLock } from '../secrets/lock.js';
import { loadEncryption, openSecretsSink, refusePlaintextInCi, requireSecretsPath } from '../secrets/sink.js';
import { plural } from '../util.js';
import type { Command, Credentials } from './args.js';
import { count, oneOf, parseCommandLine, type Range, rangeText, SECONDS, seconds } from './args.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connection.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { onGitHubActions, stepSummary } from './github.js';
import type { Io } from './io.js';
import { useColor } from './io.js';
import { ApplyProgress } from './progress.js';
import { writePieces } from './write-pieces.js';
import {
  MASS_HELP,
  MASS_OPTIONS,
  massLimits,
  planFromManifest,
  planFromSavedPlan,
  type Prepared,
  readInput,
  refuseScopedSavedPlan,
  SCOPE_HELP,
  SCOPE_OPTIONS,
  scopeOf,
} from './prepare.js';
import { MANIFEST_SIZE_HELP, MANIFEST_SIZE_OPTIONS, manifestSizeLimit, sourceName } from './manifest-input.js';

const CONCURRENCY: Range = { min: 1, max: MAX_CONCURRENCY };
/** --settle-timeout, in seconds: up to an hour. */
const SETTLE_TIMEOUT: Range = SECONDS;
/** --settle-timeout's range and default, as its help line gives them. */
const settleTimeoutText = `${rangeText(SETTLE_TIMEOUT)}, default ${DEFAULT_SETTLE_TIMEOUT_MS / 1000}`;

const APPLY_OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...MASS_OPTIONS,
  ...SCOPE_OPTIONS,
  'auto-approve': { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  'secrets-file': { type: 'string' },
  'secrets-recipient': { type: 'string' },
  'allow-plaintext-secrets': { type: 'boolean', default: false },
  'generate-passwords': { type: 'boolean', default: false },
  'settle-timeout': { type: 'string' },
  format: { type: 'string' },
  'show-unmanaged': { type: 'boolean', default: false },
  ...MANIFEST_SIZE_OPTIONS,
} as const;

const applyUsage =
  'provision apply <manifest | plan.json> [--auto-approve] [--concurrency N] [--secrets-file PATH] ' +
  '[--secrets-recipient AGE_KEY] [--generate-passwords] [--clients GLOB]...';

export const apply: Command = {
  usage: applyUsage,
  options: APPLY_OPTIONS,
  summary:
    'Carry out what the plan lists: creates (POST) and updates (PUT) first, then deletes (DELETE), ' +
    'at most --concurrency at a time. Given a manifest, it plans first and asks for confirmation on a terminal ' +
    '(without a terminal, as in CI, it needs --auto-approve). ' +
    "Given a plan file saved by 'provision plan --out', it applies exactly that plan without asking " +
    '(the plan was the review), after checking that nothing it depends on changed on the panel ' +
    `(else exit ${EXIT.stalePlan}, nothing sent). New passwords, of every kind, go to the secrets file only. ` +
    `Deletes beyond --max-deletes (default ${DEFAULT_MAX_DELETES}) need --allow-mass-delete.`,
  help: `Options:
  --auto-approve             apply a manifest's plan without asking (needed without a terminal)
  --concurrency N            requests in flight at once (${rangeText(CONCURRENCY)}, default ${DEFAULT_CONCURRENCY})
  --secrets-file PATH        JSON Lines file for new clients' passwords, mode 0600 (or PROVISION_SECRETS_FILE)
  --secrets-recipient KEY    encrypt each password to this age public key, "age1..." (or
                             PROVISION_SECRETS_RECIPIENT); read them back with 'provision secrets decrypt'
  --allow-plaintext-secrets  under CI (CI set, not false or 0), allow writing passwords in clear
  --generate-passwords       make each new client's password here (24 random letters and digits), write it
                             to the secrets file before the POST that sends it: no kill or lost answer loses one
  --settle-timeout SECONDS   how long a new client's domains are retried while the panel still sets
                             the account up (400/404 right after its 201), and how long after an
                             earlier run's unanswered POST its client is looked for: ${settleTimeoutText}
  --format FORMAT            text (default) or json (outcomes for scripts on stdout; progress on stderr)
  --show-unmanaged           list the names of clients and domains the manifest does not list
${SCOPE_HELP}
                         (a manifest only: a saved plan keeps the scope it was made with)
${MASS_HELP}
${MANIFEST_SIZE_HELP}
                         (a manifest only: not a saved plan file)

A manifest may be a file or a directory of parts (every *.yaml and *.yml file in it, in name
order, as one manifest: docs/manifest.md, "Manifest directories").

Progress: a live line on a terminal; one timestamped line per finished action otherwise.
Ctrl-C (SIGINT) or SIGTERM: requests in flight finish, the rest is skipped, the summary is
printed, exit ${EXIT.interrupted}; running apply again finishes the job. A second one stops at once.
One apply or secrets reset at a time per secrets file (a lock file beside it, <file>.lock): a
second one exits ${EXIT.failure} at once, naming the first; a lock left by a killed run is taken over.

${CONNECTION_HELP}

Examples:
  provision apply manifest.yaml --secrets-file ~/secrets/panel.jsonl       # on a terminal: asks first
  provision plan manifest.yaml --out plan.json && provision apply plan.json --secrets-file s.jsonl
  PROVISION_SECRETS_FILE=/secure/passwords.jsonl provision apply manifest.yaml --auto-approve --concurrency 8
  provision apply plan.json --secrets-file secrets.jsonl --secrets-recipient age1...   # CI artifact
  provision apply manifest.yaml --generate-passwords --secrets-file s.jsonl            # panels that take "password"

${exitCodesHelp(['ok', 'failure', 'stalePlan', 'massChange', 'interrupted'])}`,
  async run(args, io, credentials) {
    const { values, positionals } = parseCommandLine(args, APPLY_OPTIONS, 1, applyUsage);
    const format = oneOf(values.format, '--format', ['text', 'json'], 'text');
    const concurrency = count(values.concurrency, '--concurrency', CONCURRENCY, DEFAULT_CONCURRENCY);
    const settleTimeoutMs = seconds(
      values['settle-timeout'],
      '--settle-timeout',
      DEFAULT_SETTLE_TIMEOUT_MS,
      SETTLE_TIMEOUT,
    );
    const limits = massLimits(values);
    const scope = scopeOf(values);
    const cap = manifestSizeLimit(values);
    const encryption = await loadEncryption(values['secrets-recipient'] ?? io.env.PROVISION_SECRETS_RECIPIENT);
    const path = positionals[0] ?? '';
    const secretsPath = values['secrets-file'] ?? io.env.PROVISION_SECRETS_FILE;
    const options = {
      connection: values,
      // The pool holds a connection per request in flight, whatever its default size.
      connections: Math.max(concurrency, DEFAULT_CONNECTIONS),
      concurrency,
      showUnmanaged: values['show-unmanaged'],
      secretsPath,
      scope,
      cap,
    };
    // One apply (or secrets reset) at a time per secrets file, for the whole run (docs/passwords.md):
    // taken before the panel is read, so a second run refuses before it sends anything, and
    // the repairs of the journal while planning run under it too.
    const lock =
      secretsPath === undefined || secretsPath === '' ? undefined : await SecretsLock.acquire(secretsPath, 'apply');
    // Whether git would commit the secrets file: asked now (git is a process of its own), so the
    // answer is in while the panel is read, not awaited between the plan and the first request.
    const gitWarning = secretsPath === undefined || secretsPath === '' ? undefined : secretsGitWarning(secretsPath);
    try {
      // The input (a manifest's bytes, what it wants) lives only while the plan is made: the
      // fingerprint is made after (api/prepare.ts viewOf), the changes applied after that.
      const { prepared, fromManifest } = await prepareInput(path, io, credentials, options, scope);
      const { panel } = prepared;
      const view = withWarnings(fingerprintNow(prepared.view), limits);
      try {
        // Passwords the secrets file cannot tell are set anew even when nothing else is to do.
        const { unknownPasswords } = prepared;
        // The secrets destination is checked before anything is printed: a run that cannot keep
        // the passwords it would make shows no plan it will not carry out.
        const creates = secretNouns(view.plan.changes);
        const checkedSecretsPath =
          creates !== undefined || unknownPasswords.length > 0
            ? requireSecretsPath(
                secretsPath,
                creates === undefined
                  ? 'this apply sets passwords anew, and they need'
                  : `this apply creates ${creates}, and their passwords need`,
              )
            : undefined;
        if (checkedSecretsPath !== undefined)
          refusePlaintextInCi({
            encryption,
            env: io.env,
            allowPlaintext: values['allow-plaintext-secrets'],
            command: 'this apply',
          });
        const color = useColor(io.stdout, io.env);
        if (format === 'text') await writePieces(io.stdout, planTextPieces(view, { color }));
        refuseConflicts(view.plan, prepared.conflictsAt);
        if (view.plan.changes.length === 0 && unknownPasswords.length === 0) {
          if (format === 'json') io.stdout.write(renderApplyJson([], view.plan, view.panelUrl));
          return EXIT.ok;
        }
        refuseMassChanges(view.plan, limits);
        if (fromManifest && !values['auto-approve'] && view.plan.changes.length > 0) await confirm(view, io, format);
        const secrets =
          checkedSecretsPath === undefined
            ? undefined
            : await openSecretsSink({
                path: checkedSecretsPath,
                encryption,
                redactions: credentials.redactions,
                ...(gitWarning === undefined ? {} : { gitWarning }),
              });
        for (const warning of secrets?.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
        const progress = new ApplyProgress(io, format, view.plan.changes.length);
        const controller = new AbortController();
        let running = true;
        void io.untilStopped().then(() => {
          if (!running) return;
          controller.abort();
          progress.note('interrupted: requests in flight finish; nothing new is sent (Ctrl-C again stops at once)');
          void io.untilStopped().then(() => {
            if (!running) return;
            progress.note(
              'stopped at once: the answers of requests in flight are lost; ' +
                'run apply again: it creates what is missing and sets a new password for any client whose password was never seen',
            );
            io.exit?.(EXIT.interrupted);
          });
        });
        let outcomes: Outcome[];
        let unsettled: string[] = [];
        try {
          if (secrets !== undefined)
            unsettled = await settlePasswords(panel, secrets.sink, unknownPasswords, {
              signal: controller.signal,
              onEvent: progress.onEvent,
            });
          outcomes = await runPlan(view.plan, panel, {
            concurrency,
            settleTimeoutMs,
            secrets: secrets?.sink,
            unsettled: prepared.unsettled,
            signal: controller.signal,
            ...(values['generate-passwords'] ? { newPassword: () => generatePassword() } : {}),
            onEvent: progress.onEvent,
          });
        } finally {
          running = false;
          progress.end();
          await secrets?.close();
        }
        const interrupted = controller.signal.aborted;
        if (format === 'json') await writePieces(io.stdout, applyJsonPieces(outcomes, view.plan, view.panelUrl));
        else io.stdout.write(`\n${renderApplySummary(outcomes)}\n`);
        const setAnew = unknownPasswords.length - unsettled.length;
        if (secrets !== undefined && (tally(outcomes).succeeded > 0 || setAnew > 0)) {
          io.stderr.write(
            `${setAnew > 0 && tally(outcomes).succeeded === 0 ? 'The new passwords' : 'New passwords'} ` +
              `are in ${secrets.path}${secrets.encrypted ? ', encrypted to the age recipient' : ''}.\n`,
          );
        }
        for (const failure of unsettled) io.stderr.write(`error: ${failure}\n`);
        if (interrupted) io.stderr.write('Interrupted: run apply again to do what is still to do.\n');
        // The step summary exists only under GitHub Actions (stepSummary checks the rest): the Markdown
        // renderer is loaded for it alone.
        if (onGitHubActions(io.env)) {
          const { renderPlanMarkdown } = await import('../render/markdown.js');
          await stepSummary(
            io,
            credentials.redactions,
            `${renderPlanMarkdown(view)}\n**${renderApplySummary(outcomes)}**\n`,
          );
        }
        return interrupted
          ? EXIT.interrupted
          : tally(outcomes).failed > 0 || unsettled.length > 0
            ? EXIT.failure
            : EXIT.ok;
      } finally {
        await panel.close();
      }
    } finally {
      await lock?.release();
    }
  },
};

/**
 * On a terminal, asks before a manifest's plan is applied; without one (CI), refuses:
 * nobody can answer, and a pipeline must say --auto-approve on purpose.
 */
async function confirm(view: PlanView, io: Io, format: 'text' | 'json'): Promise<void> {
  const count = plural(view.plan.changes.length, 'change');
  if (io.prompt === undefined || !io.stderr.isTTY) {
    throw new ProvisionError(
      'approval_required',
      `apply needs --auto-approve without a terminal to confirm on: ${count} planned, nothing was sent`,
      {
        hint:
          'review the plan above (or run provision plan --out plan.json), ' +
          'then run apply with --auto-approve (or apply the saved plan file)',
      },
    );
  }
  if (format === 'json') await writePieces(io.stderr, planTextPieces(view, { color: useColor(io.stderr, io.env) }));
  // A change that destroys data (`destroysData`, the plan document's `destroys_data`) is said in the question too.
  const destroying = view.plan.changes.filter((c) => 'destroysData' in c).length;
  const data = destroying === 0 ? '' : `, ${plural(destroying, 'delete')} destroying data for good`;
  const answer = await io.prompt(`\nApply ${count} to ${view.panelUrl}${data}? Only "yes" goes on: `);
  if (answer.trim() !== 'yes') {
    throw new ProvisionError('approval_required', `apply cancelled: ${count} planned, nothing was sent`);
  }
}

/** Reads `path` (a manifest or a saved plan) and prepares its plan; whether it was a manifest. */
async function prepareInput(
  path: string,
  io: Io,
  credentials: Credentials,
  options: Parameters<typeof planFromManifest>[3],
  scope: readonly string[] | undefined,
): Promise<{ readonly prepared: Prepared; readonly fromManifest: boolean }> {
  const input = await readInput(path, io, options.cap);
  if (input.kind === 'manifest') {
    io.stderr.write(`${sourceName(path)}: a manifest: planning against the panel now\n`);
    // Handed over: planFromManifest takes the files out of `input` once read and hashed (ManifestHandle).
    return { prepared: await planFromManifest(input, io, credentials, options), fromManifest: true };
  }
  refuseScopedSavedPlan(scope, path);
  io.stderr.write(
    `${path}: a saved plan (format ${input.saved.formatVersion}, made from ${input.saved.manifest}): ` +
      'applying exactly it, without asking: the plan was the review\n',
  );
  return { prepared: await planFromSavedPlan(input.saved, path, io, credentials, options), fromManifest: false };
}
