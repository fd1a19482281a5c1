/**
 * Manifest text from manifest entries. The `yaml` package writes every value (it quotes what
 * needs quoting: a plan named "true", "1", "a: b"); the program writes only structure. Names are
 * data (docs/panel-api.md, traps): a string holding a control, bidirectional or line-separator
 * character is written double-quoted with that character as an escape, so the file shows no
 * such character raw and reads back the same. Pure: no I/O.
 */
import { Document, isCollection, isMap, isScalar, isSeq, parse, Scalar, visit } from 'yaml';
import { jsonText, safeText } from '../escape.js';
import { schema } from '../manifest/validator.generated.js';
import { type DomainEntry, type ExportClient, type ExportSection, EXPORTS } from './model.js';
import { CLIENT_FIELDS } from '../kinds/client/index.js';

/** How yaml writes: no folding of long lines (a name stays on one line), `[a, b]` not `[ a, b ]`. */
const OPTIONS = { lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false } as const;

/**
 * The first line of a manifest `export` writes: editors with the YAML language server (VS Code's
 * YAML extension and others) then check and complete it against the manifest's JSON Schema,
 * named by its `$id` (schemas/manifest.schema.json).
 */
export const SCHEMA_MODELINE = `# yaml-language-server: $schema=${schema.$id}`;

/**
 * The manifest of `clients`: SCHEMA_MODELINE, `header` lines as `#` comments (each made safe
 * text), then `version: 1`, the kinds' `sections` in their order (export --with hosting-plans:
 * `hosting_plans`, `[]` when empty) and `clients:` as a block list (`clients: []` when empty),
 * each entry as entryValue orders it.
 */
export function manifestText(
  clients: readonly ExportClient[],
  header: readonly string[],
  sections: readonly ExportSection[] = [],
): string {
  const comment = [SCHEMA_MODELINE, ...header.map((line) => `# ${safeText(line)}`.trimEnd())].join('\n');
  const body = render(
    {
      version: 1,
      ...Object.fromEntries(sections.map((section) => [section.key, [...section.entries]])),
      clients: clients.map(entryValue),
    },
    false,
  );
  return `${comment}\n${body}`;
}

/**
 * One client entry as text: `block` gives `- username: …` lines (at column 0; the caller
 * indents them), `flow` gives `{username: …, domains: […]}` on one line. No trailing newline.
 */
export function entryText(client: ExportClient, style: 'block' | 'flow'): string {
  return render(style === 'block' ? [entryValue(client)] : entryValue(client), style === 'flow').trimEnd();
}

/**
 * A domain item as text: its name (scalarText), or its object form (`block`: `- name: …` and
 * the settings' lines under it, at column 0; `flow`: `{name: …, https: {…}}` on one line). The
 * block form starts with `- ` (a list item), the flow form does not. No trailing newline.
 */
export function domainItemText(entry: DomainEntry, style: 'block' | 'flow'): string {
  if (typeof entry === 'string')
    return style === 'block' ? `- ${scalarText(entry, 'block')}` : scalarText(entry, 'flow');
  return render(style === 'block' ? [entry] : entry, style === 'flow').trimEnd();
}

/**
 * A setting's value as it stands in a mapping value (`block`) or inside a flow collection
 * (`flow`), on one line: a scalar as scalarText writes it (in `type`, the style of the value it
 * replaces, where yaml can), an object as a flow mapping (`{max_age: 300, …}`).
 */
export function valueText(value: unknown, context: 'block' | 'flow', type?: Scalar.Type): string {
  if (typeof value !== 'object' || value === null) return scalarText(value as string | boolean | number, context, type);
  const text = render(value, true).trimEnd();
  if (text.includes('\n')) throw new Error('a setting value written on more than one line');
  return text;
}

/**
 * A scalar as it stands in a mapping value (`block`) or inside a flow collection (`flow`), on
 * one line, written in `type` (the style of the value it replaces) where yaml can, else as
 * yaml chooses. Checked by reading it back in its context; a string that does not read back,
 * or takes more than a line, is written double-quoted.
 */
