export { formatDiagnostic, loadManifest, parseManifest } from './load.js';
export type { LoadResult } from './load.js';
export type { Desired, DesiredClient, DesiredDomain, Diagnostic, Location } from './types.js';
