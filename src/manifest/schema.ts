import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { closest } from '../names.js';
import { type DataPath, findPath, type Found, type Locator } from './locate.js';
import type { Diagnostic, Location } from './types.js';
import { quote } from '../escape.js';
import { assertNever, isRecord } from '../util.js';
import { CLIENT_FIELDS } from '../kinds/client/index.js';
import {
  DNS_KEY,
  DOMAIN_ITEM_SAYS,
  DOMAIN_KEYS,
  settingRefused,
  settingsDomainLabel,
  settingsPlace,
  zonePlace,
  zoneRefused,
} from '../kinds/domain.js';
import {
  HOSTING_PLANS_KEY,
  KEEP_PLAN_EXAMPLE,
  KEEP_PLAN_KEY,
  planLabel,
  planRefused,
} from '../kinds/hosting-plan/manifest.js';
import { schema as generatedSchema, validate as generatedValidate } from './validator.generated.js';

// Compiled at build time (scripts/generate-validator.ts, ajv standalone): loading ajv and
// compiling the schema at run time cost ~100 ms of every validate, plan and apply start.
const validate = generatedValidate as unknown as ValidateFunction;
const schema: unknown = generatedSchema;

/** Whether the manifest's data is valid against the schema (checkSchema finds nothing). */
export function schemaValid(data: unknown): boolean {
  return validate(data);
}

/**
 * Validates the manifest's data against schemas/manifest.schema.json and returns one located
 * diagnostic per problem, in words a manifest author can act on.
 */
export function checkSchema<N>(data: unknown, source: Locator<N>): Diagnostic[] {
  if (validate(data)) return [];
  return diagnose(validate.errors ?? [], data, source);
}

/**
 * checkSchema for one client item of a chunked read: `top` is the (valid) top level, `index`
 * the item's place in the whole list, `node` where it stands. The diagnostics are the ones the
 * whole document's check gives for this item: same words, same locations.
 */
export function checkClientSchema<N>(
  top: Readonly<Record<string, unknown>>,
  client: unknown,
  index: number,
  source: Locator<N>,
  node: Found<N>,
): Diagnostic[] {
  if (validate({ ...top, clients: [client] })) return [];
  // As if the item stood at its place in the whole list: paths, data and positions.
  const errors = (validate.errors ?? []).map((error) => ({
    ...error,
    instancePath: error.instancePath.replace(/^\/clients\/0(?=\/|$)/, `/clients/${index}`),
  }));
  const data = { ...top, clients: { [index]: client } };
  const located: Locator<N> = {
    file: source.file,
    offset: (offset) => source.offset(offset),
    at: (found) => source.at(found),
    keyAt: (found, key) => source.keyAt(found, key),
    isSeq: (found) => source.isSeq(found),
    // The path from the top goes clients -> index -> the item: the item's node is all there is.
    root: () => node,
    step: (from, key) => (from === node && (key === 'clients' || key === index) ? node : source.step(from, key)),
  };
  return diagnose(errors, data, located);
}

function diagnose<N>(errors: readonly ErrorObject[], data: unknown, source: Locator<N>): Diagnostic[] {
  // A typo like `usernme:` is reported once, as an unknown key with its suggestion, not also
  // as the missing key it was meant to be.
  const suggested = new Set<string>();
  const messages: { error: ErrorObject; path: DataPath; text: string; key?: string }[] = [];
  for (const error of errors) {
    const path = parsePointer(error.instancePath);
    if (error.keyword === 'additionalProperties') {
      const key = String(error.params.additionalProperty);
      const allowed = allowedKeys(schema, error.schemaPath);
      const suggestion = closest(key, allowed);
      if (suggestion !== undefined) suggested.add(`${error.instancePath}/${suggestion}`);
      const fix = suggestion === undefined ? `allowed keys are ${quoteList(allowed)}` : `did you mean "${suggestion}"?`;
      messages.push({
        error,
        path,
        key,
        text: `unknown key "${key}" ${inWhat(path, data)}: ${fix}`,
      });
    } else {
      const text = describe(error, path, data);
      if (text !== undefined) messages.push({ error, path, text });
    }
  }

  const diagnostics: Diagnostic[] = [];
  for (const { error, path, text, key } of messages) {
    if (
      error.keyword === 'required' &&
      suggested.has(`${error.instancePath}/${String(error.params.missingProperty)}`)
    ) {
      continue;
    }
    diagnostics.push({ ...locate(source, path, key), severity: 'error', message: text });
  }
  return diagnostics;
}

