/**
 * The simulator's state file (`statePath`): loaded at start when it exists (the seed is then
 * ignored), saved atomically after every change. Every failure is an 'io' error naming the
 * file, what was done and the system's code, with what to do.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { errnoCode, ProvisionError } from '../errors.js';
import type { SimulatorOptions } from './index.js';
import { storeFromSeed } from './seed.js';
import { SimStore } from './store.js';

/** The store from the state file when there is one, else from the seed. */
export async function loadStore(options: SimulatorOptions, systemDomains: boolean): Promise<SimStore> {
  if (options.statePath !== undefined) {
    let text: string | undefined;
    try {
      text = await readFile(options.statePath, 'utf8');
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') {
        throw new ProvisionError(
          'io',
          `cannot read the simulator state file ${options.statePath} (${errnoCode(err)})`,
          {
            hint: 'check its permissions, or give another --state path',
            cause: err,
          },
        );
      }
    }
    if (text !== undefined) {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (err) {
        throw new ProvisionError('usage', `${options.statePath}: the simulator state file is not valid JSON`, {
          cause: err,
        });
      }
      return SimStore.fromFile(data, options.statePath);
    }
  }
  return storeFromSeed(options.seed ?? {}, {
    systemDomains,
    source: 'simulator seed',
    now: new Date(),
  });
}

/**
 * Saves the state atomically (temp file in the same folder, then rename). A save requested
 * while one runs waits for it and then writes once for everyone who asked meanwhile.
 */
export class StateSaver {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => string,
  ) {}

  save(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    if (this.running === undefined) {
      this.running = this.write().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.save();
      });
    return this.queued;
  }

  /** Resolves once no save is running or queued. */
  async idle(): Promise<void> {
    while (this.running !== undefined || this.queued !== undefined) {
      await (this.queued ?? this.running)?.catch(() => undefined);
    }
  }

  private async write(): Promise<void> {
    const temp = `${this.path}.${process.pid.toString()}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, this.snapshot());
      await rename(temp, this.path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw new ProvisionError('io', `cannot write the simulator state file ${this.path} (${errnoCode(err)})`, {
        hint: 'check that its directory exists and is writable, or give another --state path',
        cause: err,
      });
    }
  }
}
