/**
 * A mailbox's export entry: what a manifest lists for a mailbox as the panel holds it, which the
 * room reads back (its manifest list) to a mailbox its diff rule finds no change in.
 */
import { describe, expect, it } from 'vitest';
import {
  diffMailbox,
  type LiveMailbox,
  mailboxEntry,
  mailboxItems,
  mailboxSeen,
} from '../../../src/kinds/mailbox/index.js';

const GiB = 1024 ** 3;

const LIVE: LiveMailbox = {
  id: 7,
  idUser: 3,
  address: 'info@xn--bcher-kva.example',
  unicode: 'info@bücher.example',
  description: 'Front desk',
  maxSize: 2 * GiB,
  catchAll: true,
  storeForwardedEmails: false,
  aliases: ['hallo@xn--bcher-kva.example', 'info@alice.example'],
  forwardings: ['owner@example.net', 'post@xn--mnchen-3ya.example'],
};

const DOMAINS = new Set(['xn--bcher-kva.example', 'alice.example']);

describe('a mailbox export entry', () => {
  it('writes the local part, the quota in its largest unit, aliases and forwardings as people read them', () => {
    expect(mailboxEntry(LIVE, 'xn--bcher-kva.example', DOMAINS)).toEqual({
      entry: {
        name: 'info',
        quota: '2 GiB',
        aliases: ['info@alice.example', 'hallo'],
        forwardings: ['post@münchen.example', 'owner@example.net'],
        catch_all: true,
        description: 'Front desk',
      },
      left: [],
    });
    expect(
      mailboxEntry(
        { ...LIVE, maxSize: 0, catchAll: undefined, description: '', aliases: [], forwardings: undefined },
        'xn--bcher-kva.example',
        DOMAINS,
      ).entry,
    ).toEqual({ name: 'info', quota: 0 });
  });

  it('reads back to the same mailbox: no change', () => {
    const { entry } = mailboxEntry(LIVE, 'xn--bcher-kva.example', DOMAINS);
    const place = { file: 'm.yaml', line: 1, column: 1 };
    const { mailboxes, problems } = mailboxItems([entry], {
      domain: 'xn--bcher-kva.example',
      client: 'client "alice"',
      clientDomains: DOMAINS,
      locate: () => place,
      seen: mailboxSeen(),
    });
    expect(problems).toEqual([]);
    const [wanted] = mailboxes;
    expect(wanted?.address).toBe(LIVE.address);
    expect(diffMailbox(wanted!, LIVE, { client: 'alice', clientId: 3, domainCreated: () => false })).toEqual({
      change: undefined,
      unknowns: [],
    });
  });

  it('leaves out what a manifest cannot hold, saying why', () => {
    expect(mailboxEntry({ ...LIVE, aliases: ['x@bob.example'] }, 'xn--bcher-kva.example', DOMAINS)).toMatchObject({
      entry: { name: 'info' },
      left: ['an alias is not an address, or is on a domain its client does not list: aliases left out'],
    });
    expect(
      mailboxEntry({ ...LIVE, forwardings: ['broken'], description: 'x\uD800' }, 'xn--bcher-kva.example', DOMAINS).left,
    ).toEqual([
      'a forwarding is not an address: forwardings left out',
      'its description is not valid Unicode, which a file cannot hold: left out',
    ]);
    expect(mailboxEntry({ ...LIVE, address: 'in fo@x.example' }, 'x.example', DOMAINS)).toEqual({
      entry: undefined,
      left: ['its address is not one the manifest accepts on x.example: left out'],
    });
  });
});
