import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { planJsonPieces } from '../render/json.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { planTextPieces } from '../render/text.js';
import type { Command } from './args.js';
import { oneOf, parseCommandLine } from './args.js';
import { EXIT, exitCodesHelp } from './exit.js';
import { useColor } from './io.js';
import { sourceName } from './manifest-input.js';
import { readInput } from './prepare.js';
import { writePieces } from './write-pieces.js';

const SHOW_OPTIONS = {
  format: { type: 'string' },
  'show-url': { type: 'boolean', default: false },
} as const;

const usage = 'provision show <plan.json> [--format text|json|markdown] [--show-url]';

export const show: Command = {
  usage,
  options: SHOW_OPTIONS,
  summary:
    "Print a plan saved by 'provision plan --out' as text, JSON or Markdown, without contacting the panel: " +
    'no URL and no key are needed, nothing is read but the file. ' +
    'The file is checked as apply checks it (format, schema, digest): an edited or foreign file is refused. ' +
    'It says what the plan was when it was made; apply checks that the panel still matches it.',
  help: `Options:
  --format FORMAT        text (default), json (the plan document, as plan --format json prints it)
                         or markdown (for a pull-request comment)
  --show-url             name the panel's URL in the Markdown too (left out by default: a
                         pull-request comment is read by everyone who can read the repository)

A plan file given as - is read from standard input.

Examples:
  provision plan manifest.yaml --out plan.json && provision show plan.json
  provision show plan.json --format markdown > comment.md
  cat plan.json | provision show - --format json

${exitCodesHelp(['ok', 'failure'])}`,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, SHOW_OPTIONS, 1, usage);
    const format = oneOf(values.format, '--format', ['text', 'json', 'markdown'], 'text');
    const path = positionals[0] ?? '';
    const input = await readInput(path, io);
    if (input.kind === 'manifest') {
      throw new ProvisionError(
        'usage',
        `${quote(sourceName(path))} is a manifest, not a saved plan: ` +
          'show prints plan files written by provision plan --out',
        {
          hint:
            `run provision plan ${path === '-' ? '<manifest>' : path} (it reads the panel), ` +
            `or provision plan ${path === '-' ? '<manifest>' : path} --out plan.json, then provision show plan.json`,
        },
      );
    }
    const view = input.saved;
    const showUrl = values['show-url'];
    // The text and the JSON in pieces as they are made (write-pieces.ts); the Markdown is bounded.
    if (format === 'json') await writePieces(io.stdout, planJsonPieces(view));
    else if (format === 'markdown') io.stdout.write(renderPlanMarkdown(view, { showUrl }));
    else await writePieces(io.stdout, planTextPieces(view, { color: useColor(io.stdout, io.env) }));
    return EXIT.ok;
  },
};
