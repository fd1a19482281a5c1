/**
 * What must be undone however the process ends (a lock file: secrets/lock.ts): synchronous
 * tasks, run once, at process 'exit' and before the process ends by a signal. Node runs no
 * 'exit' handler when a signal ends it, so while a task is registered this module listens for
 * SIGINT, SIGTERM and SIGHUP: a signal that nobody else handles runs the tasks, then ends the
 * process by the same signal (its default action restored first, so the shell sees the usual
 * status). A signal that another listener handles (a command waiting to stop gracefully:
 * cli/process-io.ts) is left to it. Code that ends the process by a signal itself (process-io's
 * second stop, outputs.ts's SIGPIPE) calls runExitCleanups first.
 */

const tasks = new Set<() => void>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;

/** Registers `task` (synchronous, quick, never throwing on purpose); returns its removal. */
export function atExit(task: () => void): () => void {
  tasks.add(task);
  install();
  return () => {
    tasks.delete(task);
    if (tasks.size === 0) uninstall();
  };
}

/** Runs every registered task once (each removed first, so none runs twice); errors are ignored. */
export function runExitCleanups(): void {
  for (const task of [...tasks]) {
    tasks.delete(task);
    try {
      task();
    } catch {
      // Nothing can be said any more: the process is ending.
    }
  }
  uninstall();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another listener (a command that stops gracefully) handles it: it ends the process itself.
  if (process.listenerCount(signal) > 1) return;
  runExitCleanups();
  // With no listener left, the signal has its default action again (libuv): it ends the process.
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runExitCleanups);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', runExitCleanups);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}
