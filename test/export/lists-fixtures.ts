/** A panel with mailboxes, databases and FTP users, for the tests of their lists in export. */
import type { SimulatorSeed } from '../../src/simulator/index.js';

/** The password of every seeded thing: never in an export. */
export const PASSWORD = 'Seed-Secret-9f3k2';

export const LISTS_SEED: SimulatorSeed = {
  clients: [
    {
      username: 'alice',
      domains: [
        // First: an alias of info@alice.example is on it.
        { name: 'alice.net', mailboxes: [{ name: 'team', password: PASSWORD, max_size: 500 * 1024 ** 2 }] },
        {
          name: 'alice.example',
          mailboxes: [
            {
              name: 'info',
              password: PASSWORD,
              max_size: 2 * 1024 ** 3,
              aliases: ['hello@alice.example', 'office@alice.net'],
              forwardings: ['owner@example.org'],
              store_forwarded_emails: true,
              description: 'Front desk: "#1"',
            },
            { name: 'catch', password: PASSWORD, max_size: 0, catch_all: true },
          ],
        },
      ],
      databases: [
        { name: 'alice_wp', password: PASSWORD, description: 'WordPress', remote_hosts: ['192.0.2.0/24'] },
        { name: 'alice_shop', database_username: 'alice_shopuser', password: PASSWORD },
      ],
      ftp_users: [
        { name: 'alice-deploy', password: PASSWORD, home_directory: '/www/alice.example' },
        { name: 'alice-backup', password: PASSWORD, description: 'nightly' },
      ],
    },
    { username: 'bob', domains: ['bob.example'] },
  ],
};
