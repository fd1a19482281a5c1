import { ProvisionError } from '../errors.js';
import { MIN_REDACTED_LENGTH, Redactions } from '../redact.js';
import { type Command, flagHint, formatJsonRequested } from './args.js';
import { EXIT, EXIT_FOR_ERROR, exitCodesHelp, type ExitCode } from './exit.js';
import { type Io, redactingIo, watched } from './io.js';
import { quote, safeText } from '../escape.js';
import { closest } from '../names.js';
import { formatError } from '../render/diagnostics.js';
import { onGitHubActions } from './github.js';

const COMMANDS = {
  validate: () => import('./validate.js').then((m) => m.validate),
  plan: () => import('./plan.js').then((m) => m.plan),
  apply: () => import('./apply.js').then((m) => m.apply),
  simulator: () => import('./simulator.js').then((m) => m.simulator),
  secrets: () => import('./secrets.js').then((m) => m.secrets),
  export: () => import('./export.js').then((m) => m.exportCommand),
  show: () => import('./show.js').then((m) => m.show),
  doctor: () => import('./doctor.js').then((m) => m.doctor),
  snapshot: () => import('./snapshot.js').then((m) => m.snapshot),
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
  plan <manifest>         show what apply would create, update and delete (--out saves the plan)
  apply <manifest|plan>   make the panel match the manifest or carry out a saved plan
  show <plan.json>        print a saved plan (text, JSON or Markdown) without contacting the panel
  export                  write the manifest of the panel (--into rewrites a manifest to match it)
  secrets decrypt <file>  print each client's current password, decrypting age-encrypted ones
  secrets reset <user>... give clients new passwords, written to the secrets file first
  secrets keygen          make an age key pair for encrypting the secrets file (--out FILE)
  doctor                  check, read-only, whether a panel gives what provision relies on
  snapshot [manifest]     save the panel as plan reads it, for plan --from-snapshot (no key)
  simulator               run a local panel (API v2) for trying things out

Options:
  --help, -h              help for provision or a command (also: provision help <command>)
  --version               print the version
  --no-color              no colours, even on a terminal (as NO_COLOR=1 does)

${exitCodesHelp()}

Run 'provision <command> --help' for a command's options and examples.

Examples:
  provision validate manifest.yaml
  provision plan manifest.yaml --out plan.json
  provision apply plan.json --secrets-file secrets.jsonl
`;

/**
 * Runs one command line and returns its exit code. The only place errors become exit codes
 * and messages. Every channel the run prints to (stdout, stderr, the terminal prompt, the step
 * summary: github.ts) blanks every credential of the run's redaction set (src/redact.ts), which
 * holds the key before the command reads or writes anything. Files the user asked for (a plan,
 * a manifest) are documents, written as they are (files.ts writeAtomically).
 *
 * An error is printed in its text form on stderr, always. When the command line asks for
 * `--format json`, stdout also gets the error document (render/error-json.ts), unless the
 * command printed its own document already (validate's result, a plan with conflicts: each
 * tells the failure itself): stdout holds one JSON document, whatever happens.
 */
export async function main(argv: readonly string[], io: Io): Promise<ExitCode> {
  const redactions = suspectedCredentials(io.env);
  const safeIo = redactingIo(io, redactions);
  const stdout = watched(safeIo.stdout);
  try {
    return await dispatch(argv, { ...safeIo, stdout }, redactions);
  } catch (error) {
    safeIo.stderr.write(
      formatError(error, {
        annotate: onGitHubActions(safeIo.env),
        stack: (safeIo.env.PROVISION_DEBUG ?? '') !== '',
      }),
    );
    if (!stdout.written && (await jsonRequested(argv))) {
      // Loaded here: only a failure under --format json needs it (test/manifest/startup.test.ts).
      const { renderErrorJson } = await import('../render/error-json.js');
      safeIo.stdout.write(renderErrorJson(error));
    }
    return error instanceof ProvisionError ? EXIT_FOR_ERROR[error.code] : EXIT.failure;
  }
}

/**
 * The command line asks for `--format json`: read from the raw arguments, since the error may
 * have come before the command parsed them (an unknown flag). For a command, as it would parse
 * them, and only when it has the flag; before any command (an unknown one), when the words
 * `--format json` are there.
 */
async function jsonRequested(all: readonly string[]): Promise<boolean> {
  const [name, ...rest] = all.filter((arg) => arg !== '--no-color');
  if (name === undefined || !Object.hasOwn(COMMANDS, name)) return formatJsonRequested(all);
  const command = await COMMANDS[name as keyof typeof COMMANDS]().catch(() => undefined);
  return command?.options?.format !== undefined && formatJsonRequested(rest, command.options);
}

/**
 * The redaction set as it stands before the first byte is written: the key from the
 * environment. Not the path given to --api-key-file: a path is not a secret, and blanking it
 * blanked every word it occurs in (a key file named `prod` made "# production panel" read
 * "# [redacted]uction panel"). A key pasted there by mistake is never printed: the error that
 * says the file cannot be read does not repeat the path (connection.ts readApiKey).
 */
function suspectedCredentials(env: Io['env']): Redactions {
  const redactions = new Redactions();
  if (env.PROVISION_API_KEY !== undefined) redactions.add(env.PROVISION_API_KEY.trim());
  return redactions;
}

async function dispatch(all: readonly string[], given: Io, redactions: Redactions): Promise<ExitCode> {
  // --no-color is everyone's: taken out here, it is NO_COLOR for the command.
  const argv = all.filter((arg) => arg !== '--no-color');
  const io = argv.length === all.length ? given : { ...given, env: { ...given.env, NO_COLOR: '1' } };
  const [first, ...after] = argv;
  // `provision help plan` is `provision plan --help` (`help secrets decrypt`: `secrets decrypt --help`).
  const [name, ...rest] = first === 'help' && after[0] !== undefined ? [...after, '--help'] : [first, ...after];
  if (name === undefined) {
    io.stderr.write(GLOBAL_HELP);
    return EXIT.failure;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(GLOBAL_HELP);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    // Loaded only here (bin.ts answers a lone --version itself): it reads package.json at load.
    const { VERSION } = await import('../version.js');
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMANDS, name)) throw unknownCommand(name);
  const command: Command = await COMMANDS[name as keyof typeof COMMANDS]();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(command.helpFor?.(rest) ?? `Usage: ${command.usage}\n\n${command.summary}\n\n${command.help}\n`);
    return EXIT.ok;
  }
  // The key file first of all inputs: from here on the key is blanked wherever it appears.
  const apiKey =
    command.options?.['api-key-file'] === undefined
      ? undefined
      : await (await import('./connection.js')).preloadApiKey(command, rest, io);
  if (apiKey !== undefined) redactions.add(apiKey);
  refuseKeyInArguments(name, rest, [apiKey, io.env.PROVISION_API_KEY?.trim()]);
  return command.run(rest, io, { redactions, apiKey });
}

/** The flags `provision` takes before a command. */
const GLOBAL_FLAGS = ['help', 'version', 'no-color'];

/**
 * Terraform's commands that are a flag here (`terraform version`), said as the flag. A command
 * named `version` would take precedence: COMMANDS is looked up first.
 */
const TERRAFORM_COMMANDS: Readonly<Record<string, string>> = { version: '--version' };

/**
 * The refusal of a first argument that is no command: a mistyped command gets the nearest one,
 * a flag (`-version`, `-no-color` with Terraform's single dash) the flag it means, a Terraform
 * command our flag for it.
 */
function unknownCommand(name: string): ProvisionError {
  const list = 'run provision --help for the list of commands';
  if (name.startsWith('-')) {
    const flag = flagHint(name, GLOBAL_FLAGS);
    const typed = name.split('=')[0] ?? name;
    return new ProvisionError('usage', `unknown option '${safeText(typed)}' before the command`, {
      hint: `${flag === undefined ? '' : `did you mean ${flag}? `}${list}`,
      meta: { flag: typed },
    });
  }
  const suggestion = Object.hasOwn(TERRAFORM_COMMANDS, name)
    ? TERRAFORM_COMMANDS[name]
    : closest(name, Object.keys(COMMANDS));
  return new ProvisionError('usage', `unknown command ${quote(name)}`, {
    hint: `${suggestion === undefined ? '' : `did you mean ${suggestion}? `}${list}`,
    meta: { command: name },
  });
}

/**
 * Refuses, before anything is read, an argument that holds the API key (a key pasted where a
 * path belongs, a URL carrying it): said without quoting the argument, so the output holds
 * neither the key nor a blanked stand-in. The simulator's own --api-key is its one exception.
 */
function refuseKeyInArguments(command: string, args: readonly string[], keys: readonly (string | undefined)[]): void {
  const known = keys.filter((key): key is string => key !== undefined && key.length >= MIN_REDACTED_LENGTH);
  for (const [i, arg] of args.entries()) {
    if (command === 'simulator' && (args[i - 1] === '--api-key' || arg.startsWith('--api-key='))) continue;
    if (!known.some((key) => arg.includes(key))) continue;
    throw new ProvisionError(
      'usage',
      `argument ${i + 1} after '${command}' holds the API key: nothing was read or sent`,
      {
        hint:
          'give the key only in the file named by --api-key-file or in PROVISION_API_KEY, never as an argument: ' +
          'shell history and process lists show arguments',
      },
    );
  }
}
