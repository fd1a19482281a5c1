/**
 * What the secrets code asks of a kind whose things have a password (Kind.secret, ./kind.ts):
 * its name in the journal, how its create carries a password made here, how a new one is set,
 * and which names `secrets reset` takes. Pure.
 */
import type { PanelReader } from './apply.js';
import type { PanelRequest } from './common.js';
import type { PanelListReader } from './read.js';
/**
 * The names of the kinds whose things have a password, as the secrets journal's records say
 * them (`kind`; a record without one is a client's). The stages' look-ups by name are tables
 * over it, so a kind added here fails to compile until each stage can find its things.
 */
export type SecretKindName = 'client' | 'mailbox' | 'database' | 'ftp_user';

/**
 * What the secrets code needs of a kind that has a password: how its create carries one made
 * here, how a new one is set, and which names `secrets reset` takes. The look-ups (in the panel
 * read, by name, by id) are its list read's (`read.lookUps`, ./read.ts KindLookUps), through the
 * reader src/apply/secret-lookups.ts hands in; a kind the panel read does not hold whole is never
 * judged gone by the journal's repairs.
 * `--clients` decides for a client by its username; a thing of another kind is outside every
 * scope (apply/recover.ts scopeCovers) until its kind says which client owns it.
 */
export interface KindSecret {
  /** The kind's name in the secrets journal. */
  readonly journalKind: SecretKindName;
  /**
   * Whether the panel makes the password when the create sends none (a client's: its answer
   * holds it); otherwise the engine makes every one, whatever --generate-passwords says.
   */
  readonly panelMakesOne: boolean;
  /** The names a thing of this kind may have, checked before anything is sent; `nameRule` says them. */
  readonly namePattern: RegExp;
  readonly nameRule: string;
  /** The create request as planned, with the password made here added to its body (a plan never holds one). */
  withPassword(request: PanelRequest, password: string): PanelRequest;
  /** The request that sets a new password on the thing the panel knows as `id`. */
  resetRequest(id: number, password: string): PanelRequest;
  // The panel naming a new thing itself (apply/create-secret.ts)
  /**
   * Where the panel may give a new thing a name of its own instead of the one its create sent (an
   * FTP user on a panel whose "custom FTP usernames" setting is off): how the one write-ahead
   * create learns the name, and what it says then. Absent for a kind whose panel always takes the
   * name sent.
   */
  readonly panelNaming?: PanelNaming;
  /**
   * A name as a person typed it (`secrets decrypt`, `secrets reset`) in the form the journal holds
   * (an address in any spelling: its comparison form), or what is wrong with it as the end of a
   * sentence; absent: taken as typed, and checked by `namePattern`.
   */
  secretName?(input: string): { readonly name: string } | { readonly problem: string };
}

/**
 * How the one write-ahead create (apply/create-secret.ts) tells that the panel named a new thing
 * itself (KindSecret.panelNaming): it reads the thing it created back by its id; when the panel's
 * name is not the one sent, the password is recorded under the panel's name (what the panel
 * holds) and the create fails naming both, with what to do (docs/passwords.md).
 */
export interface PanelNaming {
  /** The name the panel gave the thing it created as `id`, read back by id; undefined when it cannot tell. */
  nameOf(panel: PanelReader, id: number): Promise<string | undefined>;
  /** When `given` is not the name `sent` (in the kind's terms), the create's failure; undefined when they agree. */
  renamed(sent: string, given: string): { readonly message: string; readonly hint: string } | undefined;
  // A later apply's open intent (apply/panel-named.ts)
  /**
   * The names of the things of this kind on the panel that the create `request` (as planned) may
   * have made under a name of the panel's: those of its client, and those whose record does not
   * say whose they are. A later apply that finds an earlier create of the kind left open, and the
   * thing not under the name sent, creates it again only when the journal knows each of these
   * (docs/passwords.md).
   */
  candidates(panel: PanelListReader, request: PanelRequest): Promise<readonly string[]>;
}
