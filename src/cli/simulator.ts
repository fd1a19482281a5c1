import { readFile } from 'node:fs/promises';
import { ProvisionError } from '../errors.js';
import { parseSeed, startSimulator } from '../simulator/index.js';
import type { Command } from './args.js';
import { parseCommandLine, positiveInteger } from './args.js';

const usage = 'provision simulator --api-key KEY [--port N] [--host ADDR] [--state FILE] [--seed FILE]';

export const simulator: Command = {
  usage,
  summary: 'Run a local panel that speaks the API v2 (GET /ping, /hosting-plans, /clients, /domains, POST /clients, /domains), for trying the tool out and for tests. Ctrl-C stops it.',
  help: `Options:
  --api-key KEY     the key clients must send as X-API-Key (or PROVISION_API_KEY)
  --port N          port to listen on (default: a free one)
  --host ADDR       address to listen on (default 127.0.0.1)
  --state FILE      keep the panel's state in FILE, so it survives a restart
  --seed FILE       JSON to start with (unless the --state file exists):
                    {"hostingPlans": ["Basic"], "admins": ["admin"],
                     "clients": [{"username": "alice", "plan": "Basic", "domains": ["alice.example"]}]}

Examples:
  provision simulator --api-key test-key --port 8080 --state panel.json
  PROVISION_URL=http://127.0.0.1:8080 PROVISION_API_KEY=test-key provision plan examples/quickstart.yaml`,
  async run(args, io, secrets) {
    const { values } = parseCommandLine(
      args,
      { 'api-key': { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, state: { type: 'string' }, seed: { type: 'string' } },
      0,
      usage,
    );
    const apiKey = values['api-key'] ?? io.env.PROVISION_API_KEY;
    if (apiKey === undefined || apiKey === '') {
      throw new ProvisionError('usage', 'the simulator needs an API key', { hint: 'give --api-key KEY or set PROVISION_API_KEY' });
    }
    secrets.add(apiKey);
    const seed = values.seed === undefined ? undefined : parseSeed(await readJson(values.seed), values.seed);
    const sim = await startSimulator({
      apiKey,
      port: values.port === undefined ? 0 : positiveInteger(values.port, '--port', 0),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.state === undefined ? {} : { statePath: values.state }),
      ...(seed === undefined ? {} : { seed }),
    });
    io.stdout.write(`simulator listening on ${sim.url} (Ctrl-C stops it)\n`);
    await io.untilStopped();
    await sim.close();
    io.stdout.write('simulator stopped\n');
    return 0;
  },
};

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ProvisionError('usage', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProvisionError('usage', `${path} is not valid JSON: ${(error as Error).message}`);
  }
}
