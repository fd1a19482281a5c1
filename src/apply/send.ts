import type { PanelClient } from '../panel/client.js';
import type { PanelRequest } from '../kinds/common.js';
import { assertNever } from '../util.js';

/**
 * Sends exactly `request`: its method, its path, its body (none for a DELETE). `wholeObject`: the
 * body replaces a whole object built from a read, so the client never sends it again by itself
 * (whole-write.ts reads again and rebuilds instead).
 */
export function send(
  panel: PanelClient,
  request: PanelRequest,
  signal: AbortSignal | undefined,
  wholeObject = false,
): Promise<unknown> {
  switch (request.method) {
    case 'POST':
      return panel.post(request.path, request.body, { signal });
    case 'PUT':
    case 'DELETE':
      return panel.send(request.method, request.path, request.body ?? undefined, { signal, wholeObject });
    default:
      return assertNever(request.method);
  }
}
