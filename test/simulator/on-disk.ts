/**
 * What a simulator's state file holds right now, as a simulator killed at this moment would
 * leave it: a copy of the file, loaded by a fresh simulator (which compacts the copy, never
 * the file itself).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimClient, SimDomain, SimPlan } from '../../src/simulator/index.js';
import { startSim } from '../helpers/sim.js';

export interface OnDisk {
  readonly plans: SimPlan[];
  readonly clients: SimClient[];
  readonly domains: SimDomain[];
  /** Each client's password the file holds, by username. */
  readonly passwords: Record<string, string | undefined>;
}

export async function onDisk(statePath: string): Promise<OnDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'sim-on-disk-'));
  try {
    const copy = join(dir, 'state.json');
    await copyFile(statePath, copy);
    const loaded = await startSim({ statePath: copy });
    try {
      const clients = [...loaded.state.clients.values()];
      return {
        plans: [...loaded.state.plans.values()],
        clients,
        domains: [...loaded.state.domains.values()],
        passwords: Object.fromEntries(clients.map((c) => [c.username, loaded.state.passwordOf(c.username)])),
      };
    } finally {
      await loaded.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
