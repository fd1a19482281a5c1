/**
 * Domain records with settings for the export tests, in the panel's shapes (the simulator's
 * defaults: no PHP version, security all off, the document root as target).
 */
import { expect } from 'vitest';
import { adopt, type AdoptOptions } from '../../src/export/adopt.js';
import { LiveModel } from '../../src/export/model.js';
import { rewrite } from '../../src/export/rewrite.js';
import { validateManifest } from '../../src/manifest/load.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';

export interface Settings {
  php?: string | null;
  le?: boolean;
  force?: boolean;
  /** `[max_age, include, preload]`, or off. */
  hsts?: [number, boolean, boolean] | false;
  /** `[url, forwarding_type]`, or off. */
  redirect?: [string, number] | false;
}

/** A domain record's settings part as the panel shows it; what `s` leaves out is the default. */
export function record(s: Settings = {}): Record<string, unknown> {
  const hsts = s.hsts === undefined ? false : s.hsts;
  const redirect = s.redirect === undefined ? false : s.redirect;
  return {
    php_version: s.php === undefined ? '' : s.php,
    security: {
      id_certificate: 0,
      lets_encrypt: s.le ?? false,
      is_prefer_https: s.force ?? false,
      is_hsts: hsts !== false,
      hsts_max_age: hsts === false ? 0 : hsts[0],
      hsts_include: hsts === false ? false : hsts[1],
      hsts_preload: hsts === false ? false : hsts[2],
    },
    target: {
      target: redirect === false ? '/home/users/alice/www/' : redirect[0],
      is_forwarding: redirect !== false,
      forwarding_type: redirect === false ? 301 : redirect[1],
    },
  };
}

/**
 * The manifest `text` rewritten to describe `panel` (export --into without a panel); it must
 * still validate, and (unless `drift` says a kept value differs) plan to no update.
 */
export function into(
  text: string,
  panel: Live,
  options: AdoptOptions & { drift?: boolean } = {},
): { text: string; warnings: readonly string[] } {
  const before = validateManifest(text, 'm.yaml');
  if (before.desired === undefined) throw new Error(`test manifest invalid: ${JSON.stringify(before.diagnostics)}`);
  const { edits, warnings } = adopt(before.desired, new LiveModel(panel), options);
  const out = rewrite(text, edits, 'm.yaml');
  const after = validateManifest(out, 'm.yaml');
  expect(after.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (after.desired !== undefined && options.drift !== true)
    expect(diff(after.desired, panel).changes.filter((c) => c.action !== 'create')).toEqual([]);
  return { text: out, warnings };
}
