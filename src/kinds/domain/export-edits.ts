/**
 * export --into and a listed domain's settings (the domain item's own keys: `php_version`,
 * `https.force`, ...): the edits that make them the panel's, and how one is spliced into the
 * manifest's text. A setting the item gives that differs gets the panel's value; one the record
 * does not show stays as written, and one the manifest cannot hold stays with a warning. A domain
 * listed by name alone gives none, so gets none. Only what differs is touched (ManifestEditor
 * setValue): a scalar keeps its quoting style, an object over a mapping changes each key that
 * differs (`hsts: {max_age: 300, ...}` keeps its layout and comments). Pure.
 */
import { isMap, type YAMLMap } from 'yaml';
import { quote } from '../../escape.js';
import type { ExportedDomain, ItemExport, ManifestEditor, ListedItem, Warn } from '../export.js';
import { settingText } from './changes.js';
import type { LiveDomain } from './record.js';
import {
  type DomainSetting,
  type DomainSettings,
  type DomainSettingTypes,
  givenSettings,
  sameSetting,
} from './settings.js';

/** A listed domain item as its settings' edits read it. */
export interface WantedSettings extends ListedItem {
  /** The settings it gives (object form only); undefined when none. */
  readonly settings?: DomainSettings;
}

/** One setting of a domain item set to the panel's value. */
export interface SettingEdit {
  /** The dotted name: the path to its value in the domain's object form. */
  readonly field: DomainSetting;
  /** The manifest's value (defaults filled in: hsts's flags, redirect's status), and the panel's. */
  readonly before: DomainSettingTypes[DomainSetting];
  readonly value: DomainSettingTypes[DomainSetting];
}

/** The setting edits of the listed domain `wanted`, which the panel has as `domain.live` (see the module comment). */
export function settingEdits(wanted: WantedSettings, domain: ExportedDomain<LiveDomain>, warn: Warn): SettingEdit[] {
  const edits: SettingEdit[] = [];
  const live = domain.live;
  for (const [row, value] of givenSettings(wanted.settings)) {
    const seen = live.settings === undefined ? undefined : row.read(live.settings);
    if (seen === undefined || sameSetting(seen, value)) continue;
    const reason = row.unwritable(seen);
    if (reason === undefined) edits.push({ field: row.key, before: value, value: seen });
    else
      warn(
        `domain ${quote(wanted.input)}: the panel's ${row.key} ${settingText(seen)} is ${reason}: ` +
          `"${row.key}" left as written`,
      );
  }
  return edits;
}

/**
 * Sets the setting of the domain item `item` (a node of the manifest's domains list) from the
 * manifest's value to the panel's: the value stands at the setting's dotted path in the item's
 * object form (`https.force` is `force` in the item's `https` mapping).
 */
export function setSetting(editor: ManifestEditor, item: unknown, edit: SettingEdit): void {
  const { field } = edit;
  if (!isMap(item)) throw new Error(`export --into: no domain mapping to set "${field}" in`);
  const path = field.split('.');
  const key = path.pop() as string;
  let map: YAMLMap = item;
  for (const part of path) {
    const next = editor.pairOf(map, part)?.value;
    if (!isMap(next)) throw new Error(`export --into: no "${part}" mapping to set "${field}" in`);
    map = next;
  }
  editor.setValue(map, key, edit.before, edit.value);
}

/** The domain's settings in export: its item's own keys (the stage writes the item's form itself). */
export const SETTINGS_EXPORT: ItemExport<unknown, WantedSettings, LiveDomain, SettingEdit> = {
  edits: (wanted, domain, _panel, _add, warn) => settingEdits(wanted, domain, warn),
  rewrite(editor, _domains, item, edit) {
    setSetting(editor, item, edit);
  },
};
