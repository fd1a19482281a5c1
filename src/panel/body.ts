import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { ProvisionError } from '../errors.js';
import { ListScanner, type ListRead } from './list-stream.js';
import { readWholeList, WHOLE_LIST_BYTES } from './list-whole.js';

const decoders: Readonly<Record<string, (data: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
  // "deflate" is zlib-wrapped by the standard, raw in some servers: both are read.
  deflate: (data, options) => promisify(inflate)(data, options).catch(() => promisify(inflateRaw)(data, options)),
};

/** A response body as undici gives it. */
type AnswerBody = AsyncIterable<Uint8Array> & { destroy?: () => unknown };

/**
 * An answer's body as text, read once and bounded: at most `maxBytes` on the wire and after
 * decoding (a compressed bomb stops at the same bound). gzip, deflate and brotli are decoded
 * (the client asks for none, but a proxy may compress); another encoding is named in the error.
 * `where` is 'GET /api/v2/clients'.
 */
export async function readAnswer(
  body: AnswerBody,
  encoding: string | undefined,
  maxBytes: number,
  where: string,
): Promise<string> {
  return new TextDecoder().decode(await readBytes(body, encoding, maxBytes, where));
}

/**
 * A list answer, bounded as readAnswer's, read element by element as it arrives (ListScanner):
 * an uncompressed body is never held whole; a compressed one is decoded whole first (as bytes
 * only), then read the same way. A small answer is read whole instead (list-whole.ts
 * readWholeList: a few JSON.parse calls, with the same result on every body): one whose length the
 * panel declares (`declaredBytes`, its Content-Length) and a compressed one, each when no larger
 * than `wholeBytes`; past that bound (a declared length that was not the truth) the bytes so far
 * go to the scanner and the rest streams.
 */
export async function readListAnswer<T>(
  body: AnswerBody,
  encoding: string | undefined,
  maxBytes: number,
  where: string,
  item: (value: unknown, index: number) => T,
  declaredBytes?: number,
  wholeBytes: number = WHOLE_LIST_BYTES,
): Promise<ListRead<T>> {
  if (coded(encoding)) {
    const bytes = await readBytes(body, encoding, maxBytes, where);
    if (bytes.length <= wholeBytes) return readWholeList(bytes, item);
    const scanner = new ListScanner(item);
    scanner.write(bytes);
    return scanner.end();
  }
  // Held while the answer may be read whole, then handed to the scanner with the rest.
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  let scanner: ListScanner<T> | undefined =
    declaredBytes !== undefined && declaredBytes <= wholeBytes ? undefined : new ListScanner(item);
  for await (const chunk of bounded(body, maxBytes, where)) {
    if (scanner !== undefined) {
      scanner.write(chunk);
      continue;
    }
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes <= wholeBytes) continue;
    scanner = new ListScanner(item);
    for (const piece of held) scanner.write(piece);
    held.length = 0;
  }
  if (scanner !== undefined) return scanner.end();
  return readWholeList(held.length === 1 ? (held[0] as Uint8Array) : Buffer.concat(held, heldBytes), item);
}

/** A Content-Length header's bytes; undefined when there is none or it is not a plain count. */
export function declaredLength(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : undefined;
}

/** The body's chunks as they arrive; past `maxBytes` in all, the body is dropped and that is an error. */
async function* bounded(body: AnswerBody, maxBytes: number, where: string): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy?.();
      throw tooLarge(where, maxBytes);
    }
    yield chunk;
  }
}

/** The content coding to undo, or false for none. */
function coded(encoding: string | undefined): string | false {
  const coding = (encoding ?? '').trim().toLowerCase();
  return coding === '' || coding === 'identity' ? false : coding;
}

/** The body's bytes, bounded, decoded. */
async function readBytes(
  body: AnswerBody,
  encoding: string | undefined,
  maxBytes: number,
  where: string,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bounded(body, maxBytes, where)) chunks.push(chunk);
  const data: Buffer = Buffer.concat(chunks);
  chunks.length = 0;
  const coding = coded(encoding);
  if (coding === false) return data;
  const decode = decoders[coding];
  if (decode === undefined) {
    throw new ProvisionError(
      'panel_contract',
      `${where}: the answer is encoded as ${JSON.stringify(coding)}, which panel-provision cannot decode`,
      {
        hint: "a proxy in between may be compressing answers: let it pass the panel's answers as they are",
      },
    );
  }
  try {
    return await decode(data, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(where, maxBytes);
    throw new ProvisionError(
      'panel_contract',
      `${where}: the answer says it is ${coding}-encoded but cannot be decoded (${(error as Error).message})`,
      {
        hint: 'check the panel, or a proxy in between that rewrites answers',
      },
    );
  }
}

function tooLarge(where: string, maxBytes: number): ProvisionError {
  const mb = Math.round(maxBytes / 1024 / 1024);
  return new ProvisionError(
    'panel_contract',
    `${where}: the answer is larger than ${mb} MB; it was not read to its end`,
    {
      hint:
        `if the panel really holds that much, raise --max-answer-mb (now ${mb}); ` +
        'otherwise check the panel, or a proxy in between',
    },
  );
}
