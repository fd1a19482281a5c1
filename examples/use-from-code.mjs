// Use provision from code: plan and apply a manifest with the library API of
// @panel-provision/cli, here against the simulator it ships (a local panel on loopback), so
// it runs anywhere: `node examples/use-from-code.mjs` after `npm install @panel-provision/cli`
// (or in a checkout, after `npm run build`). Against a real panel, leave the simulator out and
// give connectPanel the panel's URL and an API key.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import {
  connectPanel,
  diff,
  executePlan,
  loadManifest,
  planView,
  ProvisionError,
  readLive,
  renderApplyText,
  renderPlanText,
  startSimulator,
} from '@panel-provision/cli';

const MANIFEST = `version: 1
clients:
  - username: alice
    plan: Basic
    email: alice@example.com
    domains: [alice.example, shop.alice.example]
  - username: bob
    domains: [bob.example]
`;

const apiKey = randomBytes(24).toString('base64url');
const simulator = await startSimulator({ apiKey });
const panel = connectPanel({ url: simulator.url, apiKey });
// New clients' passwords go to a secrets file (JSON Lines, mode 0600), never to the output.
const dir = await mkdtemp(join(tmpdir(), 'provision-example-'));
try {
  const manifest = loadManifest(MANIFEST, 'manifest.yaml'); // throws ProvisionError when invalid
  const live = await readLive(panel, manifest.desired); // four GET requests; changes nothing
  const plan = diff(manifest.desired, live); // pure: no I/O
  process.stdout.write(renderPlanText(planView(plan, { panelUrl: panel.baseUrl, manifest, live })));

  const outcomes = await executePlan(plan, panel, {
    secretsFile: join(dir, 'secrets.jsonl'),
    concurrency: 4,
  });
  process.stdout.write(`\n${renderApplyText(outcomes)}`);
  if (outcomes.some((o) => o.status !== 'succeeded')) process.exitCode = 1;
} catch (error) {
  // ProvisionError: `code` is stable, the message says what and where, `located` holds a manifest's problems.
  if (!(error instanceof ProvisionError)) throw error;
  process.stderr.write(`error (${error.code}): ${error.message}\n${error.details.map((d) => `  ${d}\n`).join('')}`);
  process.exitCode = 1;
} finally {
  await panel.close();
  await simulator.close();
  await rm(dir, { recursive: true, force: true });
}