/** The node at `path`, or the key node of `key` under it (for an unknown key). */
function locate<N>(source: Locator<N>, path: DataPath, key: string | undefined): Location {
  const found = findPath(source, path);
  if (found === undefined) return source.offset(0);
  return (key === undefined ? undefined : source.keyAt(found, key)) ?? source.at(found);
}

/** A manifest file with neither `clients` nor `hosting_plans` (load.ts; a directory's part may be). */
export const NO_CLIENTS = 'the manifest has no "clients": add a "clients" list ("clients: []" for none)';

/** The message for one ajv error; undefined for errors a semantic check words better. */
function describe(error: ErrorObject, path: DataPath, data: unknown): string | undefined {
  const [top, index, field, domainIndex] = path;
  const value = valueAt(data, path);

  if (path.length === 0) {
    if (error.keyword === 'required') {
      return error.params.missingProperty === 'version'
        ? 'the manifest has no "version": add "version: 1" at the top'
        : NO_CLIENTS;
    }
    return 'the manifest must be a mapping with "version: 1" and a "clients" list';
  }
  if (top === 'version') return '"version" must be 1';
  if (top === 'prune') return describePrune(error, path, value);
  if (top === HOSTING_PLANS_KEY) return describePlan(error, path, data, value);
  if (top !== 'clients') return fallback(error, path);
  if (index === undefined) return `"clients" must be a list of clients${noneHint(value, 'clients')}`;

  const client = clientLabelAt(data, index);
  if (field === undefined) {
    if (error.keyword === 'required') return `${client} has no "${String(error.params.missingProperty)}": add one`;
    const optional = ['state', ...CLIENT_FIELDS.map((row) => row.key), 'domains'].map((key) => `"${key}"`);
    return `${client} must be a mapping with a "username" (and optionally ${optional.join(', ')})`;
  }
  switch (field) {
    case 'username':
      // The semantic check explains the username rule, with the value; ajv's pattern would repeat it.
      if (error.keyword === 'pattern') return undefined;
      return `"username" in ${client} must be a string, like alice`;
    case 'state':
      return `"state" in ${client} ${mustBeState(value)}`;
    case 'domains':
      if (domainIndex === undefined) {
        const hint = typeof value === 'string' ? `: write [${value}]` : noneHint(value, 'domains');
        return `"domains" in ${client} must be a list of domain names${hint}`;
      }
      return describeDomain(error, path.slice(4), `domain #${Number(domainIndex) + 1} in ${client}`, value, () =>
        settingsDomainLabel(valueAt(data, path.slice(0, 4)), Number(domainIndex), client),
      );
    default: {
      const row = CLIENT_FIELDS.find((r) => r.key === field);
      if (row === undefined) return fallback(error, path);
      if (row.type === 'boolean') return `"${row.key}" in ${client} ${mustBeBoolean(value)}`;
      return value === ''
        ? `"${row.key}" in ${client} is empty: give ${row.says}, or leave the key out`
        : `"${row.key}" in ${client} must be a string: ${row.says}`;
    }
  }
}

/**
 * A domain item is a string or a mapping (`anyOf`): for a mapping, the errors of the mapping's
 * own rules say what is wrong, and the string branch's "must be a string" is left out. The keys
 * and the words are the domain's room's (DOMAIN_KEYS, DOMAIN_ITEM_SAYS; a setting's, from
 * `rest`, the path in the item, by settingRefused, naming the item by `settingsLabel`; its `dns`
 * block's by zoneRefused).
 */
