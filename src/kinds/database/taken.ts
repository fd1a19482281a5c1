/**
 * The databases a client's delete takes with it (Kind.takenWith, ../takes.ts): each holds data,
 * so such a delete destroys data. Counted from GET /databases read whole: those whose record
 * names the client as owner, and apart those whose record names no owner (any of them may be the
 * client's). A domain's delete takes none. Pure.
 */
import type { KindTakenWith } from '../takes.js';
import type { DatabasesPart } from './read.js';

export const DATABASE_TAKEN_WITH: KindTakenWith<DatabasesPart> = {
  parents: ['client'],
  destroysData: true,
  asks: { databases: true },
  read: (part) => part.read,
  count: (part, scope) =>
    scope.parent === 'client' ? part.records.filter((d) => d.idUser === scope.clientId).length : 0,
  // A record that names no owner may be the client's: the count is then a least.
  unattributed: (part, scope) =>
    scope.parent === 'client' ? part.records.filter((d) => d.idUser === undefined).length : 0,
};
