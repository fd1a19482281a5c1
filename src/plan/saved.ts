import { ProvisionError } from '../errors.js';
import { canonical, isRecord, plural, sha256Hex } from '../util.js';
import { expectedFingerprint } from './fingerprint.js';
import { batched, canonicalPieces, indentedPieces, ItemList, sha256OfPieces } from './json-pieces.js';
import { type ChangeJson, changeToJson, readChanges } from './saved-changes.js';
import type { ChangeAction, Conflict, Plan, Unknown } from './types.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { PartDigest } from '../manifest/parts.js';
import { validate as generatedValidate } from './validator.generated.js';

// Compiled at build time from schemas/plan.schema.json (scripts/generate-validator.ts).
const validate = generatedValidate as unknown as ValidateFunction;

/**
 * The plan document (schemas/plan.schema.json): what `plan --format json` prints and `plan
 * --out` saves, one document written by one function, and read back here for `apply FILE`.
 * With saved-changes.ts (its changes, both ways), the only place that knows its fields.
 *
 * Format "major.minor": a reader accepts any minor of its own major (newer minors only add
 * fields) and refuses a newer major. 1.1 added `manifest_sha256` and `fingerprint`; 1.2 made
 * `plan_sha256` cover the whole document; 2.0 added updates and deletes, and `unknowns` in
 * place of `drift`; 2.1 a domain's settings (a create's `settings`, a domain's update and unknowns);
 * 2.2 a domain's DNS zone (zone updates, `dns` conflicts) and hosting plans; 2.3 a manifest
 * directory's parts (`manifest_parts`) and a scoped plan's `scope`; 2.4 a client create's
 * `send_login_credentials` and a subdomain create's `parent_domain` (older files lack them, and
 * their requests are applied as they were reviewed). Older majors are refused: make them again.
 */
export const PLAN_FORMAT_VERSION = '2.5';
const SUPPORTED_MAJOR = 2;
const OLDEST_MINOR = 0;

/** What the document is made from (render's PlanView is one). */
export interface PlanSource {
  readonly plan: Plan;
  /** The panel's API base URL the plan was made against; apply refuses another. */
  readonly panelUrl: string;
  /**
   * The manifest's path as the user gave it: for people, and for apply only to tell a stale plan
   * already applied (cli/already-applied.ts: read when its sha256 still matches, never trusted).
   */
  readonly manifest: string;
  /** sha256 (hex) of the manifest file's bytes; of a directory, of its parts' digests (manifest/parts.ts). */
  readonly manifestSha256: string;
  /** A manifest directory's parts, each with its digest, in the order they were read. */
  readonly manifestParts?: readonly PartDigest[] | undefined;
  /** `sha256:<hex>` over exactly the panel facts the plan depends on (plan/fingerprint.ts). */
  readonly fingerprint: string;
  /** Sentences about how the panel was read, for people. */
  readonly notes: readonly string[];
  /** Warnings found beside the plan, for people. */
  readonly warnings?: readonly string[] | undefined;
  /** Unmanaged names in the document, not only counts (they may be other customers'). */
  readonly showUnmanaged: boolean;
}

/**
 * A plan file read back: everything it was rendered from (so `show` prints it again), and its
 * format. Without --show-unmanaged the file holds only counts of unmanaged accounts: the plan
 * then carries that many unnamed ('') entries and `showUnmanaged` is false, so every renderer
 * shows the counts, which is all it shows then anyway.
 */
export interface SavedPlan extends PlanSource {
  readonly formatVersion: string;
}

/**
 * The plan document's fields, in the document's order, with `plan_sha256` empty and the changes
 * an ItemList: each change's JSON is made only as it is written (json-pieces.ts).
 */
