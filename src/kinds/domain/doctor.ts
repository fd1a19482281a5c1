/**
 * The domain's doctor check (Kind.doctor; docs/doctor.md, "domain fields"): whether the domain
 * records say `is_system_domain`, and carry the settings the engine manages. Judged from the
 * list alone: it sends nothing.
 */
import { plural } from '../../util.js';
import { DOMAIN_NOUN } from './changes.js';
import { type DoctorLine, type DoctorListRead, type KindDoctor, line } from '../doctor.js';
import { parseDomainRecord } from './read.js';
import type { LiveDomain } from './record.js';
import { SETTING_ROWS } from './settings.js';

/** The settings each nested object (or top-level key) of a domain record holds, as a manifest names them. */
const SETTINGS_IN = ['php_version', 'security', 'target'] as const;

const HINT = 'leave those settings out of the manifest for them, and report the panel version';

function domainFields(domains: DoctorListRead<LiveDomain>): DoctorLine {
  if ('missing' in domains) return line('not_checked', 'no domain list: no domain record to look at');
  if ('error' in domains) return line('not_checked', 'the domain list could not be read');
  const records = domains.records;
  if (records.length === 0) return line('not_checked', 'the panel has no domain to look at');
  const of = `of ${plural(records.length, 'domain record')}`;
  const missing = SETTINGS_IN.flatMap((key) => {
    const without = records.filter((d) => d.settings?.[key] === undefined).length;
    return without === 0 ? [] : [{ key, without }];
  });
  if (missing.length > 0) {
    const settings = SETTING_ROWS.filter((row) => missing.some((m) => (row.object ?? row.key) === m.key)).map(
      (row) => row.key,
    );
    return line(
      'failed',
      `${missing.map((m) => `no "${m.key}"${m.key === 'php_version' ? '' : ' object'} in ${m.without} ${of}`).join(', ')}: ` +
        `a manifest's ${settings.join(', ')} is never compared on those domains, so never changed (plan notes it); ` +
        `what to do: ${HINT}`,
    );
  }
  const unsaid = records.filter((d) => d.isSystem === undefined).length;
  const carry = `every record carries ${SETTINGS_IN.map((key) => `"${key}"`).join(', ')}`;
  return line(
    'ok',
    unsaid === 0
      ? `every record says "is_system_domain"; ${carry}`
      : `"is_system_domain" unsaid in ${unsaid} ${of}: prune never deletes those; ${carry}`,
  );
}

/** GET /domains read whole (a panel may lack it: 404 or 405); then its own line, "domain fields". */
export const DOMAIN_DOCTOR: KindDoctor = {
  list: {
    path: '/domains',
    noun: DOMAIN_NOUN,
    parse: parseDomainRecord,
    provesKey: false,
    mayLack: { statuses: [404, 405], costs: 'look-ups by name, prune of domains unavailable, export refused' },
  },
  check: { id: 'domain_fields', label: 'domain fields', looksAt: 'domain', hint: HINT, run: domainFields },
};
