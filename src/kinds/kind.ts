/**
 * What a resource kind is to the stages: one typed descriptor, `Kind`, per room (its `kind.ts`),
 * gathered in the table of kinds (`./index.ts` KINDS). A descriptor says, member by member, what
 * each stage needs of the kind: its identity (name, noun); what the planner makes of a change
 * (its request, its fingerprint facts, its weight, its place in the order of changes, what a
 * saved plan's check reads again); how the plan document writes and reads a change; its phrases
 * for the renderers (text, Markdown, JSON); its part in a snapshot's plan and in export; its
 * secret, when its things have a password; how apply carries a change out; and its doctor check.
 * The planner, the saved plan, the fingerprint, the guards, the renderers, export, the secrets
 * code, apply and doctor loop over the table and ask each change's kind; none of them names a
 * kind. Pure, ground floor only: a descriptor holds the
 * room's pure functions, and the stages hand in what touches the world (./apply.ts, ./export.ts).
 * How a new kind is added: docs/architecture.md, "Adding a resource kind".
 */
import type { Applied, ApplyStage } from './apply.js';
import type { ChangeBase, ChangeId, KindNoun, NewIds, PanelRequest } from './common.js';
import type { KindDoctor } from './doctor.js';
import type { KindExport } from './export.js';
import type { Fact } from './facts.js';
import type { AnyKindRead } from './read.js';
import type { AnyKindSection } from './section.js';
import type { KindSecret } from './secret.js';
import type { ManifestAskView, RunAsk } from './ask.js';
import type { KindTakenWith, KindTakes, TakenWords } from './takes.js';

/**
 * One resource kind, as its room describes it to the stages. `N` is its name (a change's `type`,
 * the first part of its id), `C` its changes, `I` the live panel as its facts look it up, `J` a
 * change of its kind as the plan document holds it, `R` its list read (KindRead; undefined for a
 * kind without one).
 */
export interface Kind<
  N extends string,
  C extends AnyChange & { readonly type: N },
  I,
  J,
  R extends AnyKindRead | undefined = undefined,
  S extends AnyKindSection | undefined = undefined,