export function scalarText(value: string | boolean | number, context: 'block' | 'flow', type?: Scalar.Type): string {
  const wanted = type === Scalar.BLOCK_FOLDED || type === Scalar.BLOCK_LITERAL ? undefined : type;
  const attempt = (style: Scalar.Type | undefined): string => {
    const doc = new Document(context === 'flow' ? [value] : { k: value });
    const node: unknown = doc.getIn([context === 'flow' ? 0 : 'k'], true);
    if (style !== undefined && isScalar(node) && typeof node.value === 'string') node.type = style;
    markUnsafe(doc);
    if (context === 'flow' && isCollection(doc.contents)) doc.contents.flow = true;
    const text = escapeRaw(doc.toString(OPTIONS).trimEnd());
    return context === 'flow' ? text.slice(1, -1) : text.slice('k: '.length);
  };
  const readsBack = (text: string): boolean => {
    if (text.includes('\n')) return false;
    try {
      const back: unknown =
        context === 'flow' ? (parse(`[${text}]`) as unknown[])[0] : (parse(`k: ${text}`) as { k: unknown }).k;
      return back === value;
    } catch {
      return false;
    }
  };
  const first = attempt(wanted);
  if (readsBack(first)) return first;
  return attempt(Scalar.QUOTE_DOUBLE);
}

/**
 * The entry as a plain object, keys in the manifest's order (the field table's for the managed
 * fields, each as its row writes it); `domains` left out when empty; then the kinds' lists under a client item.
 */
function entryValue(client: ExportClient): Record<string, unknown> {
  const entry: Record<string, unknown> = { username: client.username };
  for (const row of CLIENT_FIELDS) {
    const value = client[row.key];
    if (value !== undefined && row.writes(value)) entry[row.key] = value;
  }
  if (client.domains.length > 0) entry.domains = [...client.domains];
  for (const [key, list] of Object.entries(client.lists ?? {})) entry[key] = [...list];
  return entry;
}

/**
 * `value` as YAML text, the top collection in flow style when `flow`, each kind's values in its
 * style (kinds/export.ts ExportStyle); unsafe strings as escapes.
 */
export function render(value: unknown, flow: boolean): string {
  const doc = new Document(value);
  markUnsafe(doc);
  styleKinds(doc);
  if (flow && isCollection(doc.contents)) doc.contents.flow = true;
  const text = escapeRaw(doc.toString(OPTIONS));
  const back: unknown = parse(text);
  if (JSON.stringify(back) !== JSON.stringify(value))
    throw new Error('the YAML writer does not read back what it wrote');
  return text;
}

/** The keys each kind's style names (Kind.export.style), gathered over the table once. */
const STYLE = {
  flowValues: new Set(EXPORTS.flatMap((k) => k.export.style?.flowValues ?? [])),
  flowItems: new Set(EXPORTS.flatMap((k) => k.export.style?.flowItems ?? [])),
  quoted: new Set(EXPORTS.flatMap((k) => [...(k.export.style?.quoted ?? [])])),
};

/**
 * The kinds' styles: a mapping or a list under a `flowValues` key in flow style, on one line as
 * the manifest's documentation writes it (a domain's `hsts: {max_age: 31536000, …}`, a
 * list of addresses `[hello, sales]`); each mapping
 * item of a list under a `flowItems` key so (a `dns` block's `- {host: "@", type: A, …}`); a
 * string under a `quoted` key double-quoted (a plan's `memory_limit: "512M"`). No other mapping
 * of a manifest has those keys.
 */
function styleKinds(doc: Document): void {
  visit(doc, {
    Pair(_key, pair) {
      if (!isScalar(pair.key)) return;
      const key = String(pair.key.value);
      if (STYLE.flowValues.has(key) && (isMap(pair.value) || isSeq(pair.value))) pair.value.flow = true;
      if (STYLE.flowItems.has(key) && isSeq(pair.value))
        for (const item of pair.value.items) if (isMap(item)) item.flow = true;
      if (STYLE.quoted.has(key) && isScalar(pair.value) && typeof pair.value.value === 'string')
        pair.value.type = Scalar.QUOTE_DOUBLE;
    },
  });
}

/** Every string that holds a character safeText would escape is written double-quoted (yaml escapes C0 there). */
function markUnsafe(doc: Document): void {
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && safeText(node.value) !== node.value)
        node.type = Scalar.QUOTE_DOUBLE;
    },
  });
}

/**
 * The characters yaml leaves raw inside a double-quoted scalar (DEL, C1, bidirectional controls,
 * U+2028/9) as `\uXXXX` escapes, which mean the same there. Only strings markUnsafe quoted hold
 * them; the document's own line breaks stay.
 */
function escapeRaw(text: string): string {
  return text.replace(/[^\n\x20-\x7e]/gu, (c) => (safeText(c) === c ? c : jsonText(c).slice(1, -1)));
}
