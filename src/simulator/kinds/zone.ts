/**
 * The simulator's module of DNS zones: /dns (zones.ts has the rules and the record), the zone
 * store the rules work on, and the zones a state file written before zones lacks. A seed
 * gives a zone's records in its domain's `dns` (kinds/domain.ts).
 */
import { decoded, error, notAllowed, notFound } from '../answer.js';
import type { SimKind, SimRoute } from '../kind.js';
import type { SimStore } from '../store.js';
import type { SimDomain } from './domain-records.js';
import {
  addZoneOf,
  dropZoneOf,
  raceZone,
  readZone,
  regeneratedZone,
  seedDnsProblem,
  seededZone,
  type SimulatorSeedDns,
  storeZone,
  writeZone,
  type ZoneStore,
} from '../zones.js';

/** The store as the zone rules use it. */
export function zoneStore(store: SimStore): ZoneStore<SimDomain> {
  return {
    domains: store.domains,
    zones: store.zones,
    setZone: (id, zone) => {
      store.set('zones', { id, ...zone });
    },
    replaceDomain: (domain) => {
      store.set('domains', domain);
    },
  };
}

/** The race fault (faults.ts) on the zone of domain `id`; false when nothing changed. */
export function raceZoneOf(store: SimStore, id: number, n: number): boolean {
  return raceZone(zoneStore(store), id, n);
}

/** GET and PUT /dns/{domain id}, GET /dns/name/{domain}. */
const dns: SimRoute = (store, { method, segments, body }) => {
  const [, second, third] = segments;
  const path = `/${segments.join('/')}`;
  const zones = zoneStore(store);
  if (segments.length === 3 && second === 'name') {
    if (method !== 'GET') return notAllowed(method, path, ['GET']);
    const name = decoded(third);
    if (name === undefined) return error(400, `The path ${path} is not validly percent-encoded.`);
    return readZone(zones, store.domainNamed(name), error);
  }
  if (segments.length !== 2) return notFound(path);
  if (!/^[0-9]{1,15}$/.test(second ?? '')) return error(404, 'The requested domain was not found.');
  const id = Number(second);
  if (method === 'GET') return readZone(zones, store.domains.get(id), error);
  if (method !== 'PUT') return notAllowed(method, path, ['GET', 'PUT']);
  if (body.kind === 'none') return error(400, 'The request body is missing: send a JSON object.');
  if (body.kind === 'invalid') return error(400, 'The request body is not valid JSON.');
  return writeZone(zones, id, body.value, error);
};

export const ZONE_SIM: SimKind<object, 'dns_zone'> = {
  name: 'dns_zone',
  routes: { dns },
  // Every domain that is not a subdomain has a zone; a subdomain's default records are in its parent's.
  follows: {
    parent: 'domain',
    created: (store, { id }) => {
      const domain = store.domains.get(id);
      if (domain !== undefined) addZoneOf(zoneStore(store), domain);
    },
    removing: (store, id) => {
      const domain = store.domains.get(id);
      if (domain !== undefined) dropZoneOf(zoneStore(store), domain);
    },
  },
  // A seed domain's `dns` (not a subdomain's: its records live in its parent's zone).
  childSeed: {
    parent: 'domain',
    key: 'dns',
    parse: (value, where, problems) => {
      const problem = seedDnsProblem(value, `${where}.dns`);
      if (problem !== undefined) problems.push(problem);
      return value;
    },
    check: (value, where) => seedDnsProblem(value, `${where}.dns`),
    build: (value, domain, store, where, { fail }) => {
      if (value === undefined) return;
      const zone = store.zones.get(domain.id);
      if (zone === undefined)
        fail(
          `${where}.dns: '${store.domains.get(domain.id)?.domain ?? ''}' is a subdomain: give its records in its parent's dns`,
        );
      else storeZone(zoneStore(store), domain.id, seededZone(zone, value as SimulatorSeedDns));
    },
  },
  stateFile: {
    // A file from before zones: every top-level domain gets the zone a panel would have made.
    afterLoad: (store) => {
      for (const domain of store.domains.values()) {
        if (domain.id_parent_domain === 0 && !store.zones.has(domain.id))
          store.apply({ set: 'zones', record: { id: domain.id, ...regeneratedZone(zoneStore(store), domain) } });
      }
    },
  },
};
