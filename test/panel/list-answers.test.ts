/**
 * List answers are read as they stream in (readRecords, PanelClient.getList): each record is
 * made while the rest of the body is still on its way, so the whole list is never held as text
 * or as parsed JSON. Through real HTTP on loopback: the records are the same however the body
 * is cut, the bounds and every error for a broken answer hold as for a whole read, and the
 * list's own checks (paging) still come before a bad record.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseDomainRecord, readList } from '../../src/panel/index.js';
import { readRecords } from '../../src/panel/list-read.js';
import { client, rejection } from '../helpers/panel.js';
import { rawPanel } from '../helpers/raw-panel.js';

/** Writes `body` in pieces of `size` bytes, each flushed before the next. */
async function trickle(res: ServerResponse, body: Buffer, size: number): Promise<void> {
  for (let at = 0; at < body.length; at += size) {
    if (!res.write(body.subarray(at, at + size))) await new Promise((resolve) => res.once('drain', resolve));
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

const DOMAINS = Array.from({ length: 300 }, (_, i) => ({
  id: i + 1,
  id_user: 7,
  domain: `d${i}.Example.COM`,
  is_system_domain: false,
  note: 'caf\u00e9 \u2713 "quoted" \\ [x] {y}',
}));
const BODY = Buffer.from(JSON.stringify(DOMAINS));

describe('list answers read as they stream in', () => {
  it.each([1, 7, 4096])('the same records from a body sent %i bytes at a time', async (size) => {
    const url = await rawPanel(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await trickle(res, BODY, size);
    });
    const records = await readRecords(client(url), '/domains', parseDomainRecord);
    expect(records).toEqual(DOMAINS.map((d, i) => parseDomainRecord(d, `[${i}]`)));
  });

  it('makes the first record before the body has ended', async () => {
    let first: () => void = () => undefined;
    const madeFirst = new Promise<void>((resolve) => (first = resolve));
    let before: boolean | undefined;
    const url = await rawPanel(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(BODY.subarray(0, 1000));
      // The rest once record [0] is made, or after 2 s (a read that waits for the whole body).
      before = await Promise.race([
        madeFirst.then(() => true),
        new Promise<false>((resolve) =>
          setTimeout(() => {
            resolve(false);
          }, 2000),
        ),
      ]);
      res.end(BODY.subarray(1000));
    });
    const records = await readRecords(client(url), '/domains', (value, where) => {
      first();
      return parseDomainRecord(value, where);
    });
    expect(records).toHaveLength(DOMAINS.length);
    expect(before).toBe(true);
  });

  it('a body broken off or broken further on is "not JSON", as a whole read says', async () => {
    for (const body of [BODY.subarray(0, BODY.length - 40), Buffer.concat([BODY.subarray(0, -1), Buffer.from(',]')])]) {
      const url = await rawPanel(async (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        await trickle(res, body, 5000);
      });
      const error = await rejection(readRecords(client(url), '/domains', parseDomainRecord));
      expect(error).toMatchObject({
        code: 'panel_contract',
        message: 'GET /api/v2/domains: 200 answered a body that is not JSON (application/json), not JSON',
      });
    }
  });

  it('a bad record is named by its index; a paged list is refused before it', async () => {
    const bad = JSON.stringify([...DOMAINS.slice(0, 3), { id: 4, id_user: 7 }, ...DOMAINS.slice(5)]);
    const plain = await rawPanel((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bad);
    });
    const error = await rejection(readRecords(client(plain), '/domains', parseDomainRecord));
    expect(error.message).toBe('GET /api/v2/domains[3]: "domain" must be a non-empty string, got nothing');
    const paged = await rawPanel((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '1000' });
      res.end(bad);
    });
    expect((await rejection(readRecords(client(paged), '/domains', parseDomainRecord))).message).toBe(
      'GET /api/v2/domains: the list looks paged (x-total-count is 1000, the answer has 299 records); only complete lists can be planned on',
    );
  });

  it('stops past --max-answer-mb while streaming, and reads a compressed list', async () => {
    const big = Buffer.from(
      JSON.stringify(
        Array.from({ length: 20_000 }, (_, i) => ({
          id: i + 1,
          username: `user-with-a-long-name-${i}`,
        })),
      ),
    );
    const url = await rawPanel(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await trickle(res, big, 64 * 1024);
    });
    const error = await rejection(readList(client(url, { maxAnswerMb: 1 }), '/clients'));
    expect(error).toMatchObject({
      code: 'panel_contract',
      message: 'GET /api/v2/clients: the answer is larger than 1 MB; it was not read to its end',
    });
    const gzipped = await rawPanel((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(BODY));
    });
    expect(await readList(client(gzipped), '/domains')).toEqual(DOMAINS);
  });

  it('a list wrapped in an object, HTML and an error status are read whole, as before', async () => {
    const wrapped = await rawPanel((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`\uFEFF {"data": ${BODY.toString()}}`);
    });
    expect(await readRecords(client(wrapped), '/domains', parseDomainRecord)).toHaveLength(DOMAINS.length);
    const html = await rawPanel((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('[not a list]');
    });
    expect((await rejection(readList(client(html), '/domains'))).message).toBe(
      'GET /api/v2/domains: 200 answered HTML, not JSON',
    );
    const refused = await rawPanel((res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end('[{"message": "no"}]');
    });
    expect(await rejection(readList(client(refused), '/domains'))).toMatchObject({ status: 403 });
  });
});

describe('an element of a list is named only when its record is refused', () => {
  const bad = Buffer.from(JSON.stringify([...DOMAINS.slice(0, 3), { id: 4, id_user: 7 }, ...DOMAINS.slice(4, 9)]));
  const bodies: [string, (res: ServerResponse) => Promise<void> | void][] = [
    [
      'streamed',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        return trickle(res, bad, 50);
      },
    ],
    [
      'read whole',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bad.length) });
        res.end(bad);
      },
    ],
    [
      'wrapped in an object',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"data": ${bad.toString()}}`);
      },
    ],
    [
      'compressed',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(bad));
      },
    ],
  ];

  it.each(bodies)(
    "%s: element 3 is named [3]; the parser is handed the list's name for the others",
    async (_, answer) => {
      const url = await rawPanel(answer);
      const seen: string[] = [];
      const error = await rejection(
        readRecords(client(url), '/domains', (value, where) => {
          seen.push(where);
          return parseDomainRecord(value, where);
        }),
      );
      expect(error.message).toBe('GET /api/v2/domains[3]: "domain" must be a non-empty string, got nothing');
      // Its exact name is made for element 3 alone, once the list's name was refused.
      const list = 'GET /api/v2/domains';
      expect(seen.slice(0, 5)).toEqual([list, list, list, list, `${list}[3]`]);
    },
  );
});
