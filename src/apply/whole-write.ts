/**
 * A whole-object write carried out (docs/reliability.md, "Whole-object writes"): a zone's record list, a
 * domain's `security`/`target`, a hosting plan's objects. The body is built from a read taken
 * just before the write (inside the apply, so after the confirmation prompt and after every
 * change this one waits for), and nothing else of the object is sent between that read and the
 * write. The client never sends it again by itself (panel/retry.ts: the request is marked
 * `wholeObject`): after a failure that may pass (no answer, 429, a 5xx) the object is read again,
 * and
 * - it holds what was sent: the write landed (a 503 after the write, a lost answer): done;
 * - it is as the change saw it: the body is built again from this read and sent (at most
 *   MAX_WHOLE_WRITES writes in all);
 * - anything else: `build` refuses it as stale, and nothing more is sent.
 */
import { ProvisionError } from '../errors.js';
import type { PanelClient } from '../panel/client.js';
import { MAX_WHOLE_WRITES, rewriteDelayMs, rewriteReason } from '../panel/retry.js';
import type { PanelRequest } from '../kinds/common.js';
import { messageOf, untilAborted } from '../util.js';
import { send } from './send.js';
import type { Slot } from './walk.js';
import type { Applied, ManagedKeysWrite, WholeWrite, WholeWritten } from '../kinds/apply.js';

/** Carries out `write` (see the file's comment); its requests go through `slot`. */
export async function writeWhole<R, B>(
  panel: PanelClient,
  write: WholeWrite<R, B>,
  slot: Slot,
  signal: AbortSignal | undefined,
  tell: (message: string) => void,
): Promise<WholeWritten<R, B>> {
  let from: R = await slot.run(() => write.read());
  /** The last failed write, once there was one: a refusal to build again says it came after it. */
  let failed: { readonly described: string; readonly why: string } | undefined;
  for (let writes = 1; ; writes++) {
    const { request, body } = buildAfter(write, from, failed);
    const described = panel.describe(request.method, request.path);
    try {
      await slot.run(() => send(panel, request, signal, true));
      return { body, from };
    } catch (error) {
      const why = rewriteReason(error);
      if (why === undefined) throw error;
      tell(`${described} ${why}: reading ${write.what} again before anything more is sent to it`);
      await untilAborted(panel.clock.sleep(rewriteDelayMs(writes, panel.clock.random)), signal);
      let now: R;
      try {
        now = await slot.run(async () => write.read());
      } catch (readError) {
        throw failure(
          error,
          `${described} ${why}, and reading ${write.what} again failed too (${messageOf(readError)}): ` +
            'it may or may not hold what was sent; run plan again, it shows what is still to do',
        );
      }
      const landed = write.landed(now, body, from);
      if (landed !== undefined)
        return {
          body,
          from,
          note: `the write ${why}, but ${write.what} holds what was sent${landed.note === undefined ? '' : `; ${landed.note}`}`,
        };
      if (writes >= MAX_WHOLE_WRITES || signal?.aborted === true)
        throw failure(
          error,
          `${described} ${why}${writes > 1 ? ` (${writes} writes, each built from a new read)` : ''}, and ` +
            `${write.what} does not hold what was sent: not done; run apply again`,
        );
      // Built again from this read: `build` refuses it when anything else changed.
      from = now;
      failed = { described, why };
    }
  }
}

/**
 * `write.build(from)`; after a failed write, a refusal (a stale object) says so: the write that
 * went before it, and that nothing more was sent. Its machine code is kept.
 */
function buildAfter<R, B>(
  write: WholeWrite<R, B>,
  from: R,
  failed: { readonly described: string; readonly why: string } | undefined,
): { readonly request: PanelRequest; readonly body: B } {
  try {
    return write.build(from);
  } catch (error) {
    if (failed === undefined || !(error instanceof Error)) throw error;
    const code = (error as { code?: unknown }).code;
    const message =
      `${failed.described} ${failed.why}, and then ` +
      error.message.replace('nothing was sent to it', 'nothing more was sent to it');
    if (error instanceof ProvisionError) throw new ProvisionError(error.code, message, { cause: error });
    throw Object.assign(new Error(message, { cause: error }), typeof code === 'string' ? { code } : {});
  }
}

/** The failure a whole-object write ends with: the panel error's code kept, the sentence ours. */
function failure(error: unknown, message: string): Error {
  return error instanceof ProvisionError
    ? new ProvisionError(error.code, message, { cause: error })
    : new Error(message, { cause: error });
}

/**
 * A domain's settings or a hosting plan's objects that changed on the panel since the plan read
 * them, in a key this change writes: the change fails (exit 1) and nothing is sent to it; the
 * others go on. `moved` names each key, as data, with its value then and now.
 */
export class ObjectChanged extends Error {
  override readonly name = 'ObjectChanged';
  readonly code = 'object_changed';
  constructor(what: string, moved: readonly string[]) {
    super(
      `${what} changed on the panel since the plan read it (${moved.join('; ')}): nothing was sent to it; ` +
        'run plan again, it shows it as it is now',
    );
  }
}

/** Carries out `write` through writeWhole (see the file's comment). */
export async function writeManagedKeys<R, B, V>(
  panel: PanelClient,
  write: ManagedKeysWrite<R, B, V>,
  slot: Slot,
  signal: AbortSignal | undefined,
  tell: (message: string) => void,
): Promise<Applied> {
  const done = await writeWhole(
    panel,
    {
      what: write.what,
      read: () => write.read(),
      build: (fresh) => {
        const rebuilt = write.rebuild(fresh);
        if ('moved' in rebuilt)
          throw new ObjectChanged(
            write.what,
            rebuilt.moved.map(
              (m) =>
                `${m.field}: ${write.show(m.before)} when planned, ` +
                (m.now === undefined ? write.unread : `${write.show(m.now)} now`),
            ),
          );
        return { body: rebuilt.body, request: write.request(rebuilt.body) };
      },
      landed: (now) => (write.landed(now) ? {} : undefined),
    },
    slot,
    signal,
    tell,
  );
  return done.note === undefined ? { id: write.id } : { id: write.id, note: done.note };
}
