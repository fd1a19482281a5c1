/**
 * `npm run demo`: the whole main path against the embedded simulator, on a free loopback
 * port with a throwaway key: validate, plan, apply, and plan again (which must show no
 * changes). Exits non-zero when any step does not end as expected.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main.js';
import { processIo } from '../src/cli/process-io.js';
import { startSimulator } from '../src/simulator/index.js';

const manifest = process.argv[2] ?? 'examples/quickstart.yaml';
const apiKey = randomBytes(24).toString('base64url');
const sim = await startSimulator({ apiKey });
const secretsFile = join(await mkdtemp(join(tmpdir(), 'provision-demo-')), 'secrets.jsonl');
const env = {
  ...process.env,
  PROVISION_URL: sim.url,
  PROVISION_API_KEY: apiKey,
  PROVISION_SECRETS_FILE: secretsFile,
};
const io = processIo(env);

const steps: [string, string[], number][] = [
  ['validate the manifest offline', ['validate', manifest], 0],
  ['plan: what would be created (exit 2: changes)', ['plan', manifest, '--detailed-exitcode'], 2],
  ['apply', ['apply', manifest, '--auto-approve'], 0],
  ['plan again: the panel now matches the manifest (exit 0)', ['plan', manifest, '--detailed-exitcode'], 0],
];

let failed = false;
process.stdout.write(`Simulator: ${sim.url}\nSecrets file: ${secretsFile}\n`);
for (const [title, argv, expected] of steps) {
  process.stdout.write(`\n=== ${title}\n$ provision ${argv.join(' ')}\n\n`);
  const code = await main(argv, io);
  if (code !== expected) {
    process.stderr.write(`demo: "provision ${argv.join(' ')}" exited ${code}, expected ${expected}\n`);
    failed = true;
    break;
  }
}
await sim.close();
process.stdout.write(
  failed
    ? '\nDemo failed.\n'
    : `\nDemo done: every step ended as expected. The new clients' passwords are in ${secretsFile}.\n`,
);
process.exitCode = failed ? 1 : 0;