function documentFields(source: PlanSource): Record<string, unknown> {
  const { plan } = source;
  const counts: Record<ChangeAction, number> = { create: 0, update: 0, delete: 0 };
  for (const change of plan.changes) counts[change.action]++;
  return {
    format_version: PLAN_FORMAT_VERSION,
    panel_url: source.panelUrl,
    manifest: source.manifest,
    manifest_sha256: source.manifestSha256,
    ...(source.manifestParts === undefined ? {} : { manifest_parts: source.manifestParts }),
    ...(plan.scope === undefined ? {} : { scope: { clients: plan.scope.clients } }),
    fingerprint: source.fingerprint,
    plan_sha256: '',
    changes: new ItemList(plan.changes, changeToJson),
    conflicts: plan.conflicts,
    unknowns: plan.unknowns,
    unmanaged: {
      clients: plan.unmanaged.clients.length,
      domains: plan.unmanaged.domains?.length ?? null,
      ...(plan.unmanaged.hostingPlans === undefined ? {} : { hosting_plans: plan.unmanaged.hostingPlans.length }),
      ...(source.showUnmanaged
        ? {
            client_names: plan.unmanaged.clients,
            domain_names: plan.unmanaged.domains ?? null,
            ...(plan.unmanaged.hostingPlans === undefined ? {} : { hosting_plan_names: plan.unmanaged.hostingPlans }),
          }
        : {}),
    },
    notes: source.notes,
    ...(source.warnings === undefined || source.warnings.length === 0 ? {} : { warnings: source.warnings }),
    summary: { ...counts, conflicts: plan.conflicts.length, unknowns: plan.unknowns.length },
  };
}

/** The plan document as one tree, its digest (`plan_sha256`) over every other field (planDocumentPieces writes it). */
export function planDocument(source: PlanSource): Record<string, unknown> {
  const fields = documentFields(source);
  const document: Record<string, unknown> = { ...fields, changes: source.plan.changes.map(changeToJson) };
  document.plan_sha256 = planDigest(document);
  return document;
}

/**
 * The plan document as text: indented JSON, one trailing newline, no unsafe character raw
 * (escape.ts jsonText); the text parses to the same value.
 */
export function planDocumentText(source: PlanSource): string {
  return [...planDocumentPieces(source)].join('');
}

/**
 * planDocumentText in pieces of about 16 K characters (json-pieces.ts RUN_LENGTH), made as they
 * are taken: the digest first (a pass over the changes, each hashed as it is made), then the
 * text (a second pass). Memory stays that of one piece and one change, whatever the plan's size;
 * the bytes are planDocumentText's.
 */
export function* planDocumentPieces(source: PlanSource): Generator<string> {
  const fields = documentFields(source);
  const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'plan_sha256'));
  fields.plan_sha256 = sha256OfPieces(canonicalPieces(rest));
  yield* batched(indentedPieces(fields));
  yield '\n';
}

/**
 * `sha256:<hex>` over the document without its `plan_sha256`, keys sorted: a file edited after it
 * was made (a change, its dependencies, the conflicts, the notes, the manifest's name: anything)
 * is refused, while one reformatted by another tool is not. It catches edits, not forgery:
 * anyone can recompute a sha256; the review that counts is of the manifest and the plan.
 */
export function planDigest(document: Readonly<Record<string, unknown>>): string {
  const rest = Object.fromEntries(Object.entries(document).filter(([key]) => key !== 'plan_sha256'));
  return `sha256:${sha256Hex(canonical(rest))}`;
}

interface DocumentJson {
  readonly format_version: string;
  readonly panel_url: string;
  readonly manifest: string;
  readonly manifest_sha256: string;
  readonly manifest_parts?: readonly PartDigest[];
  readonly scope?: { readonly clients: readonly string[] };
  readonly fingerprint: string;
  readonly plan_sha256: string;
  readonly changes: readonly ChangeJson[];
  readonly conflicts: readonly Conflict[];
  readonly unknowns: readonly Unknown[];
  readonly unmanaged: {
    readonly clients: number;
    readonly domains: number | null;
    readonly client_names?: string[];
    readonly domain_names?: string[] | null;
    readonly hosting_plans?: number;
    readonly hosting_plan_names?: string[];
  };
  readonly notes: readonly string[];
  readonly warnings?: readonly string[];
}

/**
 * Reads a plan file (text, as written by `plan --out`) back into the Plan the executor needs.
 * Checks everything: the format version (a newer major is refused), every field against the
 * schema, that each change's id, dependencies (earlier in the file) and request agree, that
 * the digest covers the document as it is (an edited file is refused) and that the fingerprint
 * matches the changes. Throws ProvisionError 'plan_file' listing every problem with its JSON
 * path; never anything else, whatever the text.
 */
