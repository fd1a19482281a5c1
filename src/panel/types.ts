import type { ClientField } from '../kinds/client/index.js';

/**
 * The live panel as the engine sees it after one read, each kind's part by its name
 * (src/kinds/index.ts Live); `liveClients(live)` and the other accessors there read it.
 */
export type { Live } from '../kinds/index.js';

export type { LiveHostingPlan } from '../kinds/common.js';
export type { LiveClient } from '../kinds/client/index.js';

/** The client fields a manifest may manage, by their manifest names (the client's field table). */
export type ManagedField = ClientField;

export type { LiveDomain } from '../kinds/domain.js';
