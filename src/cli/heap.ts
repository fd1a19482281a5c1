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
 */

/** The V8 flags a manifest read runs under. */
export const MANIFEST_HEAP_FLAGS: readonly string[] = ['--semi-space-growth-factor=1', '--heap-growing-percent=25'];

/**
 * Whether a command line reads a manifest: `validate`, `plan`, `apply`, `export --into`, the
 * command found as main finds it (after the global `--no-color`, wherever it stands, and
 * `help`, which reads nothing).
 */
export function readsManifest(args: readonly string[]): boolean {
  const words = args.filter((arg) => arg !== '--no-color');
  const [command, ...rest] = words;
  if (command === 'validate' || command === 'plan' || command === 'apply') return true;
  return command === 'export' && rest.some((arg) => arg === '--into' || arg.startsWith('--into='));
}
