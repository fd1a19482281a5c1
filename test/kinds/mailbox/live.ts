import type { LiveMailbox } from '../../../src/kinds/mailbox/index.js';

/** A mailbox as the panel's list gives it: client 3's, no fields set, `more` over that. */
export function liveMailbox(id: number, address: string, more: Partial<LiveMailbox> = {}): LiveMailbox {
  return {
    id,
    idUser: 3,
    address,
    unicode: address,
    description: '',
    maxSize: 0,
    catchAll: false,
    storeForwardedEmails: false,
    aliases: [],
    forwardings: [],
    ...more,
  };
}
