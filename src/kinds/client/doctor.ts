/**
 * The client's doctor check (Kind.doctor; docs/doctor.md, "client fields"): which managed fields
 * GET /clients carries, else whether GET /clients/{id} of one client does. The stage reads the
 * list and hands in its look-up by id.
 */
import { quote } from '../../escape.js';
import { CLIENT_NOUN } from './changes.js';
import {
  asProvisionError,
  line,
  type DoctorLine,
  type DoctorListRead,
  type DoctorStage,
  type KindDoctor,
  withHint,
} from '../doctor.js';
import { CLIENT_FIELDS, liveValue } from './fields.js';
import { parseClientRecord } from './read.js';
import type { LiveClient } from './record.js';

const HINT = 'leave those keys out of the manifest, and report the panel version';

async function clientFields(clients: DoctorListRead<LiveClient>, stage: DoctorStage): Promise<DoctorLine> {
  if (!('records' in clients)) return line('not_checked', 'the client list could not be read');
  const listed = clients.records;
  if (listed.length === 0) return line('not_checked', 'the panel has no client to look at');
  const { panel } = stage;
  const panelKeys = (rows: typeof CLIENT_FIELDS): string => rows.map((row) => `"${row.panel[0]}"`).join(', ');
  const lacking = (client: LiveClient): typeof CLIENT_FIELDS =>
    CLIENT_FIELDS.filter((row) => liveValue(row, client) === undefined);
  const one = listed.find((c) => lacking(c).length > 0);
  if (one === undefined) return line('ok', `${panel.describe('GET', '/clients')} carries ${panelKeys(CLIENT_FIELDS)}`);
  const left = CLIENT_FIELDS.filter((row) => listed.some((c) => lacking(c).includes(row)));
  const path = `/clients/${one.id}`;
  let record: LiveClient | undefined;
  try {
    record = await stage.lookUp.clientById(one.id);
  } catch (error) {
    return line('failed', withHint(asProvisionError(error)));
  }
  const leaves = `${panel.describe('GET', '/clients')} leaves out ${panelKeys(left)}`;
  if (record === undefined)
    return line(
      'failed',
      `${leaves}, and ${panel.describe('GET', path)} (client ${quote(one.username)}) answered 404; ` +
        'what to do: run doctor again (the client may have been deleted meanwhile), then report the panel version',
    );
  const still = left.filter((row) => liveValue(row, record) === undefined);
  if (still.length === 0)
    return line(
      'ok',
      `${leaves}; ${panel.describe('GET', path)} (client ${quote(one.username)}) carries them: ` +
        'plan reads each client whose manifest entry manages them (a request more per client)',
    );
  return line(
    'failed',
    `neither ${panel.describe('GET', '/clients')} nor ${panel.describe('GET', path)} (client ${quote(one.username)}) ` +
      `shows ${panelKeys(still)}: a manifest's ${still.map((row) => row.key).join(', ')} ` +
      `is never compared on this panel, so never changed (plan notes it); what to do: ${HINT}`,
  );
}

/** GET /clients read whole; then its own line, "client fields". */
export const CLIENT_DOCTOR: KindDoctor = {
  list: { path: '/clients', noun: CLIENT_NOUN, parse: parseClientRecord, provesKey: false },
  check: {
    id: 'client_fields',
    label: 'client fields',
    looksAt: 'client',
    sends: '/clients/{id}',
    hint: HINT,
    run: clientFields,
  },
};
