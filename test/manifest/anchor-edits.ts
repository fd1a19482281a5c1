/** Edits of a manifest's text that add anchors, aliases and merge keys (arbitraries.ts). */

/** `header` before `clients:`, and a merge key (`<<: source`) opening each block client. */
export function mergeInto(text: string, header: string, source: string): string {
  return text
    .replace(/^clients:/m, `${header}\nclients:`)
    .replace(/\n( *)- username:/g, `\n$1- <<: ${source}\n$1  username:`);
}

/** The first `key:`'s value anchored (`&key`), each later one an alias to it (`*key`). */
export function aliasLater(text: string, key: string): string {
  let first = true;
  return text.replace(new RegExp(`${key}:( [^\\n]*)?`, 'g'), (match, value: string | undefined) => {
    if (!first) return `${key}: *${key}`;
    first = false;
    return `${key}: &${key}${value ?? ''}`;
  });
}