function describeDomain(
  error: ErrorObject,
  rest: DataPath,
  domain: string,
  value: unknown,
  settingsLabel: () => string,
): string | undefined {
  const [field] = rest;
  if (field !== undefined) {
    const row = DOMAIN_KEYS.find((r) => r.key === field);
    if (row === undefined) return undefined;
    switch (row.type) {
      case 'state':
        return `"${row.key}" of ${domain} ${mustBeState(value)}`;
      case 'setting':
        return settingRefused(rest, error.keyword, value, settingsLabel());
      case 'zone': {
        const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
        return zoneRefused(rest, error.keyword, value, settingsLabel(), missing);
      }
      case 'string':
        return `"${row.key}" of ${domain} must be a string: ${row.says}`;
      default:
        return assertNever(row.type);
    }
  }
  if (!isRecord(value)) return DOMAIN_ITEM_SAYS.notAnItem(domain);
  if (error.keyword === 'required') return DOMAIN_ITEM_SAYS.noName(domain);
  return undefined;
}

/**
 * A plan item's refusals: its state as every kind's, the rest in the plan's room's words
 * (planRefused; a value inside an object is worded by the room's own checks).
 */
function describePlan(error: ErrorObject, path: DataPath, data: unknown, value: unknown): string | undefined {
  const [, index, field] = path;
  if (index === undefined)
    return `"${HOSTING_PLANS_KEY}" must be a list of hosting plans${noneHint(value, HOSTING_PLANS_KEY)}`;
  const label = planLabel(valueAt(data, [HOSTING_PLANS_KEY, index]), index);
  if (field === 'state' && path.length === 3) return `"state" of ${label} ${mustBeState(value)}`;
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  return planRefused(path.slice(2), error.keyword, value, label, missing);
}

function describePrune(error: ErrorObject, path: DataPath, value: unknown): string | undefined {
  const [, field, patternIndex, entryKey] = path;
  if (field === undefined) {
    const none = value === null ? ' (remove "prune:" to delete nothing for being unlisted)' : '';
    return `"prune" must be a mapping with "domains", "clients", "${HOSTING_PLANS_KEY}" or "keep", like prune: {domains: true}${none}`;
  }
  if (field === 'keep') {
    if (patternIndex !== undefined) {
      const entry = `pattern #${Number(patternIndex) + 1} in "prune.keep"`;
      if (entryKey !== undefined)
        return `"${KEEP_PLAN_KEY}" in ${entry} must be a string: a plan's name, with * or ? as wildcards, like ${KEEP_PLAN_EXAMPLE}`;
      if (isRecord(value)) {
        // The mapping branch's own errors say it; the string branch's and the anyOf's do not.
        if (error.keyword === 'required')
          return `${entry} has no "${KEEP_PLAN_KEY}": a mapping in "keep" names hosting plans, like ${KEEP_PLAN_EXAMPLE}`;
        return undefined;
      }
      return `${entry} must be a string, like "legacy-*", or a hosting plan's pattern, like ${KEEP_PLAN_EXAMPLE}`;
    }
    const hint =
      typeof value === 'string'
        ? `: write [${JSON.stringify(value)}]`
        : `, like ["legacy-*"]${noneHint(value, 'keep')}`;
    return `"prune.keep" must be a list of name patterns${hint}`;
  }
  return `"prune.${String(field)}" ${mustBeBoolean(value)}`;
}

/** "must be true or false", naming what was written instead when it is a scalar. */
function mustBeBoolean(value: unknown): string {
  return `must be true or false${written(value)}`;
}

/** "must be present or absent", with the closest of the two when the value is a near miss. */
function mustBeState(value: unknown): string {
  const word = typeof value === 'string' ? value : undefined;
  const suggestion = word === undefined ? undefined : (STATE_WORDS.get(word.toLowerCase()) ?? closest(word, STATES));
  return (
    `must be present or absent${written(value)}` + (suggestion === undefined ? '' : `: did you mean "${suggestion}"?`)
  );
}

