import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { closest } from '../names.js';
import { type DataPath, findPath, type Found, type Locator } from './locate.js';
import type { Diagnostic, Location } from './types.js';
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
export function checkClientSchema<N>(top: Readonly<Record<string, unknown>>, client: unknown, index: number, source: Locator<N>, node: Found<N>): Diagnostic[] {
  if (validate({ ...top, clients: [client] })) return [];
  // As if the item stood at its place in the whole list: paths, data and positions.
  const errors = (validate.errors ?? []).map((error) => ({ ...error, instancePath: error.instancePath.replace(/^\/clients\/0(?=\/|$)/, `/clients/${index}`) }));
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
      const fix =
        suggestion === undefined ? `allowed keys are ${quoteList(allowed)}` : `did you mean "${suggestion}"?`;
      messages.push({ error, path, key, text: `unknown key "${key}" ${inWhat(path, data)}: ${fix}` });
    } else {
      const text = describe(error, path, data);
      if (text !== undefined) messages.push({ error, path, text });
    }
  }

  const diagnostics: Diagnostic[] = [];
  for (const { error, path, text, key } of messages) {
    if (error.keyword === 'required' && suggested.has(`${error.instancePath}/${String(error.params.missingProperty)}`)) {
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

/** The message for one ajv error; undefined for errors a semantic check words better. */
function describe(error: ErrorObject, path: DataPath, data: unknown): string | undefined {
  const [top, index, field, domainIndex] = path;
  const value = valueAt(data, path);

  if (path.length === 0) {
    if (error.keyword === 'required') {
      return error.params.missingProperty === 'version'
        ? 'the manifest has no "version": add "version: 1" at the top'
        : 'the manifest has no "clients": add a "clients" list ("clients: []" for none)';
    }
    return 'the manifest must be a mapping with "version: 1" and a "clients" list';
  }
  if (top === 'version') return '"version" must be 1';
  if (top !== 'clients') return fallback(error, path);
  if (index === undefined) return `"clients" must be a list of clients${noneHint(value, 'clients')}`;

  const client = clientLabelAt(data, index);
  if (field === undefined) {
    if (error.keyword === 'required') return `${client} has no "${String(error.params.missingProperty)}": add one`;
    return `${client} must be a mapping with a "username" (and optionally "plan", "email", "domains")`;
  }
  switch (field) {
    case 'username':
      // The semantic check explains the username rule, with the value; ajv's pattern would repeat it.
      if (error.keyword === 'pattern') return undefined;
      return `"username" in ${client} must be a string, like alice`;
    case 'plan':
      return `"plan" in ${client} must be a string: the hosting plan's name`;
    case 'email':
      return `"email" in ${client} must be a string: an email address`;
    case 'domains':
      if (domainIndex === undefined) {
        const hint = typeof value === 'string' ? `: write [${value}]` : noneHint(value, 'domains');
        return `"domains" in ${client} must be a list of domain names${hint}`;
      }
      return `domain #${Number(domainIndex) + 1} in ${client} must be a string: a domain name`;
    default:
      return fallback(error, path);
  }
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
  return `in "${path.join('.')}"`;
}

/** How messages name the client at `index` (from 0) of the manifest's data: see clientLabel. */
function clientLabelAt(data: unknown, index: string | number): string {
  return clientLabel(valueAt(data, ['clients', index]), index);
}

/** How messages name a client: `client "alice"` by its username when it has one, else `client #3` (its position from 1). */
export function clientLabel(client: unknown, index: string | number): string {
  const username = valueAt(client, ['username']);
  return typeof username === 'string' && username !== ''
    ? `client "${username}"`
    : `client #${Number(index) + 1}`;
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
  const properties = typeof node === 'object' && node !== null ? (node as { properties?: unknown }).properties : undefined;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function quoteList(keys: readonly string[]): string {
  const quoted = keys.map((key) => `"${key}"`);
  const last = quoted.pop();
  return quoted.length === 0 ? (last ?? 'none') : `${quoted.join(', ')} and ${last ?? ''}`;
}
