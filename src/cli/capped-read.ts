import { open } from 'node:fs/promises';

/**
 * A read bounded in size (files.ts readBytes with a limit): a manifest's bytes under
 * --max-manifest-mb.
 */

/**
 * A cap on the bytes read (a manifest's, --max-manifest-mb): past `maxBytes` the read stops and
 * `refuse` says so, with the size when the file tells it (a regular file: refused before any
 * byte is read) or undefined (a pipe, standard input: refused once `maxBytes` + 1 are read).
 */
export interface SizeLimit {
  readonly maxBytes: number;
  refuse(named: string, size: number | undefined): Error;
}

/** What a read asks for at least, when the file's size does not say how much is left. */
const CHUNK = 64 * 1024;

/**
 * `path`'s bytes, at most `limit.maxBytes`: a regular file larger than that is refused by its
 * size before a byte is read; anything else (a pipe, a device, a file that grows while read) once
 * `maxBytes` + 1 bytes are in. A regular file's buffer is its size and one byte (to see it grow).
 */
export async function readCapped(path: string, named: string, limit: SizeLimit): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > limit.maxBytes) throw limit.refuse(named, info.size);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      // The last buffer reaches exactly maxBytes + 1 bytes in all: one byte more says "too much".
      const room = limit.maxBytes + 1 - size;
      // At least a chunk: a file whose size says 0 (under /proc) is read a chunk at a time all the same.
      const buffer = Buffer.allocUnsafe(Math.min(room, Math.max(info.isFile() ? info.size - size + 1 : 0, CHUNK)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      size += bytesRead;
      if (size > limit.maxBytes) throw limit.refuse(named, undefined);
    }
    return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, size);
  } finally {
    await handle.close();
  }
}
