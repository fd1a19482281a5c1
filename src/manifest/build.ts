import { isSeq } from 'yaml';
import { normalizeDomain, USERNAME_PATTERN } from '../names.js';
import type { Found, SourceMap } from './locate.js';
import { clientName } from './schema.js';
import type { DesiredClient, DesiredDomain, Diagnostic, Location } from './types.js';

// Deliberately loose: catches slips (a missing "@", a space, no dot in the domain) without
// refusing addresses the panel would take.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * Runs the checks JSON Schema cannot express (username rule, uniqueness, domain names, email
 * shape, empty plan) on every client that is well-formed enough, and builds the clients of
 * `Desired` in manifest order. Problems go to `diagnostics`; the clients are only meaningful
 * when none of them is an error.
 */
export function buildClients(data: unknown, source: SourceMap, diagnostics: Diagnostic[]): DesiredClient[] {
  const clients = (data as { clients?: unknown } | null)?.clients;
  const root = source.root();
  const clientsNode = root && source.step(root, 'clients');
  if (!Array.isArray(clients) || clientsNode === undefined || !isSeq(source.deref(clientsNode.node))) return [];

  const error = (loc: Location, message: string): void => {
    diagnostics.push({ ...loc, severity: 'error', message });
  };
  const usernames = new Map<string, Location>();
  const domains = new Map<string, { input: string; client: number; loc: Location }>();
  const result: DesiredClient[] = [];

  clients.forEach((client: unknown, i) => {
    const node = source.step(clientsNode, i);
    if (!isRecord(client) || node === undefined) return; // the schema check reported it
    const name = clientName(data, i);
    const where = (key: string): Found => source.step(node, key) ?? node;

    const { username, plan, email } = client;
    let loc = source.at(node);
    if (typeof username === 'string') {
      loc = source.at(where('username'));
      if (!USERNAME_PATTERN.test(username)) {
        error(
          loc,
          `username "${username}" must be lowercase letters, digits, "-" or "_", starting with a letter (at most 32): usernames are not rewritten`,
        );
      } else {
        const first = usernames.get(username);
        if (first === undefined) usernames.set(username, loc);
        else error(loc, `username "${username}" is used twice (first at line ${first.line}): each client needs its own username`);
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
      error(source.at(where('email')), `email "${email}" in ${name} is not an email address like name@example.com`);
    }

    const desiredDomains: DesiredDomain[] = [];
    const domainsNode = source.step(node, 'domains');
    if (Array.isArray(client.domains) && domainsNode !== undefined) {
      client.domains.forEach((input: unknown, j) => {
        if (typeof input !== 'string') return; // the schema check reported it
        const domainLoc = source.at(source.step(domainsNode, j) ?? domainsNode);
        const normalized = normalizeDomain(input);
        if ('problem' in normalized) {
          error(domainLoc, `domain "${input}" in ${name} ${normalized.problem}`);
          return;
        }
        const first = domains.get(normalized.name);
        if (first === undefined) {
          domains.set(normalized.name, { input, client: i, loc: domainLoc });
        } else {
          // Name the spelling the reader will find at that line when it differs (case, IDN).
          const same = first.input === input ? '' : ` (same as "${first.input}")`;
          error(
            domainLoc,
            first.client === i
              ? `domain "${input}"${same} is listed twice in ${name} (first at line ${first.loc.line}): remove one`
              : `domain "${input}"${same} is already listed under ${clientName(data, first.client)} at line ${first.loc.line}: a domain belongs to one client only`,
          );
        }
        desiredDomains.push({ name: normalized.name, input, loc: domainLoc });
      });
    }

    if (typeof username !== 'string') return;
    result.push({
      username,
      ...(typeof plan === 'string' && planLoc !== undefined ? { plan, planLoc } : {}),
      ...(typeof email === 'string' ? { email } : {}),
      domains: desiredDomains,
      loc,
    });
  });
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