> {
  // --- Identity ---
  readonly name: N;
  /** How people's text names it: `1 client`, `2 clients`. */
  readonly noun: KindNoun;

  // --- The planner (src/plan): what a change becomes, what it weighs, when it runs ---
  /** The HTTP call a change becomes: the one converter of the kind. */
  request(change: C, newIds?: NewIds): PanelRequest;
  /** The panel facts a change depends on, for a saved plan's fingerprint. */
  facts(change: C): readonly Fact<I>[];
  /**
   * How much a change creates and destroys, for the mass-change rails: a create counts 1, a
   * delete 1 plus what goes with it (`unknown` when that cannot be counted), an update what it
   * removes (a zone's records).
   */
  weight(change: C): Weight;
  /**
   * Whether a change waits for the creates, in the same run, of the domains below its name, and
   * only waits for them (one that failed or was skipped does not hold it back): a zone's, whose
   * records a subdomain's POST adds to (its PUT, built from a read after them, must keep them).
   * Read by the order of changes (plan/order.ts) and apply's waits.
   */
  readonly waitsForCreatesBelow: boolean;
  /**
   * Its part of what the panel must be read again for, to check a saved plan's change against it
   * (plan/reads.ts readsForSavedPlan merges the parts: lists joined, sets united): keys of the
   * run's ask (src/kinds/index.ts ReadAsk), of whichever kinds' reads it needs.
   */
  readsAgain(change: C): RunAsk;
  // The order of changes (plan/order.ts): its place among the kinds.
  /**
   * Where a kind's changes go in the order of changes (plan/order.ts): after the creates and
   * updates of the kinds it names in `after`, its deletes before theirs; and where the manifest
   * walk, in manifest order, takes its creates and updates (`at`).
   */
  readonly order: KindOrder;

  // --- The plan document (plan/saved-changes.ts): a change written and read back ---
  /** A change's own fields in the plan document (the common ones are written around them). */
  toJson(change: C): Record<string, unknown>;
  /** A change read back from the plan document; `base` holds the common fields. */
  fromJson(item: J, base: ChangeJsonBase): C;
  /** What a change read back must say of itself beyond the schema, at `path`. */
  problems(change: C, item: J, path: string, earlier: EarlierChange): readonly string[];

  // --- Phrases for the renderers (src/render): how text, Markdown and JSON say a change ---
  /** `client "alice"`, `domain "a.example" of client "alice"`: a change's subject in a sentence. */
  subject(change: C): string;
  /** A change's subject on its own diff line (its client left out: the line above says it). */
  lineSubject(change: C): string;
  /** The client a change belongs to; undefined for a kind that belongs to none. */
  clientOf(change: C): string | undefined;
  /** ` (bücher.example)` beside a name that has a Unicode form; else ''. */
  unicodeOf(change: C): string;
  /** What the text plan's comment line says beside a change's subject (`what`) and after its reason (`after`). */
  details(change: C): { readonly what: string; readonly after: string };
  /** What a change does beyond what its lines say, one sentence each (the Markdown's `# ...` notes). */
  notes(change: C): readonly string[];
  /** `php_version: "8.3"`: what a create sets in the manifest's terms, one part each; none when its request says it all. */
  createdParts(change: ActionOf<C, 'create'>): readonly string[];
  /** `php_version: "8.2" -> "8.3"`: each thing an update changes, in people's words, one part each. */
  updatedParts(change: ActionOf<C, 'update'>): readonly string[];
  /** Whether several parts of a change read better as a list under it than on one line (Markdown). */
  readonly listsParts: boolean;
  /**
   * When a change's parts are changes of their own (a zone's records: `+` added, `-` removed,
   * `~` a TTL changed): each part's own sign, and how the Markdown counts the parts it leaves
   * out (`… and 3 more record changes`). Absent when the parts take the change's sign.
   */
  readonly markedParts?: { marks(change: C): readonly PartMark[]; readonly item: string };
  /** The request as one line, when the kind says it shorter than its whole body; else undefined. */
  requestLine?(change: C): string;
  /**
   * ` with its 3 domains, mail, databases and files` after a delete that takes more; else ''.
   * `taken`: what the change's counts (Kind.takes) say it takes of other kinds (`3 mailboxes`), when it carries any.
   */
  goesWith(change: C, taken?: TakenWords): string;
  /** What a delete of the kind takes with it, as the Markdown's note on deletes says it; absent for a kind never deleted. */
  readonly deleteTakes?: string;
  /** What a kind's updates remove of what they hold (a zone's records), reviewed like deletes; absent when nothing. */
  readonly removals?: Removals<C>;
  /** What apply did, after `✓ updated <subject> (id 12)`: `2 records added`; absent when the line says it all. */
  outcome?(change: C): string;
  /**
   * Whether the Markdown's summary table counts the kind's creates: `always` (a reviewer looks for
   * them), `some` (only when there are some), `never` (the kind is never created on its own).
   */
  readonly createsRow: 'always' | 'some' | 'never';
  /** The change whose lines a change's are shown right under in Markdown (a zone's under its domain's); else undefined. */
  shownUnder?(change: C): ChangeId | undefined;
  /**
   * A plan's conflict in one sentence when it is this kind's (told apart by its fields), else
   * undefined. The conflict's other party may be another customer: `nameOthers: false` (a
   * pull-request comment) does not name them.
   */
  conflictLine?(conflict: object, nameOthers: boolean): string | undefined;
  /** A plan's unknown (a managed field the panel shows nowhere) in one sentence when it is this kind's, else undefined. */
  unknownLine?(unknown: object): string | undefined;
  /**
   * Where the plan's `unmanaged` holds the names of the kind's resources the manifest does not
   * list (`key`), and what its absence there says: `uncounted` (the panel cannot list them) or
   * `omitted` (not counted). Absent for a kind never unmanaged on its own (a zone goes with its domain).
   */
  readonly unmanaged?: { readonly key: string; readonly absent: 'uncounted' | 'omitted' };

  // --- Snapshots (api/snapshot-plan.ts): a plan made against a snapshot's email digests ---
  /**
   * How a change planned against a digest snapshot (its emails held as digests, the manifest's
   * hashed alike) gets the manifest's addresses back, and whether it updates an email from a
   * digest; absent for a kind without an email.
   */
  readonly emailDigests?: EmailDigests<C>;

  // --- Export (src/export: `provision export`, `export --into`) ---
  /**
   * Its part in export beyond the client entries the stage writes itself (./export.ts): the key
   * it writes in a domain item, or its own section of the manifest; its `--with` word; how its
   * values are written. Undefined: none.
   */
  readonly export?: KindExport;

  // --- Secrets: the one write-ahead create and reset (src/apply) and the journal (src/secrets) ---
  /**
   * What the secrets code asks of a kind whose things each have a password (its create makes
   * one that goes to the secrets journal first); undefined for a kind without one.
   */
  readonly secret: KindSecret | undefined;

  // --- Apply (apply/panel-adapter.ts): how a change of the kind is carried out ---
  readonly apply: KindApply<C>;

  // --- Doctor (src/api/doctor.ts): the reads that prove the panel serves the kind ---
  /**
   * What `provision doctor` reads of the kind and how it judges what it read (KindDoctor;
   * docs/doctor.md): its list, its own line. The stage sends the GETs, within its deadline.
   */
  readonly doctor: KindDoctor;

  // --- List read (panel/read.ts readLive; api/snapshot-take.ts, snapshot-read.ts) ---
  /**
   * How one read of the panel takes in the kind's records, its part of Live (src/kinds/index.ts),
   * through what the stage hands in (./read.ts PanelListReader): whether the run's ask needs it at
   * all, the kinds read before it, its list and record parser, its checks, and its part of a
   * snapshot. Absent for a kind read with another (a domain's settings come in its record).
   */
  readonly read?: R;

  // --- Manifest sections (manifest/build.ts, parts.ts, prune.ts; plan/diff.ts walk; plan/reads.ts) ---
  /**
   * Its list under a parent item of the manifest (`mailboxes` under a domain item, `databases`
   * under a client item): how one parent's list is read and checked, its prune key, its diff
   * under each parent the planner walks, what the run's ask reads for it (./section.ts
   * KindSection). Absent for a kind that is no such list (clients, domains, zones, plans).
   */
  readonly section?: S;

  // --- The run's ask (plan/reads.ts readsForManifest): what one read of the panel is asked for it ---
  /**
   * Its part of what one read of the panel is asked to plan a manifest (its own list read's ask,
   * or another's: a domain's names): `manifest` gives the clients the scope covers and every
   * client the manifest lists. Absent: nothing beyond its section's ask.
   */
  readsForManifest?(manifest: ManifestAskView): RunAsk;
  // --- A kind under another's entry (issue 32: a kind placed and worded by more than its name) ---
  /**
   * The name of the manifest entry the order of changes walks the kind's creates and updates at
   * (plan/order.ts, Kind.order `at`), when it is not the change's own name: a thing named by an
   * address stands under its domain's entry. Absent: the change's name.
   */
  placedAt?(change: C): string;
  /**
   * A change's diff line in the manifest's terms (after its sign), when the kind words it
   * otherwise than `subject: part, part` (render/parts.ts changeLine): a create whose parts are
   * said in parentheses after its subject. Undefined: the common form.
   */
  partsLine?(change: C): string | undefined;

  // --- Deletes that take data (issues 32, 33: ./takes.ts; plan/takes.ts counts, api/takes.ts reads) ---
  /**
   * When another kind's delete takes the kind's things with it (a client's its mailboxes and
   * databases): which parents, whether that destroys data, its list's ask and how many one delete
   * takes. Absent: its things are never counted with another's delete.
   */
  readonly takenWith?: KindTakenWith<PartOfRead<R>>;
  /**
   * What the kind's deletes take from under them (its owner, its domains) and how a change carries
   * the counts of what goes with it (its plan document's `takes`). Absent: a kind whose deletes
   * take no other kind's things.
   */
  readonly takes?: KindTakes<C>;
}

