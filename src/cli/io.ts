/**
 * Everything a command may touch of the outside world, injected so that tests run commands
 * in-process with real files and real HTTP but captured output.
 */
export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Resolves when the user asks the process to stop (SIGINT/SIGTERM); used by long-running commands. */
  readonly untilStopped: () => Promise<void>;
}

export interface Output {
  write(text: string): void;
  /** A terminal: colours and interactive prompts are allowed (never with NO_COLOR for colours). */
  readonly isTTY: boolean;
}

/**
 * Wraps an output so that no registered secret (the API key) can reach it, whatever a bug
 * elsewhere might try to print. Belt and braces: the code never formats the key into text.
 */
export function redacting(output: Output, secrets: ReadonlySet<string>): Output {
  return {
    isTTY: output.isTTY,
    write(text: string) {
      let safe = text;
      for (const secret of secrets) if (secret.length >= 4) safe = safe.replaceAll(secret, '***');
      output.write(safe);
    },
  };
}

export function useColor(output: Output, env: Io['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return output.isTTY;
}
