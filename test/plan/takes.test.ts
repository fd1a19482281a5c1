/**
 * Deletes that take other kinds' things (plan/takes.ts, kinds/takes.ts), pure: which lists a
 * plan must read more (none without such a delete, none already read), the counts a client's and
 * a domain's delete carry (a list not read: left out), their weight for --max-deletes, the
 * counts written to a saved plan and read back the same, and the fingerprint stale once they differ.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint, staleReasons } from '../../src/plan/fingerprint.js';
import { weight } from '../../src/plan/guards.js';
import { parsePlanFile } from '../../src/plan/saved.js';
import { countTakes, takesAsks, withTakes } from '../../src/plan/takes.js';
import type { Plan } from '../../src/plan/types.js';
import { readsForSavedPlan } from '../../src/plan/reads.js';
import type { PlanView } from '../../src/render/common.js';
import { renderPlanJson } from '../../src/render/json.js';
import type { Live } from '../../src/kinds/index.js';
import type { LiveMailbox } from '../../src/kinds/mailbox/index.js';
import { liveMailbox } from '../kinds/mailbox/live.js';
import type { LiveDatabase } from '../../src/kinds/database/record.js';
import { desired, live } from '../helpers/builders.js';

const box = (id: number, address: string, idUser: number | undefined): LiveMailbox =>
  liveMailbox(id, address, { idUser });
const db = (id: number, name: string, idUser: number): LiveDatabase => ({
  id,
  idUser,
  name,
  user: name,
  description: '',
  remoteHosts: [],
  size: 0,
});

const PANEL = live(
  [
    [7, 'alice'],
    [8, 'bob'],
  ],
  [
    [70, 'alice.example', 7],
    [80, 'bob.example', 8],
    [81, 'shop.example', 8],
  ],
);
const MAILBOXES = {
  read: true,
  // One without an owner in its record: counted by its domain.
  records: [box(1, 'info@alice.example', 7), box(2, 'info@bob.example', 8), box(3, 'orders@shop.example', undefined)],
};
const DATABASES = { read: true, records: [db(5, 'bob_db', 8), db(6, 'alice_db', 7)] };
const READ: Live = { ...PANEL, mailbox: MAILBOXES, database: DATABASES };

const BOB_ABSENT = desired({ alice: { domains: ['alice.example'] }, bob: { state: 'absent' } });
const SHOP_ABSENT = desired({
  alice: { domains: ['alice.example'] },
  bob: { domains: ['bob.example', { name: 'shop.example', state: 'absent' }] },
});

function view(plan: Plan, against: Live): PlanView {
  return {
    plan,
    panelUrl: 'https://panel.example/api/v2',
    manifest: 'm.yaml',
    showUnmanaged: false,
    notes: [],
    manifestSha256: 'a'.repeat(64),
    fingerprint: planFingerprint(plan, against),
  };
}

describe('the lists a plan reads more', () => {
  it('none for a plan without a delete that takes things', () => {
    const plan = diff(desired({ alice: { domains: ['alice.example'] }, bob: {} }), PANEL);
    expect(takesAsks(plan, PANEL)).toEqual([]);
  });

  it("a client's delete: each list not read yet; a domain's: only what it takes", () => {
    expect(takesAsks(diff(BOB_ABSENT, PANEL), PANEL)).toEqual([
      { kind: 'mailbox', ask: { mailboxes: true } },
      { kind: 'database', ask: { databases: true } },
    ]);
    expect(takesAsks(diff(BOB_ABSENT, PANEL), READ)).toEqual([]);
    expect(takesAsks(diff(SHOP_ABSENT, PANEL), PANEL)).toEqual([{ kind: 'mailbox', ask: { mailboxes: true } }]);
  });
});

describe('the counts a delete carries', () => {
  it("a client's: its mailboxes (by owner or domain) and databases; a domain's: the mailboxes on it", () => {
    const [bob] = withTakes(diff(BOB_ABSENT, READ), READ).changes;
    expect(bob).toMatchObject({ id: 'client:bob', takes: { counts: { mailbox: 2, database: 1 }, destroysData: true } });
    expect(weight(bob!)).toEqual({ creates: 0, deletes: 1 + 2 + 3 });
    const [shop] = withTakes(diff(SHOP_ABSENT, READ), READ).changes;
    expect(shop).toMatchObject({ id: 'domain:shop.example', takes: { counts: { mailbox: 1 }, destroysData: true } });
    expect(weight(shop!)).toEqual({ creates: 0, deletes: 2 });
  });

  it('a list not read is left out; none read: no counts, the change as before', () => {
    const mailOnly: Live = { ...PANEL, mailbox: MAILBOXES };
    const [bob] = diff(BOB_ABSENT, mailOnly).changes;
    expect(countTakes(bob!, mailOnly)).toEqual({ counts: { mailbox: 2 }, destroysData: true });
    const plan = diff(BOB_ABSENT, PANEL);
    expect(withTakes(plan, PANEL)).toBe(plan);
  });

  it('nothing taken: counted, no data destroyed', () => {
    const empty: Live = { ...PANEL, mailbox: { read: true, records: [] }, database: { read: true, records: [] } };
    const [bob] = withTakes(diff(BOB_ABSENT, empty), empty).changes;
    expect(bob).toMatchObject({ takes: { counts: { mailbox: 0, database: 0 }, destroysData: false } });
    expect(weight(bob!)).toEqual({ creates: 0, deletes: 3 });
  });
});

describe('the counts in a saved plan', () => {
  const plan = withTakes(diff(BOB_ABSENT, READ), READ);

  it('written and read back the same, and the lists they were counted in read again', () => {
    const text = renderPlanJson(view(plan, READ));
    const doc = JSON.parse(text) as { changes: Record<string, unknown>[] };
    expect(doc.changes[0]).toMatchObject({ takes: { mailbox: 2, database: 1 }, destroys_data: true });
    const back = parsePlanFile(text, 'plan.json');
    expect(back.plan.changes).toEqual(plan.changes);
    expect(readsForSavedPlan(back.plan)).toMatchObject({ mailboxes: true, databases: true });
  });

  it('stale once what the delete takes differs', () => {
    expect(staleReasons(plan, READ)).toEqual([]);
    const more: Live = {
      ...READ,
      mailbox: { read: true, records: [...MAILBOXES.records, box(4, 'x@bob.example', 8)] },
    };
    expect(planFingerprint(plan, more)).not.toBe(planFingerprint(plan, READ));
    expect(staleReasons(plan, more)).toEqual([
      'what the delete of client "bob" takes changed: mailbox:3 database:1; the plan was made when it was mailbox:2 database:1',
    ]);
  });
});
