/**
 * The kinds whose things have a password, as the secrets code and the commands name them: from
 * the table of kinds (src/kinds), each with its `secret` descriptor. `secrets decrypt` and
 * `secrets reset` take `[KIND:]NAME` (a bare name is a client's); the messages name a thing as
 * `client "alice"`, and the command that gives it a new password.
 */
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import type { KindSecret, SecretKindName } from '../kinds/kind.js';
import type { KindNoun } from '../kinds/common.js';
import { isClientKind } from './journal.js';

/** A kind with a password: its name in the journal, its noun, and what the secrets code asks of it. */
export interface SecretKind {
  readonly name: SecretKindName;
  readonly noun: KindNoun;
  readonly secret: KindSecret;
}

/** The kinds with a password, in the table's order. */
export const SECRET_KINDS: readonly SecretKind[] = KIND_NAMES.flatMap((name) => {
  const { noun, secret } = KINDS[name];
  return secret === undefined ? [] : [{ name: secret.journalKind, noun, secret }];
});

/** The kind with a password named `name` in the journal; undefined for another (a newer version's). */
export function secretKind(name: string): SecretKind | undefined {
  return SECRET_KINDS.find((kind) => kind.name === name);
}

/** `client "alice"`: a thing with a password in a sentence (a kind this version does not know, by its journal name). */
export function secretLabel(kind: string, name: string): string {
  return `${secretKind(kind)?.noun.one ?? kind} ${quote(name)}`;
}

/** How a command line names it: `alice` for a client, `<kind>:<name>` for another kind. */
export function secretArg(kind: string, name: string): string {
  return isClientKind(kind) ? name : `${kind}:${name}`;
}

/** The command that gives a thing whose password is lost a new one. */
export function resetCommand(kind: string, name: string): string {
  return `provision secrets reset ${secretArg(kind, name)}`;
}

/** What `[KIND:]NAME` names. */
export interface SecretName {
  readonly kind: SecretKindName;
  readonly name: string;
}

/**
 * `[KIND:]NAME` as `secrets decrypt` and `secrets reset` take it: a bare name is a client's
 * (`alice`, `client:alice`). An unknown kind, or a kind without a password, is a usage error
 * naming the kinds that have one. The name itself is checked by the caller (checkSecretName).
 */
export function parseSecretName(arg: string): SecretName {
  const colon = arg.indexOf(':');
  // A client's username has no colon; another kind's name may (it is only split at the first).
  if (colon < 0) return { kind: 'client', name: arg };
  const kindName = arg.slice(0, colon);
  const kind = secretKind(kindName);
  if (kind === undefined) {
    const known = (KIND_NAMES as readonly string[]).includes(kindName);
    throw new ProvisionError(
      'usage',
      `${quote(arg)}: ${known ? `a ${kindName} has no password` : `no kind ${quote(kindName)}`}: nothing was done`,
      { hint: `the kinds with passwords: ${SECRET_KINDS.map((k) => k.name).join(', ')} (a bare name is a client)` },
    );
  }
  // In the form the journal holds it, when the kind says one (an address in any spelling); a
  // name it cannot read is kept as typed, for badSecretNames to refuse with the kind's rule.
  const typed = arg.slice(colon + 1);
  const read = kind.secret.secretName?.(typed);
  return { kind: kind.name, name: read !== undefined && 'name' in read ? read.name : typed };
}

/** The names in `names` their kind does not allow, as `[KIND:]NAME`, with the rule of the first such kind. */
export function badSecretNames(names: readonly SecretName[]): { readonly bad: string[]; readonly rule: string } {
  const bad = names.filter(({ kind, name }) => !(secretKind(kind)?.secret.namePattern.test(name) ?? false));
  const first = bad[0];
  return {
    bad: bad.map(({ kind, name }) => secretArg(kind, name)),
    rule: first === undefined ? '' : (secretKind(first.kind)?.secret.nameRule ?? ''),
  };
}

/** A thing with a password as the recovery needs it: its kind, its name, the panel's id of it. */
export interface ExistingSecret {
  readonly kind: SecretKindName;
  readonly name: string;
  readonly id: number;
}

/** A client as the panel's live record gives it: a thing of kind `client` named by its username. */
export interface ExistingClient {
  readonly username: string;
  readonly id: number;
}

/** What a caller may pass for a thing that exists: a client by its username, or any thing by kind and name. */
export type Existing = ExistingSecret | ExistingClient;

/** `existing` as kind, name and id. */
export function existingSecret(existing: Existing): ExistingSecret {
  return 'kind' in existing
    ? { kind: existing.kind, name: existing.name, id: existing.id }
    : { kind: 'client', name: existing.username, id: existing.id };
}
