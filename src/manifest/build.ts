import { normalizeDomain, USERNAME_PATTERN } from '../names.js';
import type { Found, Locator } from './locate.js';
import { clientLabel } from './schema.js';
import type { DesiredClient, DesiredDomain, Diagnostic, Location } from './types.js';
import { isRecord } from '../util.js';
import { quote } from '../escape.js';

// Deliberately loose: catches slips (a missing "@", a space, no dot in the domain) without
// refusing addresses the panel would take.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * Runs the checks JSON Schema cannot express (username rule, uniqueness, domain names, email
 * shape, empty plan) on every client that is well-formed enough, and builds the clients of
 * `Desired` in manifest order. Problems go to `diagnostics`; the clients are only meaningful
 * when none of them is an error.
 */
export function buildClients<N>(data: unknown, source: Locator<N>, diagnostics: Diagnostic[]): DesiredClient[] {
  const clients = (data as { clients?: unknown } | null)?.clients;
  const root = source.root();
  const clientsNode = root && source.step(root, 'clients');
  if (!Array.isArray(clients) || clientsNode === undefined || !source.isSeq(clientsNode)) return [];
  const builder = new ClientsBuilder(diagnostics);
  clients.forEach((client: unknown, i) => {
    builder.add(source, client, i, source.step(clientsNode, i));
  });
  return builder.clients;
}

/**
 * The same checks, one client at a time (in manifest order, `index` from 0), so that a reader
 * can check clients as it reads them and keep none of the data: the checks across clients
 * (unique usernames and domains) need only what this keeps.
 */
export class ClientsBuilder {
  /** The clients of `Desired` so far. */
  readonly clients: DesiredClient[] = [];
  private readonly usernames = new Map<string, Location>();
  private readonly domains = new Map<string, { input: string; client: number; name: string; loc: Location }>();

  constructor(private readonly diagnostics: Diagnostic[]) {}

  add<N>(source: Locator<N>, client: unknown, i: number, node: Found<N> | undefined): void {
    if (!isRecord(client) || node === undefined) return; // the schema check reported it
    const error = (loc: Location, message: string): void => {
      this.diagnostics.push({ ...loc, severity: 'error', message });
    };
    const { usernames, domains } = this;
    const name = clientLabel(client, i);
    const where = (key: string): Found<N> => source.step(node, key) ?? node;

    const { username, plan, email } = client;
    let loc = source.at(node);
    if (typeof username === 'string') {
      loc = source.at(where('username'));
      if (!USERNAME_PATTERN.test(username)) {
        error(
          loc,
          `username ${quote(username)} must be lowercase letters, digits, "-" or "_", starting with a letter (at most 32): usernames are not rewritten`,
        );
      } else {
        const first = usernames.get(username);
        if (first === undefined) usernames.set(username, loc);
        else error(loc, `username ${quote(username)} is used twice (first at line ${first.line}): each client needs its own username`);
      }
    }

    let planLoc: Location | undefined;
    if (typeof plan === 'string') {
      planLoc = source.at(where('plan'));
      if (plan.trim() === '') {
        error(planLoc, `"plan" in ${name} is empty: give a hosting plan's name, or remove "plan" for the panel's default resources`);
      }
    }

    if (typeof email === 'string' && !EMAIL.test(email)) {
      error(source.at(where('email')), `email ${quote(email)} in ${name} is not an email address like name@example.com`);
    }

    const desiredDomains: DesiredDomain[] = [];
    const domainsNode = source.step(node, 'domains');
    if (Array.isArray(client.domains) && domainsNode !== undefined) {
      client.domains.forEach((input: unknown, j) => {
        if (typeof input !== 'string') return; // the schema check reported it
        const domainLoc = source.at(source.step(domainsNode, j) ?? domainsNode);
        const normalized = normalizeDomain(input);
        if ('problem' in normalized) {
          error(domainLoc, `domain ${quote(input)} in ${name} ${normalized.problem}`);
          return;
        }
        const first = domains.get(normalized.name);
        if (first === undefined) {
          domains.set(normalized.name, { input, client: i, name, loc: domainLoc });
        } else {
          // Name the spelling the reader will find at that line when it differs (case, IDN).
          const same = first.input === input ? '' : ` (same as ${quote(first.input)})`;
          error(
            domainLoc,
            first.client === i
              ? `domain ${quote(input)}${same} is listed twice in ${name} (first at line ${first.loc.line}): remove one`
              : `domain ${quote(input)}${same} is already listed under ${first.name} at line ${first.loc.line}: a domain belongs to one client only`,
          );
        }
        desiredDomains.push({ name: normalized.name, input, loc: domainLoc });
      });
    }

    if (typeof username !== 'string') return;
    this.clients.push({
      username,
      ...(typeof plan === 'string' && planLoc !== undefined ? { plan, planLoc } : {}),
      ...(typeof email === 'string' ? { email } : {}),
      domains: desiredDomains,
      loc,
    });
  }
}

