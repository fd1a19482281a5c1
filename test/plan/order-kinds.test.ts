import { describe, expect, it } from 'vitest';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { kindsInOrder } from '../../src/plan/order.js';

// Each kind's place in the order of changes (Kind.order), as plan/order.ts derives the order from it.
describe('the declared order of the kinds', () => {
  it('names only kinds of the table, never the kind itself', () => {
    for (const name of KIND_NAMES) {
      const { after } = KINDS[name].order;
      for (const other of after) expect(KIND_NAMES, `${name} is ordered after ${other}`).toContain(other);
      expect(after).not.toContain(name);
    }
  });

  it('has no cycle: every kind comes after those it names', () => {
    const order = kindsInOrder();
    expect([...order].sort()).toEqual([...KIND_NAMES].sort());
    for (const name of KIND_NAMES)
      for (const other of KINDS[name].order.after) expect(order.indexOf(other)).toBeLessThan(order.indexOf(name));
  });

  it('puts hosting plans first, then clients, domains, zones, mailboxes, databases and FTP users (deletes in reverse)', () => {
    expect(kindsInOrder()).toEqual(['hosting_plan', 'client', 'domain', 'dns_zone', 'mailbox', 'database', 'ftp_user']);
  });

  it('refuses a kind ordered after one the table lacks, and kinds ordered after each other', () => {
    expect(() => kindsInOrder({ a: { order: { after: ['b'] } } })).toThrow(/after b, which is not a kind/);
    expect(() =>
      kindsInOrder({ a: { order: { after: ['c'] } }, b: { order: { after: [] } }, c: { order: { after: ['a'] } } }),
    ).toThrow(/a, c are ordered after each other in a circle/);
  });

  it('walks the manifest only for the kinds under its clients', () => {
    expect(Object.fromEntries(KIND_NAMES.map((name) => [name, KINDS[name].order.at]))).toEqual({
      client: 'client',
      domain: 'domain',
      dns_zone: 'domain',
      mailbox: 'domain',
      database: 'client',
      ftp_user: 'client',
      hosting_plan: undefined,
    });
  });
});
