export { parseManifest, parseManifestBytes } from './load.js';
export type { LoadResult } from './load.js';
export type { Desired, DesiredClient, DesiredDomain, Diagnostic, Location } from './types.js';
