/**
 * What the secrets code will need of a mailbox: its password added to the create only as it is
 * sent, a new one set by a PUT, and its journal name from any spelling of its address.
 */
import { describe, expect, it } from 'vitest';
import {
  createMailbox,
  MAILBOX_NAME_PATTERN,
  mailboxRequest,
  mailboxResetRequest,
  mailboxSecretName,
  mailboxWithPassword,
} from '../../../src/kinds/mailbox/index.js';

describe("a mailbox's secret", () => {
  it('goes into the create only as it is sent, and a new one by a PUT', () => {
    const change = createMailbox(
      'info@alice.example',
      'alice.example',
      { quota: 0 },
      {
        client: 'alice',
        clientId: 3,
        dependsOn: [],
      },
    );
    const planned = mailboxRequest(change);
    expect(planned.body).not.toHaveProperty('password');
    expect(mailboxWithPassword(planned, 'Pw-made-here-1')).toEqual({
      method: 'POST',
      path: '/emails',
      body: { id_user: 3, email: 'info@alice.example', max_size: 0, password: 'Pw-made-here-1' },
    });
    expect(planned.body).not.toHaveProperty('password');
    expect(mailboxResetRequest(7, 'Pw-new-2')).toEqual({
      method: 'PUT',
      path: '/emails/7',
      body: { password: 'Pw-new-2' },
    });
  });

  it('is named by the address in comparison form, whatever the spelling typed', () => {
    expect(mailboxSecretName('Info@Bücher.Example')).toEqual({ name: 'info@xn--bcher-kva.example' });
    expect(mailboxSecretName('info')).toEqual({
      problem: 'has no "@": write a whole address like info@example.com',
    });
    for (const name of ['info@xn--bcher-kva.example', 'first.last+tag@alice.example'])
      expect(MAILBOX_NAME_PATTERN.test(name)).toBe(true);
    for (const name of ['Info@alice.example', 'info', 'info@localhost', 'a b@alice.example'])
      expect(MAILBOX_NAME_PATTERN.test(name)).toBe(false);
  });
});
