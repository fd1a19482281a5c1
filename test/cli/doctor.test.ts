/**
 * `provision doctor` through the CLI against the simulator: the exit code, one line per check,
 * the JSON document against schemas/doctor-result.schema.json, the key never in any output,
 * names from the panel printed as data, TLS through --ca-file, and what the command loads.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { API_KEY, cliEnv, run } from '../helpers/cli.js';
import { modulesLoaded } from '../helpers/loaded.js';
import { tempDir } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

const schema = JSON.parse(
  readFileSync(new URL('../../schemas/doctor-result.schema.json', import.meta.url), 'utf8'),
) as object;
// The options the other schema tests compile with (test/e2e/schemas.test.ts).
const valid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

const SEED = { clients: [{ username: 'alice', domains: ['alice.example', 'shop.alice.example'] }] };
/** GET /server answered, as a panel that says its version does. */
const withServer = (req: InterceptRequest) =>
  req.path === '/server' ? { status: 200, json: { version: { version: '25.0.1' } } } : undefined;

interface Doc {
  format_version: string;
  panel_url: string;
  checks: { id: string; status: string; message: string }[];
  ok: boolean;
}

async function doctorOf(options: Partial<SimulatorOptions>, args: string[] = [], env: Record<string, string> = {}) {
  const panel = await sim(options);
  return run(['doctor', ...args], { ...cliEnv(panel), ...env });
}

/** The JSON document on stdout, checked against the schema. */
function parsed(stdout: string): Doc {
  const doc = JSON.parse(stdout) as Doc;
  expect(valid(doc), JSON.stringify(valid.errors)).toBe(true);
  return doc;
}

/** The text's check lines as `status label`. */
function lines(stdout: string): string[] {
  return stdout
    .split('\n')
    .slice(1, 9)
    .map((line) => line.replace(/ {2,}/g, '|').split('|').slice(0, 2).join(' '));
}

