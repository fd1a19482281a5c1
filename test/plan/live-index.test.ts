/**
 * The live panel's one index (src/plan/live-index.ts), which the planner, the fingerprint and
 * export look the panel up by: what each part holds, and that a part is built only when asked.
 */
import { describe, expect, it } from 'vitest';
import { LiveIndex } from '../../src/plan/live-index.js';
import { live } from '../helpers/builders.js';

const LIVE = live(
  [
    [7, 'carol', 1],
    [8, 'zed'],
  ],
  [
    [72, 'shop.carol.example', 7],
    [70, 'carol.example', 7],
    [71, 'carol.panel.example', 7, true],
    [73, 'b.shop.carol.example', 7],
    [80, 'zed.example', 8],
    [90, 'admin.example', 1],
  ],
);

describe('the live index', () => {
  const index = new LiveIndex(LIVE);

  it('looks clients and domains up by name, and owners by id', () => {
    expect(index.clients.get('carol')?.id).toBe(7);
    expect(index.domains.get('zed.example')?.idUser).toBe(8);
    expect(index.usernames.get(8)).toBe('zed');
    expect([index.ownerName(7), index.ownerName(1)]).toEqual(['carol', '#1']);
    expect(index.plans.byName('Basic')?.id).toBe(1);
    expect(index.complete).toBe(true);
  });

  it("lists a client's domains in the panel's order, sorted, and by name without system domains", () => {
    expect(index.domainsOf(7).map((d) => d.id)).toEqual([72, 70, 71, 73]);
    expect(index.sortedDomainsOf(7).map((d) => d.id)).toEqual([73, 70, 71, 72]);
    expect(index.domainNamesOf(7)).toEqual(['b.shop.carol.example', 'carol.example', 'shop.carol.example']);
    expect([index.domainsOf(99), index.domainNamesOf(99)]).toEqual([[], []]);
  });

  it("gives each kind's index of its part, as its list read builds it, once", () => {
    const fresh = new LiveIndex(LIVE);
    const clients = fresh.indexOf('client');
    expect([...clients.keys()]).toEqual(['carol', 'zed']);
    expect(fresh.clients).toBe(clients);
    expect(fresh.indexOf('domain').get('carol.example')?.id).toBe(70);
    expect(fresh.domains).toBe(fresh.indexOf('domain'));
  });

  it('finds the subdomains of the same owner under a name, sorted', () => {
    expect(index.subdomains('carol.example', 7)).toEqual(['b.shop.carol.example', 'shop.carol.example']);
    expect(index.subdomains('shop.carol.example', 7)).toEqual(['b.shop.carol.example']);
    expect(index.subdomains('carol.example', 8)).toEqual([]);
  });

  it('builds each part on first use: asking for clients reads no domain and no plan', () => {
    const read: string[] = [];
    const watch = <T extends object>(part: T, prefix: string): T =>
      new Proxy(part, {
        get(target, key) {
          if (typeof key === 'string') read.push(prefix + key);
          return target[key as keyof T];
        },
      });
    const lazy = new LiveIndex(watch({ ...LIVE, domain: watch(LIVE.domain, 'domain.') }, ''));
    expect(read).toEqual(['domain', 'domain.complete']);
    expect(lazy.clients.size).toBe(2);
    expect(read).toEqual(['domain', 'domain.complete', 'client']);
    expect(lazy.domainsOf(8)).toHaveLength(1);
    expect(read).toEqual(['domain', 'domain.complete', 'client', 'domain', 'domain.records']);
  });
});
