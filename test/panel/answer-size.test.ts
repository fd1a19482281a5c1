/**
 * DEFAULT_MAX_ANSWER_MB is large enough for the lists of a 100,000-client panel with three
 * domains each: the clients three times over, the domains (in the panel's full record shape, as
 * go-acme/lego's fixture shows it: settings, target, security) with a quarter to spare. Measured on the
 * simulator's own answers at 10,000 clients and scaled by ten, plus a byte for each of a
 * record's ids that grows a digit (the exact run at 100,000: `node --import tsx bench/answer-size.ts`).
 */
import { describe, expect, it } from 'vitest';
import { listSizes } from '../../bench/answer-size.js';
import { DEFAULT_MAX_ANSWER_MB } from '../../src/panel/limits.js';

describe('the default answer limit', () => {
  it('holds the client and domain lists of 100,000 clients with 3 domains each, with room to spare', () => {
    const measured = listSizes(10_000, 3);
    // Per record at most 3 ids (id, id_user, id_parent_domain) that grow by one digit.
    const clients = measured.clients * 10 + 100_000 * 3;
    const domains = measured.domains * 10 + 300_000 * 3;
    const limit = DEFAULT_MAX_ANSWER_MB * 1024 * 1024;
    expect(3 * clients).toBeLessThan(limit);
    expect(1.25 * domains).toBeLessThan(limit);
    // The sizes themselves, so a change in the records shows (bench/answer-size.ts: 17.7 and 188.2 MB).
    expect(clients / 1024 / 1024).toBeGreaterThan(10);
    expect(domains / 1024 / 1024).toBeGreaterThan(150);
  });
});
