/**
 * The databases a client's delete takes with it (Kind.takenWith, ../takes.ts): each holds data,
 * so such a delete destroys data. Counted from GET /databases read whole: those whose record
 * names the client as owner. A domain's delete takes none. Pure.
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
};
