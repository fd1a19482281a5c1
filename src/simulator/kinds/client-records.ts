/**
 * The client kind's records and the store lists it keeps: `admins` and `clients` (one user id
 * sequence, one namespace) and their `passwords`. kinds/client.ts has their requests and seed.
 */
import { type ListRule, whole } from '../table.js';

/** A client as GET /clients answers it. `id_hosting_plan` is absent when the panel has no plan at all. */
export interface SimClient {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly id_hosting_plan?: number;
  readonly is_suspended: boolean;
  readonly language: string;
  readonly created_at: string;
}

/** An administrator: nothing else of theirs is modelled. Usernames are stored lowercase. */
export interface SimAdmin {
  readonly id: number;
  readonly username: string;
}

/** A client's password: never part of its record, so no answer can carry one. */
export interface SimPassword {
  readonly id: number;
  readonly password: string;
}

export const CLIENT_LISTS = {
  admins: { ...whole<SimAdmin>(), fields: ['id', 'username'], key: (a) => a.username, sequence: 'nextUserId' },
  clients: {
    ...whole<SimClient>(),
    fields: ['id', 'username'],
    key: (c) => c.username.toLowerCase(),
    lookup: (name) => name.toLowerCase(),
    sequence: 'nextUserId',
    deletable: true,
  },
  passwords: { ...whole<SimPassword>(), fields: ['id', 'password'], optional: true, ownedBy: 'clients' },
} as const satisfies {
  admins: ListRule<SimAdmin, SimAdmin>;
  clients: ListRule<SimClient, SimClient>;
  passwords: ListRule<SimPassword, SimPassword>;
};
