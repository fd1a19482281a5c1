/**
 * plan and apply hand the manifest's files to planFromManifest, which takes them out once read
 * and hashed: their bytes are not held while the panel is read and the plan written (memory).
 */
import { describe, expect, it } from 'vitest';
import { type ManifestHandle, planFromManifest } from '../../src/cli/prepare.js';
import type { Io } from '../../src/cli/io.js';
import { manifestDigest, type ManifestFiles } from '../../src/manifest/parts.js';
import { Redactions } from '../../src/redact.js';
import { cliEnv, startWorkspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';

describe("planFromManifest takes the manifest's files out of its handle", () => {
  it('empties the handle, and the plan records the digest of the files it had', async () => {
    const w = await startWorkspace();
    try {
      const bytes = new TextEncoder().encode(MANIFEST);
      const files: ManifestFiles = {
        name: 'manifest.yaml',
        directory: false,
        parts: [{ file: 'manifest.yaml', bytes }],
      };
      const handle: ManifestHandle = { files };
      let stderr = '';
      const io: Io = {
        stdout: { write: () => true, isTTY: false, columns: 0 },
        stderr: { write: (t: string) => ((stderr += t), true), isTTY: false, columns: 0 },
        env: cliEnv(w.sim),
        untilStopped: () => new Promise<void>(() => undefined),
      };
      const prepared = await planFromManifest(
        handle,
        io,
        { redactions: new Redactions(), apiKey: undefined },
        { connection: {}, showUnmanaged: false },
      );
      await prepared.panel.close();
      expect(handle.files).toBeUndefined();
      expect(prepared.view.manifestSha256).toBe(manifestDigest(files).sha256);
      expect(prepared.view.plan.changes.map((c) => c.id)).toEqual(['client:alice', 'domain:alice.example']);
      expect(stderr).toBe('');
      // Taken once: a second plan of the same handle is a mistake, said so.
      await expect(
        planFromManifest(
          handle,
          io,
          { redactions: new Redactions(), apiKey: undefined },
          { connection: {}, showUnmanaged: false },
        ),
      ).rejects.toThrow('the manifest was taken already');
    } finally {
      await w.close();
    }
  });
});
