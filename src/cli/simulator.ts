import { ProvisionError } from '../errors.js';
import { parseSeed, startSimulator } from '../simulator/index.js';
import type { Command } from './args.js';
import { count, parseCommandLine, type Range, RATE, rate, rangeText, wholeNumber } from './args.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { readJson } from './files.js';

const usage = 'provision simulator --api-key KEY [--port N] [--host ADDR] [--state FILE] [--seed FILE] [fault options]';

/** The numeric flags' ranges, for their parsers and help lines alike. */
const PORT: Range = { min: 0, max: 65_535 };
const LATENCY_MS: Range = { min: 0, max: 60_000 };
const NOT_READY_MS: Range = { min: 0, max: 3_600_000 };
const FAULT_SEED: Range = { min: 0, max: 4_294_967_295 };
/** --not-ready's range, as its help line gives it. */
const notReadyText = rangeText(NOT_READY_MS);

const OPTIONS = {
  'api-key': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  state: { type: 'string' },
  seed: { type: 'string' },
  latency: { type: 'string' },
  'error-rate': { type: 'string' },
  'reset-rate': { type: 'string' },
  'ambiguous-post-rate': { type: 'string' },
  'ambiguous-put-rate': { type: 'string' },
  'zone-race-rate': { type: 'string' },
  'not-ready': { type: 'string' },
  'fault-seed': { type: 'string' },
  'api-disabled': { type: 'boolean', default: false },
  'no-domain-list': { type: 'boolean', default: false },
  'clients-without-plan-ids': { type: 'boolean', default: false },
} as const;

