import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProvisionError } from '../src/errors.js';
import { diff } from '../src/plan/diff.js';
import { dependencyFacts, parsePlanFile, planFingerprint, staleReasons } from '../src/plan/saved.js';
import type { Plan } from '../src/plan/types.js';
import { renderPlanJson } from '../src/render/json.js';
import { desired, live, PLANS } from './helpers/builders.js';

const DESIRED = desired({
  alice: { plan: 'Basic', email: 'a@example.com', domains: ['alice.example', 'shop.alice.example'] },
  carol: { domains: ['carol.example'] },
});
// carol exists (id 7); alice does not.
const LIVE = live([[7, 'carol', 1], [8, 'zed']], [[70, 'other.example', 8]]);

function saved(plan: Plan, fingerprint = planFingerprint(plan, LIVE)): string {
  return renderPlanJson({ plan, panelUrl: 'https://panel.example/api/v2', manifest: 'm.yaml', showUnmanaged: false, notes: [], manifestSha256: 'a'.repeat(64), fingerprint });
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
    expect(back).toMatchObject({ formatVersion: '1.1', panelUrl: 'https://panel.example/api/v2', manifest: 'm.yaml', manifestSha256: 'a'.repeat(64), fingerprint: planFingerprint(plan, LIVE) });
    expect(back.plan.unmanaged).toEqual({ clients: [], domains: [] });
  });

  it('accepts a file reformatted with other key order and a newer minor version', () => {
    const plan = diff(DESIRED, LIVE);
    const data = JSON.parse(saved(plan)) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries({ ...data, format_version: '1.7', extra: true }).reverse());
    expect(parsePlanFile(JSON.stringify(reordered), 'p.json').plan.changes).toEqual(plan.changes);
  });
});

describe('fingerprint: exactly what the plan depends on', () => {
  const plan = diff(DESIRED, LIVE);
  const base = planFingerprint(plan, LIVE);

  it('lists the facts', () => {
    expect(Object.fromEntries(dependencyFacts(plan, LIVE))).toEqual({
      'client:alice': 'absent',
      'hosting-plan:Basic': 'id:1',
      'domain:alice.example': 'absent',
      'domain:shop.alice.example': 'absent',
      'domain:carol.example': 'absent',
      'owner:carol': 'id:7',
    });
    expect(staleReasons(plan, LIVE)).toEqual([]);
  });

  it('ignores accounts the plan neither creates nor references', () => {
    const more = live([[7, 'carol', 1], [8, 'zed'], [9, 'yves']], [[70, 'other.example', 8], [71, 'new.example', 9]]);
    expect(planFingerprint(plan, more)).toBe(base);
  });

  it('changes, with a reason each, when what it creates appears, a referenced client or plan changes', () => {
    const changed = live(
      [[7, 'bob'], [9, 'carol'], [10, 'alice']],
      [[80, 'shop.alice.example', 10]],
      { plans: PLANS.map((p) => (p.name === 'Basic' ? { ...p, id: 11 } : p)) },
    );
    expect(planFingerprint(plan, changed)).not.toBe(base);
    expect(staleReasons(plan, changed)).toEqual([
      'client "alice" now exists on the panel (id 10); the plan would create it',
      'hosting plan "Basic" now has id 11; the plan says 1',
      'domain "shop.alice.example" now exists on the panel (client "alice"); the plan would create it',
      'client "carol" now has id 9; the plan says 7',
    ]);
    const gone = live([], [], { plans: [] });
    expect(staleReasons(plan, gone)).toEqual(['hosting plan "Basic" is no longer on the panel', 'client "carol" (id 7), which the plan adds domains to, is no longer on the panel']);
  });
});

describe('plan file validation', () => {
  const plan = diff(DESIRED, LIVE);
  const good = saved(plan);

  it('explains JSON that is not an object, a 1.0 file without fingerprint, a newer major', () => {
    expect(parseError('[1,2]').message).toBe('plan.json is not a valid plan file (1 problem)');
    expect(parseError(good.replace('"format_version": "1.1"', '"format_version": "1.0"').replace(/ {2}"fingerprint": .*\n/, '')).message).toBe(
      'plan.json has no fingerprint (plan format 1.0): it cannot be checked against the panel',
    );
    expect(parseError(good.replace('"1.1"', '"3.0"')).message).toMatch(/plan format 3\.0, newer than/);
    expect(parseError('').message).toMatch(/^plan\.json is not valid JSON \(.+\): a truncated or damaged plan file$/);
  });

  it('lists every problem with its JSON path', () => {
    const data = JSON.parse(good) as { changes: Record<string, unknown>[]; panel_url?: unknown; manifest_sha256: string };
    delete data.panel_url;
    data.manifest_sha256 = 'xyz';
    data.changes[0]!.action = 'delete';
    data.changes[1]!.client_id = 'one';
    data.changes[3]!.type = 'mailbox';
    const error = parseError(JSON.stringify(data));
    expect(error.code).toBe('plan_file');
    expect(error.details).toEqual([
      'panel_url: must be a string',
      'manifest_sha256: "xyz" is not a sha256 in hex',
      'changes[0].action: "delete" is not an action this version applies ("create")',
      'changes[1].client_id: must be a whole number',
      'changes[2].depends_on: "client:alice" is not a change listed before this one',
      'changes[2].depends_on: "domain:alice.example" is not a change listed before this one',
      'changes[3].type: must be "client" or "domain"',
    ]);
  });

  it('refuses a request that does not match its change, and a fingerprint that does not match the changes', () => {
    const data = JSON.parse(good) as { changes: Record<string, unknown>[] };
    data.changes[0]!.email = 'attacker@example.com';
    expect(parseError(JSON.stringify(data)).details).toEqual(['changes[0].request: does not match the change: the file was edited']);
    expect(parseError(saved(plan, `sha256:${'0'.repeat(64)}`)).message).toContain('the fingerprint does not match');
  });

  it('refuses consistent hand edits by the plan digest: an email, a dropped dependency, deleted conflicts', () => {
    type Editable = { changes: Record<string, unknown>[]; conflicts: unknown[] };
    const edits: ((data: Editable) => void)[] = [
      (data) => {
        const change = data.changes[0]!;
        change.email = 'attacker@example.com';
        (change.request as { body: Record<string, unknown> }).body.email = 'attacker@example.com';
      },
      (data) => {
        data.changes.reverse();
      },
      (data) => {
        data.conflicts.push({ domain: 'x.example', client: 'alice', owner: 'bob' });
      },
    ];
    for (const edit of edits) {
      const data = JSON.parse(good) as Editable;
      edit(data);
      const error = parseError(JSON.stringify(data));
      expect(error.message === 'plan.json: the digest (plan_sha256) does not match the plan\'s changes: the file was edited after it was made' || error.details.length > 0).toBe(true);
    }
    const emailOnly = JSON.parse(good) as Editable;
    edits[0]!(emailOnly);
    expect(parseError(JSON.stringify(emailOnly)).message).toBe("plan.json: the digest (plan_sha256) does not match the plan's changes: the file was edited after it was made");
  });

  it('never throws anything but a ProvisionError, whatever the text', () => {
    const data = JSON.parse(good) as unknown;
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), fc.constant(good.slice(0, 200))), fc.jsonValue(), fc.nat(), (text, noise, cut) => {
        for (const candidate of [text, JSON.stringify({ ...(data as object), changes: noise }), good.slice(0, cut % good.length)]) {
          try {
            parsePlanFile(candidate, 'p.json');
          } catch (error) {
            if (!(error instanceof ProvisionError)) throw error;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
