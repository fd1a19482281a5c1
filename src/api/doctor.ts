/**
 * `provision doctor` in the library: read-only checks of a real panel, each saying whether the
 * panel gives what the engine relies on, one at a time and in a fixed order (DOCTOR_CHECKS).
 * Only GETs are sent, a handful whatever the panel's size; after a refused key nothing more is
 * sent (repeated bad keys can lock the caller out). Lists and records are read as plan reads
 * them (the panel's own readers), so a check that holds here holds for plan.
 *
 * A check is `failed` when plan or apply would stop on what the panel answers there, or when a
 * manifest key could never be compared on this panel; `ok` when the engine works with it, maybe
 * through a fallback it has (the message then names what that costs or leaves out); `not_checked`
 * when there is nothing to look at (an empty panel) or an earlier check failed, or when what was
 * seen proves nothing (a key is proved only by a list read). The panel's version (GET /server,
 * which the engine never uses) is never `failed`. All of it within a deadline (DoctorOptions):
 * a panel that answers /ping and then hangs would cost each request its own budget.
 *
 * Messages hold names and values from the panel as data (quoted); the caller escapes them for
 * its output (the CLI: safeText, jsonText). The API key is never in them.
 */
import type { ProvisionError } from '../errors.js';
import type { DoctorListRead, DoctorStage } from '../kinds/doctor.js';
import type { PanelClient } from '../panel/client.js';
import { PanelHttpError, PanelNetworkError } from '../panel/errors.js';
import { panelLookUps } from '../panel/look-ups.js';
import { shape } from '../kinds/panel-record.js';
import { isRecord } from '../util.js';
import {
  DOCTOR_CHECKS,
  type DoctorCheckId,
  type DoctorStatus,
  asProvisionError,
  KIND_CHECKS,
  KIND_LISTS,
  listsCheck,
  readKindList,
  versionCheck,
  withHint,
} from './doctor-checks.js';

export { DOCTOR_CHECKS, type DoctorCheckId, type DoctorStatus, KIND_CHECK_LABELS } from './doctor-checks.js';

/** One check's outcome: its id, its status, and one line saying what was seen (names from the panel quoted). */
export interface DoctorCheck {
  readonly id: DoctorCheckId;
  readonly status: DoctorStatus;
  readonly message: string;
}

/** What doctor found: every check of DOCTOR_CHECKS, in order; `ok` when none failed. */
export interface DoctorResult {
  readonly panelUrl: string;
  readonly checks: readonly DoctorCheck[];
  readonly ok: boolean;
}

/** How long doctor may take in all, by default: it then reports what it has (docs/doctor.md). */
export const DOCTOR_DEADLINE_MS = 60_000;

export interface DoctorOptions {
  /**
   * How long the checks may take in all (default DOCTOR_DEADLINE_MS): once it has passed, the
   * check waiting for the panel fails, saying so, and the rest are not checked. A request then
   * in flight is abandoned, not cut: it ends within its own budget (the client's retryBudgetMs).
   */
  readonly deadlineMs?: number;
}

/** Thrown by a step still waiting when doctor's deadline passes. */
class DeadlinePassed extends Error {}

/**
 * Runs every check against `panel` (connectPanel's client; the caller closes it), within
 * `deadlineMs` in all. Never throws for what the panel answers or fails to answer: that is a
 * check's outcome. Changes nothing.
 */
export async function doctor(panel: PanelClient, options: DoctorOptions = {}): Promise<DoctorResult> {
  const deadlineMs = options.deadlineMs ?? DOCTOR_DEADLINE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    // Kept referenced (cleared when doctor ends): the deadline fires even if nothing else is pending.
    timer = setTimeout(() => {
      reject(new DeadlinePassed());
    }, deadlineMs);
  });
  expired.catch(() => undefined);
  const within = <T>(step: Promise<T>): Promise<T> => Promise.race([step, expired]);
  const checks: DoctorCheck[] = [];
  // The check in progress and the request it waits for, for the deadline's message.
  const now = { id: 'reachable' as DoctorCheckId, waiting: panel.describe('GET', '/ping') };
  try {
    await runChecks(panel, checks, within, now);
  } catch (error) {
    if (!(error instanceof DeadlinePassed)) throw error;
    const seconds = `${deadlineMs / 1000} s`;
    checks.push({
      id: now.id,
      status: 'failed',
      message:
        `no answer within doctor's deadline of ${seconds} (${now.waiting} was still waiting); ` +
        'what to do: the panel is slow or stuck: check its load and logs, then run doctor again',
    });
    for (const id of DOCTOR_CHECKS.slice(DOCTOR_CHECKS.indexOf(now.id) + 1))
      checks.push({ id, status: 'not_checked', message: `doctor's deadline of ${seconds} passed before it` });
  } finally {
    clearTimeout(timer);
  }
  return result(panel, checks);
}

