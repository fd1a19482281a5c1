/**
 * The yardstick for apply: the least a program can do to make the same changes. undici's
 * `request` through one Agent with as many connections as workers, `workers` loops each taking
 * the next unit of work: for a create, the client's POST /clients, then its domain's and its
 * subdomain's POST /domains (the subdomain after its parent, as the panel needs); for a
 * lifecycle run, one PUT or DELETE; for mailboxes, one POST /emails (with a password of
 * apply's length, made here as apply makes its own). No manifest, no planning, no secrets file,
 * no output but one JSON line. One GET first (the hosting plan's id, or the clients' ids), as
 * apply reads too.
 *
 * In-process: `await runMinimal(job)`. As its own process (bench/run.ts transpiles this file to
 * plain JavaScript, so no TypeScript loader counts): `node minimal-client.mjs '<job JSON>'`.
 */
import { randomInt } from 'node:crypto';
import { Agent, request } from 'undici';

export interface MinimalJob {
  readonly url: string;
  readonly apiKey: string;
  readonly workers: number;
  /** Create clients c000001.. with a domain and a subdomain each (bench/fixtures.ts's names). */
  readonly create?: { readonly clients: number };
  /** Set a new email on these usernames (PUT), then delete those (DELETE /clients/{id}). */
  readonly lifecycle?: { readonly update: readonly string[]; readonly remove: readonly string[] };
  /**
   * Create `perClient` mailboxes on each of clients c000001.. (existing, with their domain
   * `c<i>.example`): `m1@c<i>.example`.. (bench/mailboxes.ts's names), one POST /emails each.
   */
  readonly mailboxes?: { readonly clients: number; readonly perClient: number };
}

export interface MinimalResult {
  readonly requests: number;
  readonly wallMs: number;
}

const name = (i: number): string => `c${i.toString().padStart(6, '0')}`;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 24 letters and digits from the CSPRNG: src/secrets/password.ts's length and alphabet. */
const password = (): string => Array.from({ length: 24 }, () => ALPHABET.charAt(randomInt(ALPHABET.length))).join('');

export async function runMinimal(job: MinimalJob): Promise<MinimalResult> {
  const started = performance.now();
  const agent = new Agent({ connections: job.workers });
  let requests = 0;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> => {
    requests++;
    const answer = await request(`${job.url}${path}`, {
      method,
      dispatcher: agent,
      headers: {
        'x-api-key': job.apiKey,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.body.text();
    if (answer.statusCode >= 300) throw new Error(`${method} ${path}: ${answer.statusCode} ${text.slice(0, 200)}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  const units: (() => Promise<void>)[] = [];
  if (job.create !== undefined) {
    const plans = (await call('GET', '/hosting-plans')) as { id: number; name: string }[];
    const basic = plans.find((p) => p.name === 'Basic')?.id;
    for (let i = 1; i <= job.create.clients; i++) {
      const username = name(i);
      units.push(async () => {
        const { id } = (await call('POST', '/clients', {
          username,
          id_hosting_plan: basic,
          email: `${username}@example.com`,
        })) as { id: number };
        await call('POST', '/domains', { domain: `${username}.example`, id_user: id });
        await call('POST', '/domains', { domain: `s1.${username}.example`, id_user: id });
      });
    }
  }
  if (job.lifecycle !== undefined) {
    const clients = (await call('GET', '/clients')) as { id: number; username: string }[];
    const ids = new Map(clients.map((c) => [c.username, c.id]));
    for (const username of job.lifecycle.update) {
      units.push(async () => {
        await call('PUT', `/clients/${String(ids.get(username))}`, {
          email: `new-${username}@example.com`,
        });
      });
    }
    for (const username of job.lifecycle.remove) {
      units.push(async () => {
        await call('DELETE', `/clients/${String(ids.get(username))}`);
      });
    }
  }
  if (job.mailboxes !== undefined) {
    const clients = (await call('GET', '/clients')) as { id: number; username: string }[];
    const ids = new Map(clients.map((c) => [c.username, c.id]));
    for (let i = 1; i <= job.mailboxes.clients; i++) {
      const username = name(i);
      for (let k = 1; k <= job.mailboxes.perClient; k++) {
        units.push(async () => {
          await call('POST', '/emails', {
            id_user: ids.get(username),
            email: `m${k}@${username}.example`,
            password: password(),
          });
        });
      }
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < units.length) {
      const unit = units[next++];
      if (unit !== undefined) await unit();
    }
  };
  await Promise.all(Array.from({ length: job.workers }, worker));
  await agent.close();
  return { requests, wallMs: performance.now() - started };
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\0')) {
  const result = await runMinimal(JSON.parse(process.argv[2] ?? '{}') as MinimalJob);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