/** The part of the live panel a list read gives; never for a kind without one. */
type PartOfRead<R> = R extends { readonly empty: infer P } ? P : never;

// --- The core: changes and their weights ---

/** What every change is: a kind's name in `type`, and an action. */
export interface AnyChange extends ChangeBase {
  readonly action: 'create' | 'update' | 'delete';
}

/** A change of `C` that does `A`. */
type ActionOf<C, A extends AnyChange['action']> = Extract<C, { readonly action: A }>;

/** How much a change creates and destroys (Kind.weight). */
export interface Weight {
  readonly creates: number;
  readonly deletes: number;
  readonly unknown?: true;
}

/** A create counts 1 created, a delete 1 destroyed, an update nothing: the weight of a kind whose changes take nothing with them. */
export function kindWeight(change: AnyChange): Weight {
  return change.action === 'create'
    ? { creates: 1, deletes: 0 }
    : change.action === 'delete'
      ? { creates: 0, deletes: 1 }
      : { creates: 0, deletes: 0 };
}

/** A kind's place in the order of changes (Kind.order; plan/order.ts derives the order from them). */
export interface KindOrder {
  /**
   * The kinds, by name, whose creates and updates this kind's come after, and whose deletes this
   * kind's come before (test/plan/order-kinds.test.ts: each names a kind of the table, no
   * cycle). A kind that waits for the creates below its name (`waitsForCreatesBelow`) waits for
   * those of the kinds named here.
   */
  readonly after: readonly string[];
  /**
   * Where the manifest walk takes its creates and updates, in manifest order: `client` (at its
   * client's entry, by the client's name), `domain` (at its domain's, in its client's list, by
   * the domain's name). Undefined for a kind outside the manifest's clients (a hosting plan):
   * its creates and updates go as a block at its place.
   */
  readonly at: 'client' | 'domain' | undefined;
}

