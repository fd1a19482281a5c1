import {
  doctor as runDoctor,
  type DoctorCheckId,
  type DoctorResult,
  type DoctorStatus,
  KIND_CHECK_LABELS,
} from '../api/doctor.js';
import { jsonText, safeText } from '../escape.js';
import { plural } from '../util.js';
import type { Command } from './args.js';
import { oneOf, parseCommandLine } from './args.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect } from './connection.js';
import { EXIT, exitCodesHelp } from './exit.js';

const DOCTOR_OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string' },
} as const;

/** The format of doctor's JSON document (schemas/doctor-result.schema.json); a reader accepts any minor of its major. */
export const DOCTOR_FORMAT_VERSION = '1.0';

const usage = 'provision doctor [--format text|json] [--url URL] [--api-key-file FILE] [--ca-file FILE]';

/** Each check's name in the text form: the kinds' lines' as each kind says it (Kind.doctor). */
const LABELS: Readonly<Record<DoctorCheckId, string>> = {
  reachable: 'reachable',
  api: 'API on',
  key: 'key accepted',
  lists: 'list shapes',
  ...KIND_CHECK_LABELS,
  version: 'panel version',
};

const STATUS_TEXT: Readonly<Record<DoctorStatus, string>> = {
  ok: 'ok',
  failed: 'FAILED',
  not_checked: 'not checked',
};

export const doctor: Command = {
  usage,
  options: DOCTOR_OPTIONS,
  summary:
    'Check, read-only, whether a panel gives what panel-provision relies on: reachable, API on, key accepted, ' +
    'list shapes, the client and domain fields the engine manages, zones readable, and the panel version when ' +
    'GET /server says it. One line each: ok, FAILED (with what to do) or not checked (with why: an empty ' +
    'panel has no client to look at). A few GET requests; nothing is changed. ' +
    `Exit ${EXIT.ok} when every check holds or is not checked, ${EXIT.failure} when one failed.`,
  help: `Options:
  --format FORMAT        text (default: one line per check) or json (one document on stdout:
                         schemas/doctor-result.schema.json)

A refused key stops the checks at once: nothing more is sent (repeated bad keys can lock you
out). Only a list read proves the key: when GET /hosting-plans fails otherwise (a 500, no
answer), "key accepted" is not checked. Doctor takes 60 s at most in all: a panel still silent
then fails the check that waits for it, and the rest are not checked. docs/doctor.md says what each check means and what to do when it fails; attach the JSON
to a bug report.

${CONNECTION_HELP}

Examples:
  PROVISION_URL=https://panel.example PROVISION_API_KEY=... provision doctor
  provision doctor --url https://panel.example --api-key-file key.txt --ca-file panel-ca.pem
  provision doctor --format json > doctor.json

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io, credentials) {
    const { values } = parseCommandLine(args, DOCTOR_OPTIONS, 0, usage);
    const format = oneOf(values.format, '--format', ['text', 'json'], 'text');
    const panel = await connect(values, io, credentials);
    let result: DoctorResult;
    try {
      result = await runDoctor(panel);
    } finally {
      await panel.close();
    }
    io.stdout.write(format === 'json' ? doctorJson(result) : doctorText(result));
    return result.ok ? EXIT.ok : EXIT.failure;
  },
};

/** The JSON document (schemas/doctor-result.schema.json), ending in a newline. */
export function doctorJson(result: DoctorResult): string {
  const document = {
    format_version: DOCTOR_FORMAT_VERSION,
    panel_url: result.panelUrl,
    checks: result.checks.map((c) => ({ id: c.id, status: c.status, message: c.message })),
    ok: result.ok,
  };
  return `${jsonText(document, 2)}\n`;
}

/** One line per check (status, name, what was seen), then a summary line. */
export function doctorText(result: DoctorResult): string {
  const width = Math.max(...Object.values(STATUS_TEXT).map((s) => s.length));
  const labelWidth = Math.max(...Object.values(LABELS).map((s) => s.length));
  const lines = result.checks.map(
    (c) => `${STATUS_TEXT[c.status].padEnd(width)}  ${LABELS[c.id].padEnd(labelWidth)}  ${safeText(c.message)}`,
  );
  const failed = result.checks.filter((c) => c.status === 'failed').length;
  const unchecked = result.checks.filter((c) => c.status === 'not_checked').length;
  const aside = unchecked === 0 ? '' : ` (${unchecked} not checked)`;
  const summary =
    failed === 0
      ? `Every check holds${aside}.`
      : `${plural(failed, 'check')} failed${aside}: see the FAILED ${failed === 1 ? 'line' : 'lines'} for what to do.`;
  return `Panel: ${safeText(result.panelUrl)}\n${lines.join('\n')}\n${summary}\n`;
}
