import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint } from '../../src/plan/fingerprint.js';
import { parsePlanFile, planDigest } from '../../src/plan/saved.js';
import type { Plan } from '../../src/plan/types.js';
import { renderPlanJson } from '../../src/render/json.js';
import { desired, live } from '../helpers/builders.js';

const DESIRED = desired({
  alice: {
    plan: 'Basic',
    email: 'a@example.com',
    domains: ['alice.example', 'shop.alice.example'],
  },
  carol: { domains: ['carol.example'] },
});
// carol exists (id 7); alice does not.
const LIVE = live(
  [
    [7, 'carol', 1],
    [8, 'zed'],
  ],
  [[70, 'other.example', 8]],
);

function saved(plan: Plan, fingerprint = planFingerprint(plan, LIVE)): string {
  return renderPlanJson({
    plan,
    panelUrl: 'https://panel.example/api/v2',
    manifest: 'm.yaml',
    showUnmanaged: false,
    notes: [],
    manifestSha256: 'a'.repeat(64),
    fingerprint,
  });
}

function parseError(text: string): ProvisionError {
  try {
    parsePlanFile(text, 'plan.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ProvisionError);
    return error as ProvisionError;
  }
  throw new Error('expected parsePlanFile to throw');
}

describe('plan file round trip', () => {
  it('reads back the plan the executor needs, with its meta', () => {
    const plan = diff(DESIRED, LIVE);
    const back = parsePlanFile(saved(plan), 'plan.json');
    expect(back.plan.changes).toEqual(plan.changes);
    expect(back).toMatchObject({
      formatVersion: '2.5',
      panelUrl: 'https://panel.example/api/v2',
      manifest: 'm.yaml',
      manifestSha256: 'a'.repeat(64),
      fingerprint: planFingerprint(plan, LIVE),
    });
    // Saved without --show-unmanaged: the counts come back (as unnamed entries), not the names.
    expect(back.plan.unmanaged).toEqual({ clients: [''], domains: [''] });
    expect(back).toMatchObject({ showUnmanaged: false, notes: [] });
    const named = parsePlanFile(
      renderPlanJson({
        plan,
        panelUrl: 'https://panel.example/api/v2',
        manifest: 'm.yaml',
        showUnmanaged: true,
        notes: ['read'],
        warnings: ['w'],
        manifestSha256: 'a'.repeat(64),
        fingerprint: planFingerprint(plan, LIVE),
      }),
      'plan.json',
    );
    expect(named).toMatchObject({ showUnmanaged: true, notes: ['read'], warnings: ['w'] });
    expect(named.plan.unmanaged).toEqual({ clients: ['zed'], domains: ['other.example'] });
  });

  it('accepts a file reformatted with other key order, and a newer minor version with more fields', () => {
    const plan = diff(DESIRED, LIVE);
    const data = JSON.parse(saved(plan)) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(data).reverse());
    expect(parsePlanFile(JSON.stringify(reordered), 'p.json').plan.changes).toEqual(plan.changes);
    const newer: Record<string, unknown> = { ...data, format_version: '2.7', extra: true };
    newer.plan_sha256 = planDigest(newer);
    expect(parsePlanFile(JSON.stringify(newer), 'p.json').plan.changes).toEqual(plan.changes);
  });
});