// --- The plan document ---

/** The fields every saved change has, as a kind's room reads its own around them. */
export type ChangeJsonBase = Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>;

/** A change listed before this one in a saved plan, by id; undefined when none is. */
export type EarlierChange = (id: ChangeId) => AnyChange | undefined;

// --- Phrases ---

/** A part's own sign in a diff (Kind.markedParts): `+` added, `~` changed, `-` removed. */
export type PartMark = '+' | '~' | '-';

/**
 * What a kind's updates remove of what they hold (a zone's records): counted beside the deletes
 * in the summaries, and listed one by one in Markdown, since a prune is reviewed like a delete.
 */
export interface Removals<C> {
  /** How people's text names what goes: `1 DNS record`, `2 DNS records`. */
  readonly noun: KindNoun;
  /** How the Markdown's bounded list counts what it leaves out: `… and 3 more records`. */
  readonly item: string;
  /** How many things a change removes (each counts as a delete for --max-deletes). */
  count(change: C): number;
  /** What a change removes, one line each, after its subject: `dns "a.example": A @ 192.0.2.10 (ttl 3600)`. */
  lines(change: C): readonly string[];
  /** A line when a change removes more that is known only after apply (a new domain's zone pruned); else undefined. */
  uncounted(change: C): string | undefined;
  /** ` and the defaults of 2 new zones`: beside the count in the Markdown's table, for `n` changes of `uncounted`; '' for none. */
  uncountedBeside(n: number): string;
  /** `3 records leave their zones, and the default records of 1 new domain`: the Markdown's sentence over the lines. */
  sentence(removed: number, uncounted: number): string;
}

// --- Snapshots ---

/** What a kind with an email does with a digest snapshot's (Kind.emailDigests). */
export interface EmailDigests<C> {
  /**
   * The change with the manifest's addresses given back (`address(name, digest)`: the manifest's
   * address of the thing named, else the digest) where it holds a digest: what a create sends and
   * an update's `after`; an update's `before` (the panel's, of which the snapshot holds only the
   * digest) as `shown`.
   */
  restored(change: C, address: (name: string, digest: string) => string, shown: string): C;
  /** Whether the change updates an email from a digest (its `before` is `shown`): a saved plan of it would be stale at apply. */
  fromDigest(change: C, shown: string): boolean;
}

// --- Secrets (./secret.ts) ---

export type { KindSecret, PanelNaming, SecretKindName } from './secret.js';

// --- Apply ---

/**
 * How apply carries out a kind's changes, through what the stage hands in (./apply.ts): the
 * room's own writes and reads, the stage's slot, signal and panel client behind them.
 */
export interface KindApply<C extends AnyChange> {
  /**
   * Carries out a create the kind writes itself (no secret; an answer lost is settled by its
   * name); undefined for a kind whose creates apply/create.ts carries out (the write-ahead
   * secrets, adoption, settling).
   */
  create?(change: ActionOf<C, 'create'>, stage: ApplyStage): Promise<Applied>;
  /**
   * Carries out an update: a plain PUT of its request (retried by the client where a repeat is
   * safe), or a whole-object write built from a read taken just before it, never resent as it was
   * (stage.writeWhole).
   */
  update(change: ActionOf<C, 'update'>, stage: ApplyStage): Promise<Applied>;
  /** How a delete is carried out; undefined for a kind that has none. */
  readonly delete?: KindDelete<ActionOf<C, 'delete'>>;
}

/** What apply needs of a kind's delete (the DELETE itself is its request, sent by the adapter). */
export interface KindDelete<D> {
  /** The panel's id of what it deletes: the change's outcome. */
  id(change: D): number;
  /** What must hold before the DELETE is sent (read through `stage`); throws, nothing sent, when it does not. */
  before?(change: D, stage: ApplyStage): Promise<void>;
  /** After an answer lost: whether it is still there, read again (not through the slot: the adapter runs it). */
  stillThere(change: D, stage: ApplyStage): Promise<boolean>;
}

// --- The table's types (./index.ts) ---

/** The changes of a kind's descriptor. */
export type ChangeOf<K> =
  K extends Kind<string, infer C, unknown, unknown, AnyKindRead | undefined, AnyKindSection | undefined> ? C : never;

/** The live panel as a kind's facts look it up. */
export type FactIndexOf<K> =
  K extends Kind<
    string,
    AnyChange & { type: string },
    infer I,
    unknown,
    AnyKindRead | undefined,
    AnyKindSection | undefined
  >
    ? I
    : never;