/** The checks in order, into `checks`; each wait for the panel through `within` (the deadline). */
async function runChecks(
  panel: PanelClient,
  checks: DoctorCheck[],
  within: <T>(step: Promise<T>) => Promise<T>,
  now: { id: DoctorCheckId; waiting: string },
): Promise<void> {
  const say = (id: DoctorCheckId, status: DoctorStatus, message: string): void => {
    checks.push({ id, status, message });
  };
  const rest = (after: DoctorCheckId, why: string): void => {
    for (const id of DOCTOR_CHECKS.slice(DOCTOR_CHECKS.indexOf(after) + 1)) say(id, 'not_checked', why);
  };
  const where = (path: string): string => panel.describe('GET', path);
  const step = <T>(id: DoctorCheckId, path: string, run: () => Promise<T>): Promise<T> => {
    now.id = id;
    now.waiting = where(path);
    return within(run());
  };

  // reachable, API on, and the key as far as GET /ping tells it.
  let pong: unknown;
  try {
    pong = await step('reachable', '/ping', () => panel.get('/ping'));
  } catch (error) {
    if (error instanceof DeadlinePassed) throw error;
    const failure = asProvisionError(error);
    if (failure instanceof PanelNetworkError || (failure instanceof PanelHttpError && failure.status === 407)) {
      say('reachable', 'failed', withHint(failure));
      rest('reachable', 'the panel did not answer');
      return;
    }
    say('reachable', 'ok', reached(panel));
    if (failure instanceof PanelHttpError && (failure.status === 401 || failure.status === 403)) {
      if (failure.panelMessage === undefined)
        say('api', 'not_checked', `${where('/ping')} answered ${failure.status} without a JSON message`);
      else say('api', 'ok', `the API answers (${where('/ping')}: ${failure.status} with a JSON message)`);
      say('key', 'failed', keyRefused(failure));
      rest('key', KEY_REFUSED);
      return;
    }
    say('api', 'failed', withHint(failure));
    rest('api', 'the API did not answer');
    return;
  }
  say('reachable', 'ok', reached(panel));
  if (!isRecord(pong) || pong.response !== 'pong') {
    say(
      'api',
      'failed',
      `${where('/ping')}: expected {"response":"pong"}, got ${shape(pong)}; ` +
        'what to do: check that --url / PROVISION_URL points at the panel (its API lives under /api/v2)',
    );
    rest('api', 'the API did not answer');
    return;
  }
  say('api', 'ok', `${where('/ping')} answers {"response":"pong"}`);

  // The key: GET /ping may answer without one, so the first list confirms it (only a list read
  // proves it, a 401 or 403 disproves it; anything else tells nothing). Its kind says which.
  const [keyList, ...others] = KIND_LISTS;
  if (keyList === undefined) throw new Error('no kind lists what proves the key');
  const keyPath = keyList.list.path;
  let first: DoctorListRead;
  try {
    first = await step('key', keyPath, () => readKindList(panel, keyList));
  } catch (error) {
    if (!(error instanceof DeadlinePassed)) throw error;
    say('key', 'not_checked', `${where(keyPath)}, which confirms the key, did not answer in time`);
    now.id = 'lists';
    throw error;
  }
  if ('error' in first) {
    const failure = first.error;
    if (failure instanceof PanelHttpError && [401, 403].includes(failure.status)) {
      say('key', 'failed', keyRefused(failure));
      rest('key', KEY_REFUSED);
      return;
    }
    say('key', 'not_checked', `neither confirmed nor refused: ${where(keyPath)} ${unread(failure)}`);
  } else if ('missing' in first)
    say('key', 'not_checked', `neither confirmed nor refused: ${where(keyPath)} answered ${first.missing}`);
  else say('key', 'ok', `accepted by ${where(keyPath)}`);

  // The other lists, in the table's order; then each kind's own line, reading the list it looks at.
  const reads = [{ ...keyList, read: first }];
  for (const kindList of others)
    reads.push({ ...kindList, read: await step('lists', kindList.list.path, () => readKindList(panel, kindList)) });
  say(...listsCheck(panel, reads));
  const stage: DoctorStage = { panel, lookUp: panelLookUps(panel) };
  for (const check of KIND_CHECKS) {
    const list = reads.find((r) => r.kind === check.looksAt)?.read;
    if (list === undefined) throw new Error(`doctor's ${check.id} looks at ${check.looksAt}, which has no list`);
    const line =
      check.sends === undefined
        ? await check.run(list, stage)
        : await step(check.id, check.sends, () => Promise.resolve(check.run(list, stage)));
    say(check.id, line.status, line.message);
  }
  say(...(await step('version', '/server', () => versionCheck(panel))));
}

/** What a list read that proves nothing of the key got instead: `answered 500`, `got no answer (…)`. */
function unread(error: ProvisionError): string {
  if (error instanceof PanelHttpError) return `answered ${error.status} (the list shapes line says more)`;
  if (error instanceof PanelNetworkError) return `got no answer (${error.what})`;
  return 'answered what is not a list it can read (the list shapes line says what)';
}

const KEY_REFUSED = 'the key was refused: nothing more was sent';

function result(panel: PanelClient, checks: readonly DoctorCheck[]): DoctorResult {
  return { panelUrl: panel.baseUrl, checks, ok: checks.every((c) => c.status !== 'failed') };
}

function reached(panel: PanelClient): string {
  return `${panel.baseUrl} answered${panel.proxy === undefined ? '' : ` (through the proxy ${panel.proxy})`}`;
}

function keyRefused(error: PanelHttpError): string {
  return `${withHint(error)} (doctor sent it once and nothing after it)`;
}
