/**
 * What apply/create.ts says when a create cannot be settled: the errors of a POST that kept
 * failing, of a look-up that failed, of a new account that did not settle in time, and of a
 * refusal that followed an attempt without an answer. The executor shows only an error's
 * message, so each message says what to do too.
 */
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { PanelHttpError } from '../panel/errors.js';
import type { LiveDomain } from '../panel/types.js';
import { resetCommand } from '../secrets/kinds.js';
import { formatSeconds, isRecord, messageOf } from '../util.js';
import type { Applied } from './execute.js';

/** The look-up by name after an ambiguous failure (the client retries it); a failure says what is left unknown. */
export async function lookUp<R>(
  find: () => Promise<R | undefined>,
  label: string,
  request: string,
  why: string,
): Promise<R | undefined> {
  try {
    return await find();
  } catch (err) {
    const code = err instanceof ProvisionError ? err.code : 'panel_unreachable';
    throw new ProvisionError(
      code,
      `${request} for ${label} ${why}, and looking it up failed too (${messageOf(err)}): it may or may not exist`,
      {
        hint: `check the panel for ${label} before running apply again`,
        cause: err,
      },
    );
  }
}

/**
 * A refusal (`err`, a 4xx) that followed an attempt whose outcome is unknown (`unsure`), and
 * look-ups that still did not find the resource: the first attempt may have created it (a
 * panel can list a new account late), so the refusal proves nothing. `left` says what stays
 * open (for a client: its intent, and the password written ahead, in the secrets file).
 */
export function unsettled(err: unknown, request: string, label: string, unsure: string, left: string): ProvisionError {
  return new ProvisionError(
    err instanceof ProvisionError ? err.code : 'panel_http',
    `${request} for ${label} ${unsure}; sent again, ${refusalText(err)}: the first attempt may have created it, ` +
      `but it is still not found by name: not settled (${left})`,
    {
      hint: `check the panel for ${label}, then run apply again`,
      cause: err,
    },
  );
}

/** 'answered 400 (The username is already in use.)', or the error's message. */
function refusalText(err: unknown): string {
  return err instanceof PanelHttpError ? `it answered ${err.status}${detail(err)}` : `it failed (${messageOf(err)})`;
}

export function adoptDomain(
  record: LiveDomain,
  domain: string,
  idUser: unknown,
  tell: (message: string) => void,
): Applied {
  if (record.idUser !== idUser) {
    throw new ProvisionError(
      'plan_conflict',
      `domain ${quote(domain)} exists on the panel (id ${record.id}) ` +
        `but belongs to user ${record.idUser}, not ${String(idUser)}`,
      {
        hint: 'someone else created it meanwhile: resolve it in the panel, then run plan again',
      },
    );
  }
  tell(`domain ${quote(domain)} exists (id ${record.id}) for user ${record.idUser}: adopted`);
  return { id: record.id };
}

export function notSent(err: unknown, request: string, label: string): ProvisionError {
  return new ProvisionError(
    err instanceof ProvisionError ? err.code : 'panel_unreachable',
    `${messageOf(err)} (${label} was not found by name; ${request} not sent again: interrupted)`,
    {
      hint: `check the panel for ${label}, then run apply again`,
      cause: err,
    },
  );
}

/**
 * A POST whose answer was lost, of a thing the panel may name itself (KindSecret.panelNaming):
 * not found by the name sent, yet it may exist under a name of the panel's, so it is not sent
 * again (a repeat could make a second one); `left` says what stays open.
 */
export function notRepeated(err: unknown, request: string, label: string, left: string): ProvisionError {
  return new ProvisionError(
    err instanceof ProvisionError ? err.code : 'panel_unreachable',
    `${messageOf(err)} (${label} was not found by name, but the panel may have created it under a name ` +
      `of its own: ${request} not sent again; ${left})`,
    {
      hint:
        "look in the panel for a new one of the client's under another name: if there is one, delete it, or list " +
        'it under that name and give it a new password with secrets reset; then run apply again',
      cause: err,
    },
  );
}

/**
 * A later apply's create of a thing the panel may name itself (KindSecret.panelNaming), refused:
 * an earlier apply's POST for it got no answer, and its client has things of its kind on the
 * panel that the secrets file does not know (`names`): one may be what that POST made. The
 * executor shows only the message, so what to do is in it.
 */
export function strays(
  thing: { readonly kind: string; readonly label: string; readonly noun: string },
  names: readonly string[],
): ProvisionError {
  const listed = names.map((name) => quote(name)).join(', ');
  const hint =
    `if one of them is the ${thing.noun} that POST made, delete it, or list it under that name and give it a new ` +
    `password with secrets reset (${resetCommand(thing.kind, names[0] ?? '')}); then run apply again ` +
    `(a ${thing.noun} of the client's that the secrets file does not know holds this create back until it is gone or known)`;
  return new ProvisionError(
    'panel_http',
    `${thing.label} was not found by name, but an earlier apply's POST for it got no answer and the panel may ` +
      `have created it under a name of its own: its client has ${listed} on the panel, unknown to the secrets ` +
      `file: POST not sent (its intent stays open); what to do: ${hint}`,
    { hint },
  );
}

export function gaveUp(err: unknown, request: string, label: string, posts: number): ProvisionError {
  return new ProvisionError(
    err instanceof ProvisionError ? err.code : 'panel_unreachable',
    `${messageOf(err)} (${posts} attempts for ${label}; none created it)`,
    {
      hint: `${request} kept failing; check the panel, then run apply again`,
      cause: err,
    },
  );
}

/** A settle wait an interrupt cut short: the refusal stands, and the POST is not sent again. */
export function stoppedSettling(err: PanelHttpError): ProvisionError {
  return new ProvisionError('panel_http', `${err.message} (stopped waiting for the account to settle: interrupted)`, {
    cause: err,
  });
}

export function notSettled(err: PanelHttpError, settleTimeoutMs: number, elapsedMs: number): ProvisionError {
  const hint =
    'the panel sets new accounts up in the background; ' +
    `if it needs longer, raise --settle-timeout (now ${formatSeconds(settleTimeoutMs)}) and run apply again`;
  // The executor shows only the message, so the hint is in it too.
  return new ProvisionError(
    'panel_http',
    `${err.message} (still refused ${formatSeconds(elapsedMs)} after the first attempt; ${hint})`,
    { hint, cause: err },
  );
}

export function detail(err: PanelHttpError): string {
  return err.panelMessage === undefined ? '' : ` (${err.panelMessage})`;
}

export function idOf(answer: unknown, request: string): number {
  const id = isRecord(answer) ? answer.id : undefined;
  if (Number.isSafeInteger(id)) return id as number;
  throw new ProvisionError('panel_contract', `${request}: the answer has no integer "id"`, {
    hint: 'check the panel for the resource before running apply again',
  });
}