const STATES = ['present', 'absent'] as const;
/** Words people write for a state, and the state they mean. */
const STATE_WORDS: ReadonlyMap<string, string> = new Map([
  ...['gone', 'deleted', 'delete', 'removed', 'remove', 'terminated', 'none'].map((w) => [w, 'absent'] as const),
  ...['exists', 'exist', 'active', 'enabled', 'created'].map((w) => [w, 'present'] as const),
]);

/** `, not "yes"` for a scalar that was written; nothing for a collection or null. */
function written(value: unknown): string {
  if (typeof value === 'string') return `, not ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `, not ${String(value)}`;
  return '';
}

// Only reached if the schema grows a rule this file does not word yet: still located, still one line.
function fallback(error: ErrorObject, path: DataPath): string {
  const where = path.length === 0 ? 'the manifest' : `"${path.join('.')}"`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

function noneHint(value: unknown, key: string): string {
  return value === null ? ` (write "${key}: []" for none)` : '';
}

/** "at the top level" or "in client "alice"", for unknown-key messages. */
function inWhat(path: DataPath, data: unknown): string {
  const [top, index] = path;
  if (path.length === 0) return 'at the top level';
  if (top === 'clients' && index !== undefined && path.length === 2) return `in ${clientLabelAt(data, index)}`;
  if (top === HOSTING_PLANS_KEY && index !== undefined && path.length === 2)
    return `in ${planLabel(valueAt(data, path), index)}`;
  if (top === 'prune' && index === 'keep' && path.length === 3)
    return `in pattern #${Number(path[2]) + 1} of "prune.keep"`;
  const [, , field, domainIndex] = path;
  if (
    top === 'clients' &&
    index !== undefined &&
    field === 'domains' &&
    domainIndex !== undefined &&
    path.length === 4
  ) {
    return `in domain #${Number(domainIndex) + 1} of ${clientLabelAt(data, index)}`;
  }
  if (top === 'clients' && index !== undefined && field === 'domains' && domainIndex !== undefined) {
    // A mapping inside a domain item: its settings (`https`, `https.hsts`, `redirect`) or its zone.
    const label = settingsDomainLabel(valueAt(data, path.slice(0, 4)), Number(domainIndex), clientLabelAt(data, index));
    return path[4] === DNS_KEY ? zonePlace(path.slice(4), label) : settingsPlace(path.slice(4), label);
  }
  return `in "${path.join('.')}"`;
}

/** How messages name the client at `index` (from 0) of the manifest's data: see clientLabel. */
function clientLabelAt(data: unknown, index: string | number): string {
  return clientLabel(valueAt(data, ['clients', index]), index);
}

/**
 * How messages name a client: `client "alice"` by its username when it has one, else `client #3`
 * (its position from 1).
 */
export function clientLabel(client: unknown, index: string | number): string {
  const username = valueAt(client, ['username']);
  return typeof username === 'string' && username !== '' ? `client "${username}"` : `client #${Number(index) + 1}`;
}

function valueAt(data: unknown, path: DataPath): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** JSON Pointer ("/clients/0/domains") to path segments; array indexes become numbers. */
function parsePointer(pointer: string): DataPath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => {
      const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
      return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
    });
}

/** The property names the schema allows beside an `additionalProperties: false`. */
function allowedKeys(schema: unknown, schemaPath: string): string[] {
  // "#/$defs/client/additionalProperties" -> the object at "#/$defs/client".
  const segments = schemaPath.split('/').slice(1, -1);
  let node = schema;
  for (const segment of segments) {
    if (typeof node !== 'object' || node === null) return [];
    node = (node as Record<string, unknown>)[segment];
  }
  const properties =
    typeof node === 'object' && node !== null ? (node as { properties?: unknown }).properties : undefined;
  // `$schema` is for editors: accepted, never suggested.
  return typeof properties === 'object' && properties !== null
    ? Object.keys(properties).filter((key) => !key.startsWith('$'))
    : [];
}

function quoteList(keys: readonly string[]): string {
  const quoted = keys.map((key) => `"${key}"`);
  const last = quoted.pop();
  return quoted.length === 0 ? (last ?? 'none') : `${quoted.join(', ')} and ${last ?? ''}`;
}
