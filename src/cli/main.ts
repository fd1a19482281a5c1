import { ProvisionError } from '../errors.js';
import { Redactions } from '../redact.js';
import { VERSION } from '../version.js';
import type { Command } from './args.js';
import { EXIT, EXIT_FOR_ERROR, exitCodesHelp, type ExitCode } from './exit.js';
import { type Io, redacting } from './io.js';
import { quote } from '../escape.js';
import { closest } from '../names.js';

const COMMANDS = {
  validate: () => import('./validate.js').then((m) => m.validate),
  plan: () => import('./plan.js').then((m) => m.plan),
  apply: () => import('./apply.js').then((m) => m.apply),
  simulator: () => import('./simulator.js').then((m) => m.simulator),
  secrets: () => import('./secrets.js').then((m) => m.secrets),
} as const;

/** @internal The commands by name, loaded: for the help and examples tests. */
export async function loadCommand(name: keyof typeof COMMANDS): Promise<Command> {
  return COMMANDS[name]();
}
/** @internal For the help and examples tests. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];

const GLOBAL_HELP = `provision: plan and apply hosting-panel clients and domains from a YAML manifest

Usage: provision <command> [options]

Commands:
  validate <manifest>     check a manifest offline
  plan <manifest>         show what apply would create on the panel (--out saves the plan)
  apply <manifest|plan>   create what the manifest or a saved plan lists and the panel lacks
  secrets decrypt <file>  print a secrets file's passwords, decrypting age-encrypted ones
  simulator               run a local panel (API v2) for trying things out

Options:
  --help, -h              help for provision or a command
  --version               print the version

${exitCodesHelp()}

Run 'provision <command> --help' for a command's options and examples.

Examples:
  provision validate manifest.yaml
  provision plan manifest.yaml --out plan.json
  provision apply plan.json --secrets-file secrets.jsonl
`;

/**
 * Runs one command line and returns its exit code. The only place errors become exit codes
 * and messages; everything printed passes through a filter that blanks every credential of
 * the run's redaction set (src/redact.ts).
 */
export async function main(argv: readonly string[], io: Io): Promise<ExitCode> {
  const redactions = knownCredentials(argv, io.env);
  const safeIo: Io = { ...io, stdout: redacting(io.stdout, redactions), stderr: redacting(io.stderr, redactions) };
  try {
    return await dispatch(argv, safeIo, redactions);
  } catch (error) {
    safeIo.stderr.write(formatError(error));
    return error instanceof ProvisionError ? EXIT_FOR_ERROR[error.code] : EXIT.failure;
  }
}

/**
 * The redaction set as it stands before the first byte is written: the key from the
 * environment, and whatever was given to --api-key-file (the key itself, pasted there by
 * mistake, would otherwise be echoed by the error that says the "file" cannot be read).
 */
function knownCredentials(argv: readonly string[], env: Io['env']): Redactions {
  const redactions = new Redactions();
  if (env.PROVISION_API_KEY !== undefined) redactions.add(env.PROVISION_API_KEY.trim());
  for (const [i, arg] of argv.entries()) {
    if (arg === '--api-key-file' && argv[i + 1] !== undefined) redactions.add(argv[i + 1] ?? '');
    else if (arg.startsWith('--api-key-file=')) redactions.add(arg.slice('--api-key-file='.length));
  }
  return redactions;
}

async function dispatch(argv: readonly string[], io: Io, redactions: Redactions): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(GLOBAL_HELP);
    return EXIT.failure;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(GLOBAL_HELP);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    const suggestion = closest(name, Object.keys(COMMANDS));
    throw new ProvisionError('usage', `unknown command ${quote(name)}`, {
      hint: `${suggestion === undefined ? '' : `did you mean ${suggestion}? `}run provision --help for the list of commands`,
    });
  }
  const command: Command = await COMMANDS[name as keyof typeof COMMANDS]();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`Usage: ${command.usage}\n\n${command.summary}\n\n${command.help}\n`);
    return EXIT.ok;
  }
  return command.run(rest, io, redactions);
}
/** `error: message`, detail lines, `hint: ...`; never a stack trace. */
export function formatError(error: unknown): string {
  if (error instanceof ProvisionError) {
    const lines = [`error: ${error.message}`, ...error.details.map((d) => `  ${d}`)];
    if (error.hint !== undefined) lines.push(`hint: ${error.hint}`);
    return `${lines.join('\n')}\n`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `error: internal error: ${message}\nhint: this is a bug in panel-provision: please report it with the command you ran\n`;
}
