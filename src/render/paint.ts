/** Terminal styles for the text renderers: a colour or a weight, only when the CLI says so. Pure. */

export type Style = 'green' | 'red' | 'yellow' | 'bold' | 'dim';
const ANSI: Readonly<Record<Style, readonly [number, number]>> = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  bold: [1, 22],
  dim: [2, 22],
};

/**
 * `text` in a terminal style when `color` (the CLI decides: a terminal, no NO_COLOR). Plain
 * ANSI rather than util.styleText, which on Node 20 consults the real process.stdout and so
 * would ignore the decision made for the output actually written to.
 */
export function paint(style: Style, text: string, color: boolean): string {
  if (!color) return text;
  const [open, close] = ANSI[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}
