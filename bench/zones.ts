/**
 * Zones of 10,000 records (issue 30, item 7c): the diff, the PUT's record list, the check of the
 * zone after apply and a saved plan's re-made records, on one zone as big as the engine reads
 * (MAX_ZONE_RECORDS), against the parse of the same zone's answer (`JSON.parse` of the GET's
 * text and parseZone): the work every plan of that zone does anyway. Before the fix, a prune of
 * 10,000 records took 19.8 s and 10,000 TTL updates 26.6 s (recordsAfter, pick and taken
 * scanned the zone per change); linear now, each is a small multiple of the parse. In process,
 * the modules loaded before any clock starts; each round times the parse and the work side by
 * side (alternating which goes first), and the ratio is the rounds' median.
 */
import {
  afterIssues,
  type DesiredZone,
  type DnsRecord,
  MAX_ZONE_RECORDS,
  parseZone,
  plannedRecords,
  recordTwins,
  updateZone,
} from '../src/kinds/zone.js';
import { type Figure, median, ms } from './lib.js';

const ZONE = 'big.example';

/** The GET's answer text of a zone of `n` records: A records at distinct hosts, an MX and the apex NS. */
function answerText(n: number): string {
  const other: { host: string; ttl: number; type: string; value: string }[] = [
    { host: '@', ttl: 86400, type: 'NS', value: 'ns1.sim.keyhelp.test.' },
    { host: '@', ttl: 86400, type: 'MX', value: `10 mail.${ZONE}.` },
  ];
  for (let i = other.length; i < n; i++)
    other.push({ host: `h${i}`, ttl: 3600, type: 'A', value: `192.0.${(i >> 8) & 255}.${i & 255}` });
  return JSON.stringify({
    is_custom_dns: true,
    is_dns_disabled: false,
    dkim_record: '',
    records: { soa: { ttl: 86400, primary_ns: 'ns1.sim.keyhelp.test.' }, other },
  });
}

function parse(text: string) {
  const read = parseZone(JSON.parse(text), ZONE);
  if (!('zone' in read)) throw new Error(read.problem);
  return read.zone;
}

/** What a plan and an apply do with the zone for `want`: the diff and its PUT body, the check, a saved plan's re-made records. */
function work(text: string, want: DesiredZone): number {
  const zone = parse(text);
  const change = updateZone({ name: ZONE, id: 1, client: 'c' }, want, zone, []);
  if (change === undefined) throw new Error('no change');
  const issues = afterIssues(want, zone.records, change.records, ZONE);
  return change.records.length + issues.length + (plannedRecords(change)?.length ?? 0) + recordTwins(change).length;
}

function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** The figures: a prune of every record but one, and a TTL update of every record, each beside the parse. */
export function measureZones(runs: number): Figure[] {
  const text = answerText(MAX_ZONE_RECORDS);
  const records: DnsRecord[] = parse(text).records.map(({ host, type, value }) => ({ host, type, value, ttl: 600 }));
  const cases: { name: string; want: DesiredZone }[] = [
    {
      name: `prune of ${MAX_ZONE_RECORDS.toLocaleString('en-US')} records`,
      want: { records: records.slice(0, 1), prune: true, keep: [] },
    },
    { name: `${MAX_ZONE_RECORDS.toLocaleString('en-US')} TTL updates`, want: { records, prune: false, keep: [] } },
  ];
  for (const { want } of cases) work(text, want); // warm the code paths once
  const figures: Figure[] = [];
  for (const { name, want } of cases) {
    const ratios: number[] = [];
    const works: number[] = [];
    const parses: number[] = [];
    for (let round = 0; round < runs; round++) {
      let p: number;
      let w: number;
      if (round % 2 === 0) {
        p = timed(() => parse(text));
        w = timed(() => work(text, want));
      } else {
        w = timed(() => work(text, want));
        p = timed(() => parse(text));
      }
      parses.push(p);
      works.push(w);
      ratios.push(w / p);
    }
    figures.push({
      section: 'zones',
      name: `zone of ${MAX_ZONE_RECORDS.toLocaleString('en-US')}: ${name} (diff, PUT body, check, saved plan)`,
      measured: ms(median(works)),
      reference: `parse of the zone ${ms(median(parses))}`,
      ratio: median(ratios),
      goal: undefined,
      runs: ratios,
    });
  }
  return figures;
}
