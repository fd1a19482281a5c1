/**
 * The kinds' parts in export (Kind.export, src/kinds/export.ts): the table holds them with what
 * each room reads erased, so the types the stage hands in are checked here against what each
 * room names (LiveModel as the panel, Desired and DesiredDomain as the manifest), and the stage
 * sees the parts in the table's order with their --with words (a list under a client or a
 * domain item with its parent and key).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EXPORTS, type LiveModel } from '../../src/export/model.js';
import type { WantedSettings } from '../../src/kinds/domain/export-edits.js';
import type { PlanExportPanel, PlanManifest } from '../../src/kinds/hosting-plan/export-edits.js';
import type { WantedZone, ZoneExportPanel } from '../../src/kinds/zone/export-edits.js';
import type { DatabaseExportPanel } from '../../src/kinds/database/export-edits.js';
import type { FtpUserExportPanel } from '../../src/kinds/ftp-user/export-edits.js';
import type { MailboxExportPanel } from '../../src/kinds/mailbox/export-edits.js';
import type { Desired, DesiredDomain } from '../../src/manifest/types.js';

describe("the kinds' parts in export", () => {
  it('are handed what they read: LiveModel as the panel, Desired and its domain items as the manifest', () => {
    expectTypeOf<LiveModel>().toExtend<ZoneExportPanel & PlanExportPanel>();
    expectTypeOf<LiveModel>().toExtend<MailboxExportPanel & DatabaseExportPanel & FtpUserExportPanel>();
    expectTypeOf<Desired>().toExtend<PlanManifest>();
    expectTypeOf<DesiredDomain>().toExtend<WantedZone & WantedSettings>();
  });

  it("are looped over in the table's order, each with its --with word, key or section", () => {
    expect(
      EXPORTS.map(({ name, export: part }) => ({
        name,
        with: part.with,
        key: part.item?.key,
        section: part.section?.key,
        list: part.list === undefined ? undefined : `${part.list.parent}.${part.list.key}`,
      })),
    ).toEqual([
      { name: 'domain', with: undefined, key: undefined, section: undefined, list: undefined },
      { name: 'dns_zone', with: 'dns', key: 'dns', section: undefined, list: undefined },
      { name: 'mailbox', with: 'mailboxes', key: undefined, section: undefined, list: 'domain.mailboxes' },
      { name: 'database', with: 'databases', key: undefined, section: undefined, list: 'client.databases' },
      { name: 'ftp_user', with: 'ftp-users', key: undefined, section: undefined, list: 'client.ftp_users' },
      { name: 'hosting_plan', with: 'hosting-plans', key: undefined, section: 'hosting_plans', list: undefined },
    ]);
  });
});
