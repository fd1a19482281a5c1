/** A domain's record as the panel answers it, read and checked. Pure: no I/O. */
import { asRecord, contract, integer, nonEmptyString, type RecordRead, shape } from '../panel-record.js';
import { domainName, type LiveDomain, subdomainFlag, systemFlag } from './record.js';
import { readSettings } from './settings.js';

/**
 * One domain record: integer id and id_user, string domain (normalised to lowercase ASCII; a
 * name normalizeDomain refuses is kept lowercased: the panel has it, it must still be seen),
 * and whether it is a system domain (`is_system_domain`, see record.ts systemFlag): undefined when the
 * record does not say, which prune treats as "maybe": never deleted for being unlisted. Its
 * settings are kept as read, never a contract error (another customer's odd value must not stop
 * the plan): a managed setting the engine cannot read is unknown.
 */
export function parseDomainRecord(record: unknown, where: string): LiveDomain {
  const r = asRecord(record, where);
  const raw = nonEmptyString(r, 'domain', where);
  const system = systemFlag(r.is_system_domain);
  if (typeof system === 'object')
    throw contract(where, `"is_system_domain" must be ${system.problem}, got ${shape(r.is_system_domain)}`);
  const subdomain = subdomainFlag(r);
  return {
    id: integer(r, 'id', where),
    name: domainName(raw),
    idUser: integer(r, 'id_user', where),
    isSystem: system,
    ...(subdomain === undefined ? {} : { isSubdomain: subdomain }),
    settings: readSettings(r),
  };
}

/** A domain read by its id: `GET /domains/{id}`. */
export const DOMAIN_RECORD: RecordRead<LiveDomain> = {
  path: (id) => `/domains/${id}`,
  parse: parseDomainRecord,
};