export const simulator: Command = {
  usage,
  options: OPTIONS,
  summary:
    'Run a local panel that speaks the API v2 (GET /ping, /server, /admins, /hosting-plans, /clients, /domains, ' +
    'POST /hosting-plans, /clients, /domains, PUT and DELETE /hosting-plans/{id}, /clients/{id}, /domains/{id}; ' +
    'hosting plans are whole records (resources, permissions, php, php_fpm), and one a client is on cannot be ' +
    'deleted; domains carry their settings php_version, security and target; GET /dns/{domain id}, ' +
    '/dns/name/{domain} and PUT /dns/{domain id} serve DNS zones), for trying the tool out and for tests. ' +
    'Ctrl-C stops it.',
  help: `Options:
  --api-key KEY     the key clients must send as X-API-Key (or PROVISION_API_KEY)
  --port N          port to listen on (${rangeText(PORT)}; default 0: a free one)
  --host ADDR       address to listen on (default 127.0.0.1)
  --state FILE      keep the panel's state in FILE, so it survives a restart
  --seed FILE       JSON to start with (unless the --state file exists):
                    {"hostingPlans": ["Basic", {"name": "Gold", "resources": {"disk_space": -1},
                       "php": {"memory_limit": "1024M"}}], "admins": ["admin"],
                     "clients": [{"username": "alice", "plan": "Basic", "domains": ["alice.example",
                       {"name": "shop.alice.example", "php_version": "8.3", "security": {"lets_encrypt": true}}]}]}
                    a domain is a name, or an object with the settings the panel shows (php_version,
                    security, target), merged over a new domain's defaults, and "dns":
                    {"records": [{"host": "@", "type": "A", "value": "192.0.2.10", "ttl": 3600}],
                     "is_custom_dns": true, "is_dns_disabled": false}: records replace the default
                    ones (ttl default 86400) and make the zone custom unless is_custom_dns says no;
                    not for a subdomain, whose records live in its parent's zone;
                    a hosting plan is a name, or an object with name and the sections the panel
                    shows (resources, permissions, php, php_fpm), merged over the defaults

Faults, to see how provision copes (all off by default):
  --latency MS               add MS milliseconds to every answer (${rangeText(LATENCY_MS)})
  --error-rate R             answer a share R (${rangeText(RATE)}) of requests with 500, 502 or 503
  --reset-rate R             drop the connection of a share R (${rangeText(RATE)}) of requests without answering
  --ambiguous-post-rate R    carry out a share R (${rangeText(RATE)}) of POSTs, then drop the connection unanswered
  --ambiguous-put-rate R     carry out a share R (${rangeText(RATE)}) of PUTs, then drop the connection unanswered
  --zone-race-rate R         after a share R (${rangeText(RATE)}) of DNS zone reads, change that zone (add
                             TXT _race-N, as an ACME hook would), so the next read differs
  --not-ready MS             refuse a new client's domains for MS milliseconds after its creation (${notReadyText})
  --fault-seed N             seed of the fault draws, ${rangeText(FAULT_SEED)} (the same seed, the same faults)
  --api-disabled             answer every request with an HTML page, like a panel whose API is off
  --no-domain-list           answer GET /domains with 404, like a panel without that endpoint
  --clients-without-plan-ids leave id_hosting_plan out of GET /clients (GET /clients/{id} keeps it), so
                             the list does not say which plan each client is on

Examples:
  provision simulator --api-key test-key --port 8080 --state panel.json
  provision simulator --api-key test-key --port 8080 --latency 50 --error-rate 0.1 --not-ready 500
  PROVISION_URL=http://127.0.0.1:8080 PROVISION_API_KEY=test-key provision plan examples/quickstart.yaml

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io, { redactions }) {
    const { values } = parseCommandLine(args, OPTIONS, 0, usage);
    const apiKey = values['api-key'] ?? io.env.PROVISION_API_KEY;
    if (apiKey === undefined || apiKey === '') {
      throw new ProvisionError('usage', 'the simulator needs an API key', {
        hint: 'give --api-key KEY or set PROVISION_API_KEY',
      });
    }
    redactions.add(apiKey);
    const seed =
      values.seed === undefined ? undefined : parseSeed(await readJson(values.seed, io, 'seed file'), values.seed);
    const sim = await startSimulator({
      apiKey,
      port: count(values.port, '--port', PORT, 0),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.state === undefined ? {} : { statePath: values.state }),
      ...(seed === undefined ? {} : { seed }),
      ...faults(values),
    });
    io.stdout.write(`simulator listening on ${sim.url} (Ctrl-C stops it)\n`);
    await io.untilStopped();
    await sim.close();
    io.stdout.write('simulator stopped\n');
    return EXIT.ok;
  },
};

type Values = ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];

/** The fault options given, in SimulatorOptions' terms. */
function faults(values: Values) {
  const errorRate = rate(values['error-rate'], '--error-rate');
  const resetRate = rate(values['reset-rate'], '--reset-rate');
  const ambiguousPostRate = rate(values['ambiguous-post-rate'], '--ambiguous-post-rate');
  const ambiguousPutRate = rate(values['ambiguous-put-rate'], '--ambiguous-put-rate');
  const zoneRaceRate = rate(values['zone-race-rate'], '--zone-race-rate');
  const latencyMs = wholeNumber(values.latency, '--latency', LATENCY_MS.min, LATENCY_MS.max);
  const notReadyMs = wholeNumber(values['not-ready'], '--not-ready', NOT_READY_MS.min, NOT_READY_MS.max);
  const faultSeed = wholeNumber(values['fault-seed'], '--fault-seed', FAULT_SEED.min, FAULT_SEED.max);
  return {
    ...(errorRate === undefined ? {} : { errorRate }),
    ...(resetRate === undefined ? {} : { resetRate }),
    ...(ambiguousPostRate === undefined ? {} : { ambiguousPostRate }),
    ...(ambiguousPutRate === undefined ? {} : { ambiguousPutRate }),
    ...(zoneRaceRate === undefined ? {} : { zoneRaceRate }),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(notReadyMs === undefined ? {} : { notReadyMs }),
    ...(faultSeed === undefined ? {} : { faultSeed }),
    ...(values['api-disabled'] ? { apiEnabled: false } : {}),
    ...(values['no-domain-list'] ? { listDomains: false } : {}),
    ...(values['clients-without-plan-ids'] ? { clientPlanIds: 'records' as const } : {}),
  };
}