describe('provision doctor', () => {
  it('a healthy panel: exit 0, every line ok, in order, and a summary', async () => {
    const r = await doctorOf({ seed: SEED, intercept: withServer });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Panel: http:\/\/127\.0\.0\.1:\d+\/api\/v2\n/);
    expect(lines(r.stdout)).toEqual([
      'ok reachable',
      'ok API on',
      'ok key accepted',
      'ok list shapes',
      'ok client fields',
      'ok domain fields',
      'ok zones readable',
      'ok panel version',
    ]);
    expect(r.stdout).toContain('panel version   GET /api/v2/server: version version "25.0.1"\n');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Every check holds.');
  });

  it('the API switched off (the simulator --api-disabled): exit 1, the API line FAILED with what to do', async () => {
    const r = await doctorOf({ apiEnabled: false });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAILED +API on +GET \/api\/v2\/ping: 200 answered HTML, not JSON; what to do: /m);
    expect(r.stdout).toMatch(/^not checked +key accepted +the API did not answer$/m);
    expect(r.stdout).toContain('1 check failed (6 not checked): see the FAILED line for what to do.');
  });

  it('a wrong key: exit 1, the key line FAILED, and the key is in no output, text or JSON', async () => {
    const wrong = 'wrong-key-5d1e0b7a-SECRET';
    for (const format of ['text', 'json']) {
      const r = await doctorOf({ seed: SEED }, ['--format', format], { PROVISION_API_KEY: wrong });
      expect(r.code).toBe(1);
      for (const key of [wrong, API_KEY]) expect(r.stdout + r.stderr).not.toContain(key);
      if (format === 'text') expect(r.stdout).toMatch(/^FAILED +key accepted +GET \/api\/v2\/ping: 401 Unauthorized/m);
      else
        expect(
          parsed(r.stdout)
            .checks.map((c) => c.status)
            .slice(0, 4),
        ).toEqual(['ok', 'ok', 'failed', 'not_checked']);
    }
  });

  it('a key from --api-key-file that the panel echoes back is blanked', async () => {
    const dir = await tempDir();
    const file = join(dir, 'key.txt');
    execFileSync('sh', ['-c', `printf '%s' "${API_KEY}" > "${file}"`]);
    const intercept = (req: InterceptRequest) =>
      req.path === '/ping' ? { status: 401, json: { message: `unknown key ${API_KEY}` } } : undefined;
    const panel = await sim({ intercept });
    const r = await run(['doctor', '--api-key-file', file], { PROVISION_URL: panel.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('unknown key');
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
    expect(await readFile(file, 'utf8')).toBe(API_KEY);
  });

  it('no domain list (the simulator --no-domain-list): the list line says so and holds; exit 0', async () => {
    const r = await doctorOf({ seed: SEED, listDomains: false });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ok +list shapes +complete \(3 hosting plans, 1 client, 0 mailboxes, 0 databases, 0 FTP users\); no domain list \(GET \/api\/v2\/domains answered 404\): look-ups by name, prune of domains unavailable/m,
    );
    expect(r.stdout).toMatch(/^not checked +zones readable +no domain list: no domain id to read a zone of$/m);
  });

  it('an empty panel: not checked lines, exit 0', async () => {
    const r = await doctorOf({});
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(4)).toEqual([
      'not checked client fields',
      'not checked domain fields',
      'not checked zones readable',
      'ok panel version',
    ]);
    expect(r.stdout).toContain('Every check holds (3 not checked).');
  });

  it('--format json: one document that the schema accepts, healthy, failed and empty alike; the schema holds ok to the checks', async () => {
    const healthy = parsed((await doctorOf({ seed: SEED, intercept: withServer }, ['--format', 'json'])).stdout);
    expect(healthy).toMatchObject({ format_version: '1.0', ok: true });
    expect(healthy.checks.map((c) => c.id)).toEqual([
      'reachable',
      'api',
      'key',
      'lists',
      'client_fields',
      'domain_fields',
      'zones',
      'version',
    ]);
    const off = await doctorOf({ apiEnabled: false }, ['--format', 'json']);
    expect(off.code).toBe(1);
    const offDoc = parsed(off.stdout);
    expect([offDoc.ok, offDoc.checks[1]?.id, offDoc.checks[1]?.status]).toEqual([false, 'api', 'failed']);
    expect(parsed((await doctorOf({}, ['--format=json'])).stdout).ok).toBe(true);
    expect(valid({ ...healthy, ok: false })).toBe(false);
    expect(valid({ ...healthy, checks: [{ ...healthy.checks[0], status: 'failed' }] })).toBe(false);
    expect(valid({ ...healthy, checks: [{ ...healthy.checks[0], status: 'warning' }] })).toBe(false);
  });

  it('names and values from the panel are printed as data: escapes, never raw control characters', async () => {
    const evil = 'evil\u001b[2J\u202e.example';
    const intercept = (req: InterceptRequest) =>
      req.path === '/domains'
        ? { status: 200, json: [{ id: 9, id_user: 2, domain: evil, php_version: '', security: {}, target: {} }] }
        : req.path === '/dns/9'
          ? { status: 200, json: { records: { soa: {}, other: [] } } }
          : req.path === '/server'
            ? { status: 200, json: { version: '25\u0007\nDone' } }
            : undefined;
    for (const format of ['text', 'json']) {
      const r = await doctorOf({ seed: SEED, intercept }, ['--format', format]);
      // Nothing below a space but the line breaks, and no bidirectional override.
      expect(Array.from(r.stdout).filter((c) => (c < ' ' && c !== '\n') || c === '\u202e')).toEqual([]);
      if (format === 'json') {
        const doc = parsed(r.stdout);
        expect(doc.checks.find((c) => c.id === 'zones')?.message).toContain('"evil\\u001b[2j\\u202e.example"');
      } else {
        expect(r.stdout).toContain('(the zone of "evil\\u001b[2j\\u202e.example")');
        expect(r.stdout).toContain('version "25\\u0007\\nDone"');
      }
    }
  });

  it('a self-signed panel: reachable FAILED naming --ca-file; with --ca-file every check runs', async () => {
    const dir = await tempDir();
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    const panel = await sim({ seed: SEED, tls: { key: await readFile(key), cert: await readFile(cert) } });
    const refused = await run(['doctor'], cliEnv(panel));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^FAILED +reachable +.*TLS certificate is not accepted.*--ca-file/m);
    expect(refused.stdout).toMatch(/^not checked +API on +the panel did not answer$/m);
    const trusted = await run(['doctor', '--ca-file', cert], cliEnv(panel));
    expect(trusted.code, trusted.stdout).toBe(0);
  });

  it('is listed by provision help, and its help has examples', async () => {
    expect((await run(['help'])).stdout).toMatch(/^ +doctor +check, read-only/m);
    const help = await run(['doctor', '--help']);
    expect(help.stdout).toMatch(/^Usage: provision doctor /);
    expect(help.stdout).toContain(
      'Examples:\n  PROVISION_URL=https://panel.example PROVISION_API_KEY=... provision doctor\n',
    );
    expect((await run(['doctor', 'extra'])).stderr).toContain('this command takes no arguments');
  });

  it('start-up: loads the panel client and its own checks, nothing of the planner, apply, export, renderers or manifests', async () => {
    const panel = await sim({ seed: SEED });
    const { src, packages, stdout } = await modulesLoaded(['doctor'], {
      PROVISION_URL: panel.url,
      PROVISION_API_KEY: API_KEY,
    });
    expect(stdout).toContain('Every check holds');
    expect(src).toEqual(expect.arrayContaining(['cli/doctor.ts', 'api/doctor.ts', 'kinds/zone/read.ts']));
    // render/diagnostics.ts is main's own (it prints errors), loaded by every command.
    const unused = src.filter(
      (p) => /^(plan|apply|export|render|manifest|simulator|secrets|action)\//.test(p) && p !== 'render/diagnostics.ts',
    );
    expect(unused).toEqual([]);
    expect(src.filter((p) => p.startsWith('api/') && !['api/doctor.ts', 'api/doctor-checks.ts'].includes(p))).toEqual(
      [],
    );
    expect(packages).toEqual(['p-limit', 'yocto-queue']);
  });
});
