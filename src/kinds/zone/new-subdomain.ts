import { type LocatedProblem, ProvisionError } from '../../errors.js';
import { quote } from '../../escape.js';
import { plural } from '../../util.js';

/** A client of the manifest as the check reads it: its username, and its domains with their `dns` and place. */
export interface ZoneClient {
  readonly username: string;
  readonly domains: readonly {
    readonly name: string;
    readonly dns?: unknown;
    readonly loc?: { readonly file: string; readonly line: number; readonly column: number } | undefined;
  }[];
}

/**
 * A `dns` block on a domain the plan creates that will be a subdomain: of a domain on the panel,
 * or of another domain the plan creates. Its records live in its parent's zone, and a panel asked
 * for the zone of a subdomain may answer its parent's (a PUT of the "subdomain's" zone with
 * `prune: true` would then wipe the parent's). Refused at plan time, at the domain's line, naming
 * the parent and the hosts to write instead; nothing is planned. (The manifest's own check refuses
 * it already when the client lists the parent too: manifest/build.ts.) Pure.
 */
export function refuseNewSubdomainZones(
  creates: readonly { readonly client: ZoneClient; readonly name: string }[],
  onPanel: ReadonlySet<string>,
): void {
  const created = new Set(creates.map((c) => c.name));
  const located: LocatedProblem[] = [];
  const details: string[] = [];
  for (const { client, name } of creates) {
    const domain = client.domains.find((d) => d.name === name);
    if (domain?.dns === undefined) continue;
    const parent = topmostAbove(name, (above) => onPanel.has(above) || created.has(above));
    if (parent === undefined) continue;
    const host = name.slice(0, -(parent.length + 1));
    const message =
      `domain ${quote(name)} of client ${quote(client.username)} manages "dns", but it will be a subdomain of ` +
      `${quote(parent)} (${onPanel.has(parent) ? 'on the panel' : 'created by this plan'}): its records live in the ` +
      `zone of ${quote(parent)}; write them in the "dns" of ${quote(parent)} with hosts relative to it ` +
      `(host ${quote(host)} for this domain's "@", ${quote(`_acme-challenge.${host}`)} for its "_acme-challenge"), ` +
      'and remove "dns" here';
    if (domain.loc === undefined) details.push(message);
    else located.push({ file: domain.loc.file, line: domain.loc.line, column: domain.loc.column, message });
  }
  const count = located.length + details.length;
  if (count === 0) return;
  throw new ProvisionError(
    'plan_conflict',
    `${plural(count, 'new domain')} of the manifest ${count === 1 ? 'manages' : 'manage'} "dns" but will be a subdomain: nothing was planned`,
    {
      details,
      located,
      hint: "a subdomain has no zone of its own: its records are written in its parent's zone",
    },
  );
}

/** The shortest proper suffix of `name` (two labels at least) that `is` accepts: the zone its records would live in. */
function topmostAbove(name: string, is: (above: string) => boolean): string | undefined {
  let found: string | undefined;
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    const above = name.slice(dot + 1);
    if (above.includes('.') && is(above)) found = above;
  }
  return found;
}
