/**
 * A domain's settings update rebuilt from the record read just before its PUT (docs/reliability.md,
 * "Whole-object writes"): the nested objects start from that read, so a key no change writes
 * (a certificate id, a key someone changed in the panel since the plan) goes back as it is now,
 * never as the plan saw it. A setting the change writes that moved since the plan read it (to
 * neither the plan's value nor the manifest's) makes the change stale. Pure.
 */
import {
  type LiveDomainSettings,
  type SettingChange,
  settingBefore,
  settingRow,
  sameSetting,
  settingsBody,
} from './settings.js';
import type { SettingsBody } from './settings.js';

/** A setting the change writes that someone changed since the plan read it: `now` undefined when it no longer reads. */
export interface MovedSetting {
  readonly field: SettingChange['field'];
  readonly before: SettingChange['before'];
  readonly now: SettingChange['before'] | undefined;
}

/**
 * The PUT's body for `fields` built on `fresh` (the domain's settings as just read), or the
 * settings that moved since the plan (then nothing is to be sent).
 */
export function rebuildSettings(
  fields: readonly SettingChange[],
  fresh: LiveDomainSettings | undefined,
): { readonly body: SettingsBody } | { readonly moved: readonly MovedSetting[] } {
  const live = fresh ?? {};
  const moved: MovedSetting[] = [];
  for (const f of fields) {
    const now = settingBefore(settingRow(f.field), live);
    if (now !== undefined && (sameSetting(now, f.before) || sameSetting(now, f.after))) continue;
    moved.push({ field: f.field, before: f.before, now });
  }
  return moved.length > 0 ? { moved } : { body: settingsBody(fields, live) };
}

/** Whether `fresh` holds every setting of `fields` as the change writes it (a PUT whose answer was lost landed). */
export function settingsLanded(fields: readonly SettingChange[], fresh: LiveDomainSettings | undefined): boolean {
  const live = fresh ?? {};
  return fields.every((f) => {
    const now = settingBefore(settingRow(f.field), live);
    return now !== undefined && sameSetting(now, f.after);
  });
}
