/**
 * Conflicts located at their manifest entries (api/locate-conflicts.ts) in one pass: a plan of
 * many conflicts (domains owned by another client, under many clients and under one; mailboxes
 * on such a domain; a zone's records beside the panel's CNAMEs) is located reading each of the
 * manifest's lists a bounded number of times, counted through the lists themselves, not timed;
 * and at the same lines and in the same order as the plan gives them.
 */
import { describe, expect, it } from 'vitest';
import { connectPanel, diff, loadManifest, readLive } from '../../src/api/index.js';
import { locateConflicts } from '../../src/api/locate-conflicts.js';
import type { Desired } from '../../src/manifest/types.js';
import { API_KEY } from '../helpers/key.js';
import { sim } from '../helpers/sim.js';

/** `list` behind a proxy that counts each element read into `reads`. */
function counted<T>(list: readonly T[], reads: { n: number }): readonly T[] {
  return new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.n++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** `desired` with every list a conflict is looked up in (clients, domains, section items) counted. */
function countedDesired(desired: Desired, reads: { n: number }): Desired {
  const sections = (s: object | undefined) =>
    s === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(s as Record<string, readonly unknown[]>).map(([k, list]) => [k, counted(list, reads)]),
        );
  return {
    ...desired,
    clients: counted(
      desired.clients.map((c) => ({
        ...c,
        sections: sections(c.sections),
        domains: counted(
          c.domains.map((d) => ({ ...d, sections: sections(d.sections) })),
          reads,
        ),
      })),
      reads,
    ),
  } as Desired;
}

/** A manifest of 3n + 1 conflicts, the panel it meets, and the line of each conflict's entry in order. */
function shape(n: number) {
  const lines = ['version: 1', 'clients:'];
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(`  - username: c${i}`, '    domains:', `      - d${i}.example`);
    at.push(lines.length);
  }
  lines.push('  - username: alice', '    domains:');
  for (let i = 0; i < n; i++) {
    lines.push(`      - a${i}.example`);
    at.push(lines.length);
  }
  lines.push('      - name: taken.example');
  at.push(lines.length);
  lines.push('        mailboxes:');
  // The plan gives the section kinds' conflicts after the others.
  const mailboxesAt: number[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(`          - {name: m${i}}`);
    mailboxesAt.push(lines.length);
  }
  lines.push('  - username: zed', '    domains:', '      - name: zed.example', '        dns:', '          records:');
  for (let i = 0; i < n; i++) {
    lines.push(`            - {host: h${i}, type: A, value: 192.0.2.1}`);
    at.push(lines.length);
  }
  const owned = [
    ...Array.from({ length: n }, (_, i) => `d${i}.example`),
    ...Array.from({ length: n }, (_, i) => `a${i}.example`),
    'taken.example',
  ];
  const cnames = Array.from({ length: n }, (_, i) => ({ host: `h${i}`, type: 'CNAME', value: 'x.example.' }));
  const seed = {
    clients: [
      { username: 'bob', domains: owned },
      { username: 'zed', domains: [{ name: 'zed.example', dns: { records: cnames } }] },
    ],
  };
  return { text: `${lines.join('\n')}\n`, seed, at: [...at, ...mailboxesAt] };
}

async function located(n: number): Promise<{ reads: number; lines: number[]; at: number[]; messages: string[] }> {
  const { text, seed, at } = shape(n);
  const simulator = await sim({ seed });
  const panel = connectPanel({ url: simulator.url, apiKey: API_KEY });
  const { desired } = loadManifest(text, 'm.yaml');
  const plan = diff(desired, await readLive(panel, desired));
  const reads = { n: 0 };
  const found = locateConflicts(plan, countedDesired(desired, reads));
  // The same, from the manifest as read: the counting changes nothing.
  expect(locateConflicts(plan, desired)).toEqual(found);
  return {
    reads: reads.n,
    lines: found.map((p) => p.line),
    at,
    messages: found.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`),
  };
}

describe('conflicts located at scale', () => {
  it('reads each list a bounded number of times: ten times the conflicts, ten times the reads', async () => {
    const small = await located(30);
    const large = await located(300);
    expect(large.lines).toEqual(large.at);
    expect(small.lines).toEqual(small.at);
    // Linear: the reads grow as the conflicts do (a search per conflict read 5,267 and 498,152 elements).
    expect(large.reads).toBeLessThanOrEqual(11 * small.reads);
    expect(large.reads).toBeLessThanOrEqual(3 * large.at.length);
  });

  it('says each at its entry, in the order of the plan (the section kinds last), naming no other customer', async () => {
    const { messages } = await located(2);
    expect(messages).toEqual([
      'm.yaml:5:9: domain "d0.example" is listed under client "c0" but belongs to another client on the panel',
      'm.yaml:8:9: domain "d1.example" is listed under client "c1" but belongs to another client on the panel',
      'm.yaml:11:9: domain "a0.example" is listed under client "alice" but belongs to another client on the panel',
      'm.yaml:12:9: domain "a1.example" is listed under client "alice" but belongs to another client on the panel',
      'm.yaml:13:15: domain "taken.example" is listed under client "alice" but belongs to another client on the panel',
      expect.stringMatching(/^m\.yaml:22:15: "dns" record #1 \(A h0 192\.0\.2\.1\) of domain "zed\.example"/) as string,
      expect.stringMatching(/^m\.yaml:23:15: "dns" record #2 \(A h1 192\.0\.2\.1\) of domain "zed\.example"/) as string,
      'm.yaml:15:20: mailbox "m0@taken.example" is listed under client "alice", but its domain belongs to another ' +
        'client on the panel: nothing is planned of it; move the domain, or the entry',
      'm.yaml:16:20: mailbox "m1@taken.example" is listed under client "alice", but its domain belongs to another ' +
        'client on the panel: nothing is planned of it; move the domain, or the entry',
    ]);
  });
});