export function parsePlanFile(text: string, source: string): SavedPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProvisionError(
      'plan_file',
      `${source} is not valid JSON (${(error as Error).message}): a truncated or damaged plan file`,
      {
        hint: 'make the plan again with provision plan <manifest> --out FILE',
      },
    );
  }
  if (isRecord(data)) checkVersion(data.format_version, source);
  if (!validate(data))
    throw planFileError(
      source,
      (validate.errors ?? []).flatMap((error) => describeError(error as SchemaError)),
    );
  const document = data as DocumentJson;
  const problems: string[] = [];
  const changes = readChanges(document.changes, problems);
  if (problems.length > 0) throw planFileError(source, problems);
  if (planDigest(data as Record<string, unknown>) !== document.plan_sha256)
    throw edited(source, 'digest (plan_sha256)');
  const { unmanaged } = document;
  const named = unmanaged.client_names !== undefined;
  const unnamed = (count: number): string[] => Array.from({ length: count }, () => '');
  const plan: Plan = {
    changes,
    conflicts: document.conflicts,
    unknowns: document.unknowns,
    unmanaged: {
      clients: unmanaged.client_names ?? unnamed(unmanaged.clients),
      domains: unmanaged.domains === null ? undefined : (unmanaged.domain_names ?? unnamed(unmanaged.domains)),
      ...(unmanaged.hosting_plans === undefined
        ? {}
        : { hostingPlans: unmanaged.hosting_plan_names ?? unnamed(unmanaged.hosting_plans) }),
    },
    ...(document.scope === undefined ? {} : { scope: { clients: document.scope.clients } }),
  };
  if (expectedFingerprint(plan) !== document.fingerprint) throw edited(source, 'fingerprint');
  return {
    formatVersion: document.format_version,
    panelUrl: document.panel_url,
    manifest: document.manifest,
    manifestSha256: document.manifest_sha256,
    ...(document.manifest_parts === undefined ? {} : { manifestParts: document.manifest_parts }),
    fingerprint: document.fingerprint,
    plan,
    notes: document.notes,
    ...(document.warnings === undefined ? {} : { warnings: document.warnings }),
    showUnmanaged: named,
  };
}

/** Refuses a newer major or an older minor at once, with its own sentence (the fields may differ). */
function checkVersion(version: unknown, source: string): void {
  if (typeof version !== 'string' || !/^\d+\.\d+$/.test(version)) return; // the schema words it
  const [major, minor] = version.split('.').map(Number) as [number, number];
  if (major > SUPPORTED_MAJOR) {
    throw new ProvisionError(
      'plan_file',
      `${source} has plan format ${version}, newer than this version of provision reads (${SUPPORTED_MAJOR}.x)`,
      {
        hint: 'apply it with the version of provision that made it, or make the plan again with this one',
      },
    );
  }
  if (major < SUPPORTED_MAJOR || minor < OLDEST_MINOR) {
    throw new ProvisionError(
      'plan_file',
      `${source} has plan format ${version}, made by an older version of provision: ` +
        `this one reads ${SUPPORTED_MAJOR}.x only`,
      {
        hint: 'make the plan again with this version: provision plan <manifest> --out FILE',
      },
    );
  }
}

function edited(source: string, what: string): ProvisionError {
  return new ProvisionError(
    'plan_file',
    `${source}: the ${what} does not match the plan: the file was edited after it was made`,
    {
      hint: 'make the plan again: provision plan <manifest> --out FILE',
    },
  );
}

function planFileError(source: string, problems: readonly string[]): ProvisionError {
  const shown = problems.slice(0, 20);
  if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more`);
  return new ProvisionError('plan_file', `${source} is not a valid plan file (${plural(problems.length, 'problem')})`, {
    details: shown,
    hint: 'plan files are written by provision plan --out and are not meant to be edited: make the plan again',
  });
}

/** An ajv error object of the generated (verbose) validator, as far as it is read here. */
interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly data?: unknown;
  readonly parentSchema?: { readonly title?: string };
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  array: 'a list',
  object: 'an object',
  integer: 'a whole number',
  null: 'null',
  boolean: 'true or false',
};

/** `changes[0].client_id: must be a whole number or null`; nothing for the errors another one words better. */
function describeError(error: SchemaError): string[] {
  const path =
    error.instancePath === ''
      ? '$'
      : error.instancePath
          .slice(1)
          .split('/')
          .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
          .join('');
  const at = (field: unknown): string => (path === '$' ? String(field) : `${path}.${String(field)}`);
  switch (error.keyword) {
    case 'required':
      return [`${at(error.params.missingProperty)}: is missing`];
    case 'additionalProperties':
      return [`${at(error.params.additionalProperty)}: is not a field this version knows`];
    case 'type': {
      const types = String(error.params.type).split(',');
      return [`${path}: must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`];
    }
    case 'if':
      return []; // the failing `then` has said what is wrong
    default:
      return [`${path}: ${JSON.stringify(error.data)} is not ${error.parentSchema?.title ?? 'valid here'}`];
  }
}
