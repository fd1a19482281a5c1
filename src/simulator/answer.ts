/**
 * The simulator's answer to a request, in a file of its own: the routes, the lifecycle rules
 * they call, the faults and the HTTP plumbing all make or send one.
 */

/** What the simulator sends back: JSON unless `text` is given. */
export interface Answer {
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The state changed: save it before answering. */
  readonly mutated?: boolean;
  /** A GET of this domain's zone answered: the race fault (faults.ts) may change the zone after it. */
  readonly zoneRead?: number;
}
