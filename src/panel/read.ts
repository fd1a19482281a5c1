import { ProvisionError } from '../errors.js';
import type { PanelClient } from './client.js';
import { shape } from '../kinds/panel-record.js';
import type { Live, ReadAsk, ReadKindName } from '../kinds/index.js';
import { READ_ORDER, readOf } from '../kinds/reads.js';
import { isRecord } from '../util.js';
import { listReader, type ReaderOptions } from './reader.js';

export {
  type ClientDetails,
  DEFAULT_LOOKUP_CONCURRENCY,
  findClient,
  findClientById,
  findDomain,
  findHostingPlan,
  listReader,
  readClientDetails,
} from './reader.js';

/**
 * What one read of the panel is asked, every kind's ask (src/kinds/index.ts ReadAsk: the
 * manifest's domains, looked up one by one only if GET /domains is missing; the clients whose
 * managed fields must be known, `details`; the domains whose DNS zones to read, `zones`), and
 * its bounds and notes.
 */
export type ReadLiveOptions = ReadAsk & ReaderOptions;

/**
 * A read that adds to an earlier one (the lists a planned delete takes things of, read only then:
 * api/takes.ts): only `kinds` are read (as the ask says), without GET /ping; every other kind's
 * part is `live`'s.
 */
export interface ReadAgain {
  readonly live: Live;
  readonly kinds: readonly ReadKindName[];
}

/**
 * Reads the panel's state: GET /ping (URL, key, and a JSON API: `{"response":"pong"}`), then each
 * kind's list read (Kind.read) the ask needs, in waves: the kinds that need no other's records
 * first, concurrently, started in READ_ORDER (GET /hosting-plans, /clients and /domains: four
 * requests, whatever the size of the manifest), then those that read after them (the DNS zones
 * the manifest manages, after the domains). Once a wave is read, each kind's checks run, one
 * after the other (ids and names unique, owners known), then what it reads more (client
 * details). Each list must be complete (see readList) and each record valid, else
 * ProvisionError('panel_contract'): planning on a partial read would create duplicates. A kind
 * the ask does not need is not read: its part is its read's `empty`.
 *
 * When GET /domains answers 404 or 405 (a panel without the list endpoint), the manifest's
 * domains are looked up by name instead and their part is not `complete`. With `details`, the
 * managed fields GET /clients leaves out are read one client at a time (readClientDetails):
 * no request more when the list carries them. With `again`, only its kinds are read (no GET
 * /ping), beside the parts of the read it adds to.
 */
export async function readLive(client: PanelClient, options: ReadLiveOptions, again?: ReadAgain): Promise<Live> {
  if (again === undefined) await ping(client);
  const panel = listReader(client, options);
  const parts: Partial<Record<ReadKindName, unknown>> = again === undefined ? {} : { ...again.live };
  const soFar = parts as unknown as Live;
  let left: readonly ReadKindName[] =
    again === undefined ? READ_ORDER : READ_ORDER.filter((name) => again.kinds.includes(name));
  while (left.length > 0) {
    const wave = left.filter((name) => readOf(name).after.every((before) => !left.includes(before)));
    if (wave.length === 0) throw new Error(`the kinds' reads wait for each other: ${left.join(', ')}`);
    left = left.filter((name) => !wave.includes(name));
    const read = await Promise.all(
      wave.map((name) => {
        const kind = readOf(name);
        return kind.needed(options)
          ? kind.list(panel, options, soFar).then((part) => ({ part }))
          : Promise.resolve(undefined);
      }),
    );
    wave.forEach((name, i) => (parts[name] = read[i]?.part ?? parts[name] ?? readOf(name).empty));
    for (const [i, name] of wave.entries()) {
      if (read[i] !== undefined) await readOf(name).check?.(parts[name] as never, panel, options, soFar);
    }
    for (const [i, name] of wave.entries()) {
      if (read[i] !== undefined)
        parts[name] = (await readOf(name).complete?.(parts[name] as never, panel, options)) ?? parts[name];
    }
  }
  return parts as Live;
}

/** GET /ping: the URL, the key, and a JSON API (`{"response":"pong"}`), else a contract error. */
async function ping(client: PanelClient): Promise<void> {
  const pong = await client.get('/ping');
  if (!isRecord(pong) || pong.response !== 'pong') {
    throw new ProvisionError(
      'panel_contract',
      `${client.describe('GET', '/ping')}: expected {"response":"pong"}, got ${shape(pong)}`,
      {
        hint: 'check that --url / PROVISION_URL points at the panel API',
      },
    );
  }
}
