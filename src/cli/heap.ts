/**
 * Memory, for the commands that read a manifest: the read keeps what it builds (the clients to
 * plan) and makes garbage as it goes (a batch's syntax tree). V8's defaults let the young
 * generation grow from 1 to 16 MB a semi-space and the old one run to several times what lives
 * before a full collection: about 15 to 30 bytes of memory a byte of manifest read, where the
 * goal is 10 (docs/reliability.md, "Sizes"; bench/manifest-memory.ts measures each path). Both
 * flags are read when V8 decides to grow, so they take effect when set at start (bin.ts). CPU
 * time: block YAML and JSON read 10 to 17% faster; a batch read through yaml (what the fast read
 * of simple-items.ts leaves to it: a merge key, a block scalar) up to 30 to 50% slower
 * (docs/benchmarks.md). Not
 * set for the commands that read no manifest: export of a large panel ran 1.18x slower under
 * them, for no memory goal. Loaded by bin.ts before anything else: imports nothing.
 *
 * `plan` and `apply` run under both, and compile later (PLAN_HEAP_FLAGS). What they read may be
 * mostly the panel's lists (which the goal counts among the bytes read), but a first plan of a
 * manifest the panel lacks reads little else: with V8's young generation it peaked at 17 to 18
 * bytes a byte of manifest on a quiet machine and at 30 to 32 on a busy one (20,000 new clients,
 * every output), where held at its first size it stays at 17 to 18 (docs/benchmarks.md, "Plan of
 * N new clients"); the young generation saved about 4% of a plan's CPU.
 */

/** The V8 flags a manifest read runs under (`validate`, `export --into`). */
export const MANIFEST_HEAP_FLAGS: readonly string[] = ['--semi-space-growth-factor=1', '--heap-growing-percent=25'];

/**
 * The V8 flags of `plan` and `apply`: a manifest read's (MANIFEST_HEAP_FLAGS), and a function
 * optimized (TurboFan) only once it has run 16 times as long as V8 waits by default
 * (`--interrupt-budget`, 67,584 in Node 20): a run of a second or two spent more CPU compiling
 * code it then hardly ran (in background threads, on a machine that may have one core to spare)
 * than the compiled code saved. A converged plan of 1,000 clients spent 15 to 25% less CPU so,
 * one of 10,000 clients 7 to 10% less, one of 30,000 about 3% less: code that runs long is
 * still optimized, later (docs/benchmarks.md, "issue 32").
 */
export const PLAN_HEAP_FLAGS: readonly string[] = [...MANIFEST_HEAP_FLAGS, '--interrupt-budget=1081344'];

/** The command a command line runs, as main finds it (after the global `--no-color`, wherever it stands). */
function commandOf(args: readonly string[]): { command: string | undefined; rest: string[] } {
  const [command, ...rest] = args.filter((arg) => arg !== '--no-color');
  return { command, rest };
}

/**
 * Whether a command line reads a manifest: `validate`, `plan`, `apply`, `export --into`, the
 * command found as main finds it (after the global `--no-color`, wherever it stands, and
 * `help`, which reads nothing).
 */
export function readsManifest(args: readonly string[]): boolean {
  const { command, rest } = commandOf(args);
  if (command === 'validate' || command === 'plan' || command === 'apply') return true;
  return command === 'export' && rest.some((arg) => arg === '--into' || arg.startsWith('--into='));
}

/** The V8 flags a command line runs under (bin.ts sets them first): none for one that reads no manifest. */
export function heapFlags(args: readonly string[]): readonly string[] {
  if (!readsManifest(args)) return [];
  const { command } = commandOf(args);
  return command === 'plan' || command === 'apply' ? PLAN_HEAP_FLAGS : MANIFEST_HEAP_FLAGS;
}
