/**
 * The zone's doctor check (Kind.doctor; docs/doctor.md, "zones readable"): one zone read of a
 * listed domain, GET /dns/{id} of the first top-level one, read whole as plan reads a zone.
 * A zone has no list of its own: the check looks at the domain list, and reads through the
 * stage's reader.
 */
import { ProvisionError } from '../../errors.js';
import { quote } from '../../escape.js';
import { plural } from '../../util.js';
import {
  asProvisionError,
  line,
  type DoctorLine,
  type DoctorListRead,
  type DoctorStage,
  type KindDoctor,
  withHint,
} from '../doctor.js';
import { type ListedDomain, readZone } from './read.js';

const HINT = "a manifest's dns cannot be used on this panel";

async function zonesReadable(domains: DoctorListRead<ListedDomain>, { panel }: DoctorStage): Promise<DoctorLine> {
  if ('missing' in domains) return line('not_checked', 'no domain list: no domain id to read a zone of');
  if ('error' in domains) return line('not_checked', 'the domain list could not be read');
  const domain = domains.records.find((d) => d.isSubdomain !== true);
  if (domain === undefined) return line('not_checked', 'the panel has no top-level domain to read a zone of');
  const path = panel.describe('GET', `/dns/${domain.id}`);
  try {
    const zone = await readZone(panel, domain);
    const disabled = zone.isDisabled === true ? '; DNS is disabled for it, so a manifest cannot change it' : '';
    return line(
      'ok',
      `${path} (the zone of ${quote(domain.name)}): ${plural(zone.records.length, 'record')}, read whole${disabled}`,
    );
  } catch (error) {
    const failure: ProvisionError = asProvisionError(error);
    // An HTTP error names the request, not the domain: the line names it first.
    const lead = failure.code === 'panel_http' ? `${quote(domain.name)}: ` : '';
    return line('failed', `${lead}${withHint(failure)}; ${HINT}`);
  }
}

/** No list of its own; its line, "zones readable", reads one zone of a listed domain. */
export const ZONE_DOCTOR: KindDoctor = {
  check: {
    id: 'zones',
    label: 'zones readable',
    looksAt: 'domain',
    sends: '/dns/{id}',
    hint: HINT,
    run: zonesReadable,
  },
};