describe('plan file validation', () => {
  const plan = diff(DESIRED, LIVE);
  const good = saved(plan);

  it('explains JSON that is not an object, a file of an older format, a newer major', () => {
    expect(parseError('[1,2]').message).toBe('plan.json is not a valid plan file (1 problem)');
    expect(parseError('[1,2]').details).toEqual(['$: must be an object']);
    for (const older of ['1.0', '1.1', '1.2']) {
      expect(parseError(good.replace('"format_version": "2.5"', `"format_version": "${older}"`)).message).toBe(
        `plan.json has plan format ${older}, made by an older version of provision: this one reads 2.x only`,
      );
    }
    expect(parseError(good.replace('"2.5"', '"3.0"')).message).toMatch(/plan format 3\.0, newer than/);
    expect(parseError('').message).toMatch(/^plan\.json is not valid JSON \(.+\): a truncated or damaged plan file$/);
  });

  it('lists every problem of the schema with its JSON path, in words', () => {
    const data = JSON.parse(good) as {
      changes: Record<string, unknown>[];
      panel_url?: unknown;
      manifest_sha256: string;
      unmanaged: Record<string, unknown>;
    };
    delete data.panel_url;
    data.manifest_sha256 = 'xyz';
    data.changes[0]!.action = 'rename';
    data.changes[1]!.client_id = 'one';
    data.changes[3]!.type = 'mailing_list';
    data.changes[2]!.colour = 'red';
    data.unmanaged.clients = -1;
    const error = parseError(JSON.stringify(data));
    expect(error.code).toBe('plan_file');
    expect(error.details).toEqual([
      'panel_url: is missing',
      'manifest_sha256: "xyz" is not a sha256 in hex',
      'changes[0].action: "rename" is not "create", "update" or "delete"',
      'changes[1].client_id: must be a whole number or null',
      'changes[2].colour: is not a field this version knows',
      'changes[3].type: "mailing_list" is not "client", "domain", "dns_zone", "mailbox", "database", "ftp_user" or "hosting_plan"',
      'unmanaged.clients: -1 is not valid here',
    ]);
  });

  it('then what the schema cannot say: ids, order, dependencies, requests', () => {
    const data = JSON.parse(good) as { changes: Record<string, unknown>[] };
    data.changes[0]!.email = 'attacker@example.com';
    expect(parseError(JSON.stringify(data)).details).toEqual([
      'changes[0].request: does not match the change: the file was edited',
    ]);
    const reordered = JSON.parse(good) as { changes: Record<string, unknown>[] };
    reordered.changes.reverse();
    expect(parseError(JSON.stringify(reordered)).details).toEqual([
      'changes[1].depends_on: "client:alice" is not a change listed before this one',
      'changes[1].depends_on: "domain:alice.example" is not a change listed before this one',
      'changes[2].depends_on: "client:alice" is not a change listed before this one',
    ]);
    const renamed = JSON.parse(good) as { changes: Record<string, unknown>[] };
    renamed.changes[0]!.id = 'client:mallory';
    expect(parseError(JSON.stringify(renamed)).details).toEqual(['changes[0].id: must be "client:alice"']);
    expect(parseError(saved(plan, `sha256:${'0'.repeat(64)}`)).message).toBe(
      'plan.json: the fingerprint does not match the plan: the file was edited after it was made',
    );
  });

  it("refuses a subdomain hung under another client's domain, even with the digest made again", () => {
    // mallory is created with the plan; zed owns other.example (id 70) on the panel.
    const wants = desired({
      alice: { domains: ['alice.example'] },
      mallory: { domains: ['x.alice.example', 'x.other.example'] },
    });
    const forged = JSON.parse(saved(diff(wants, LIVE))) as { changes: Record<string, unknown>[] };
    const edit = (name: string, parent: { name: string; id: number | null }, dependsOn?: string): void => {
      const change = forged.changes.find((c) => c.name === name)!;
      expect(change).not.toHaveProperty('parent_domain');
      change.parent_domain = parent;
      if (dependsOn !== undefined) (change.depends_on as string[]).push(dependsOn);
      (change.request as { body: Record<string, unknown> }).body.id_parent_domain = parent.id;
    };
    edit('x.alice.example', { name: 'alice.example', id: null }, 'domain:alice.example');
    edit('x.other.example', { name: 'other.example', id: 70 });
    const text = JSON.stringify({ ...forged, plan_sha256: planDigest(forged) });
    const at = (name: string): number => forged.changes.findIndex((c) => c.name === name);
    expect(parseError(text).details).toEqual([
      `changes[${at('x.alice.example')}].parent_domain.name: "alice.example" is not a domain this plan creates for "mallory"`,
      `changes[${at('x.other.example')}].parent_domain.id: 70, yet the client is created in this plan and has no domain yet`,
    ]);
  });

  it('refuses an edit to any field the plan holds, once the file is consistent again: the digest covers the whole document', () => {
    type Editable = Record<string, unknown> & {
      changes: Record<string, unknown>[];
      conflicts: unknown[];
      unknowns: unknown[];
      notes: string[];
      unmanaged: Record<string, unknown>;
    };
    const edits: Record<string, (data: Editable) => void> = {
      'an email, in the change and its request': (data) => {
        const change = data.changes[0]!;
        change.email = 'attacker@example.com';
        (change.request as { body: Record<string, unknown> }).body.email = 'attacker@example.com';
      },
      'added conflicts': (data) => void data.conflicts.push({ domain: 'x.example', client: 'alice', owner: 'bob' }),
      'the manifest named': (data) => void (data.manifest = 'other.yaml'),
      'the manifest digest': (data) => void (data.manifest_sha256 = 'b'.repeat(64)),
      'a note': (data) => void data.notes.push('all is well'),
      'unknowns removed or added': (data) => void data.unknowns.push({ client: 'carol', field: 'email' }),
      'unmanaged counts': (data) => void (data.unmanaged.clients = 99),
      'the panel URL': (data) => void (data.panel_url = 'https://evil.example/api/v2'),
      'a field a newer minor would add': (data) => void (data.colour = 'red'),
    };
    for (const [name, edit] of Object.entries(edits)) {
      const data = JSON.parse(good) as Editable;
      edit(data);
      expect(parseError(JSON.stringify(data)).message, name).toBe(
        'plan.json: the digest (plan_sha256) does not match the plan: the file was edited after it was made',
      );
    }
  });

  it('writes names as data: control characters never raw, and the text reads back to the same plan', () => {
    const odd = diff(
      desired({ alice: { domains: ['alice.example'] } }),
      live([], [], { plans: [{ id: 1, name: 'x\u0085\u007f\u2028\u001b[2J' }] }),
    );
    const view = {
      plan: odd,
      panelUrl: 'https://panel.example/api/v2',
      manifest: 'm\u009b.yaml',
      showUnmanaged: false,
      notes: ['a\u0007b'],
      manifestSha256: 'a'.repeat(64),
      fingerprint: planFingerprint(odd, LIVE),
    };
    const text = renderPlanJson(view);
    // Newlines are the document's own; nothing else below U+0020, nor DEL, C1, U+2028/9.
    expect(
      Array.from(text).filter(
        (c) => c !== '\n' && (c < ' ' || (c >= '\u007f' && c <= '\u009f') || c === '\u2028' || c === '\u2029'),
      ),
    ).toEqual([]);
    expect(text).toContain('m\\u009b.yaml');
    expect(parsePlanFile(text, 'p.json').manifest).toBe('m\u009b.yaml');
  });

  it('never throws anything but a ProvisionError, whatever the text', () => {
    const data = JSON.parse(good) as unknown;
    fc.assert(
      fc.property(
        fc.oneof(fc.json(), fc.string(), fc.constant(good.slice(0, 200))),
        fc.jsonValue(),
        fc.nat(),
        (text, noise, cut) => {
          for (const candidate of [
            text,
            JSON.stringify({ ...(data as object), changes: noise }),
            good.slice(0, cut % good.length),
          ]) {
            try {
              parsePlanFile(candidate, 'p.json');
            } catch (error) {
              if (!(error instanceof ProvisionError)) throw error;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
