import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { PanelClient, proxySettings } from '../../src/panel/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { PROXIED_HOST, proxiedUrl, startTestProxy, type TestProxy } from '../helpers/proxy.js';
import { API_KEY } from '../helpers/key.js';
import { client, rejection } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

/** A private CA and a server certificate it signed for 127.0.0.1, made with openssl. */
interface Pki {
  readonly dir: string;
  readonly caFile: string;
  readonly key: Buffer;
  readonly cert: Buffer;
}

let pki: Pki | undefined;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tls-test-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  try {
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=Test Panel CA',
    ]);
    openssl([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      '/CN=127.0.0.1',
    ]);
    await writeFile(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:panel.test\n');
    openssl([
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.pem'),
      '-days',
      '1',
      '-extfile',
      file('ext.cnf'),
    ]);
  } catch (err) {
    // .ci/run installs openssl; without it these tests must fail, not pass silently.
    throw new Error(`openssl is needed to make the test certificates: ${String(err)}`);
  }
  pki = {
    dir,
    caFile: file('ca.pem'),
    key: await readFile(file('server.key')),
    cert: await readFile(file('server.pem')),
  };
});

afterAll(async () => {
  if (pki !== undefined) await rm(pki.dir, { recursive: true, force: true });
});

/** A simulator serving HTTPS with the test certificate, closed after the test. */
function httpsSim(): Promise<Simulator> {
  if (pki === undefined) throw new Error('no certificates');
  return sim({ tls: { key: pki.key, cert: pki.cert } });
}

/** A proxy on loopback, closed after the test. */
async function startProxy(): Promise<TestProxy> {
  const proxy = await startTestProxy();
  onTestFinished(proxy.close);
  return proxy;
}

describe('TLS against the simulator serving HTTPS', () => {
  test('verified by default: a private CA is refused, with a hint naming --ca-file', async () => {
    const simulator = await httpsSim();
    expect(simulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    const error = await rejection(client(simulator.url).get('/ping'));
    expect(error.code).toBe('panel_unreachable');
    expect(error.message).toMatch(
      /^GET https:\/\/127\.0\.0\.1:\d+\/api\/v2\/ping: the panel's TLS certificate is not accepted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)$/,
    );
    expect(error.hint).toMatch(/--ca-file/);
    // A certificate failure is not transient: one attempt only.
    expect(simulator.requests).toHaveLength(0);
  });

  test('a private CA is trusted when given; insecure skips verification', async () => {
    const simulator = await httpsSim();
    expect(await client(simulator.url, { ca: await readFile(pki?.caFile ?? '', 'utf8') }).get('/ping')).toEqual({
      response: 'pong',
    });
    expect(await client(simulator.url, { insecure: true }).get('/ping')).toEqual({
      response: 'pong',
    });
    expect(simulator.requests).toHaveLength(2);
  });

  test('the CA of another panel is not enough', async () => {
    const simulator = await httpsSim();
    const other = join(pki?.dir ?? '', 'other.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(pki?.dir ?? '', 'other.key'),
        '-out',
        other,
        '-days',
        '1',
        '-subj',
        '/CN=Other CA',
      ],
      { stdio: 'ignore' },
    );
    expect((await rejection(client(simulator.url, { ca: await readFile(other, 'utf8') }).get('/ping'))).hint).toMatch(
      /--ca-file/,
    );
  });
});

describe('proxies from the injected environment', () => {
  test('HTTP_PROXY carries requests to an http:// panel; process.env is not read', async () => {
    const proxy = await startProxy();
    const simulator = await sim();
    const url = proxiedUrl(simulator.url);
    const panel = client(url, { proxyEnv: { HTTP_PROXY: proxy.url } });
    expect(panel.proxy).toBe(proxy.url);
    expect(await panel.get('/ping')).toEqual({ response: 'pong' });
    expect(proxy.used).toEqual([`CONNECT ${PROXIED_HOST}:${new URL(simulator.url).port}`]);
    // Without proxyEnv, no proxy, whatever process.env says.
    process.env.HTTP_PROXY = proxy.url;
    try {
      const direct = client(simulator.url);
      expect(direct.proxy).toBeUndefined();
      await direct.get('/ping');
    } finally {
      delete process.env.HTTP_PROXY;
    }
    expect(proxy.used).toHaveLength(1);
  });

  test('a loopback panel is never proxied; NO_PROXY exempts the panel', async () => {
    const proxy = await startProxy();
    const simulator = await sim();
    const loopback = client(simulator.url, { proxyEnv: { http_proxy: proxy.url } });
    expect(loopback.proxy).toBeUndefined();
    expect(await loopback.get('/ping')).toEqual({ response: 'pong' });
    const exempt = client(proxiedUrl(simulator.url), {
      proxyEnv: { http_proxy: proxy.url, NO_PROXY: 'example.org, .test' },
    });
    expect(exempt.proxy).toBeUndefined();
    expect(proxy.used).toEqual([]);
    expect(simulator.requests).toHaveLength(1);
  });

  test('HTTPS_PROXY tunnels to an https:// panel; the CA and insecure still apply inside the tunnel', async () => {
    const proxy = await startProxy();
    const simulator = await httpsSim();
    const port = new URL(simulator.url).port;
    const url = proxiedUrl(simulator.url);
    const env = { HTTPS_PROXY: proxy.url };
    expect(await client(url, { proxyEnv: env, ca: await readFile(pki?.caFile ?? '', 'utf8') }).get('/ping')).toEqual({
      response: 'pong',
    });
    expect(proxy.used).toEqual([`CONNECT ${PROXIED_HOST}:${port}`]);
    const refused = await rejection(client(url, { proxyEnv: env }).get('/ping'));
    expect(refused.hint).toMatch(/--ca-file/);
    expect(await client(url, { proxyEnv: env, insecure: true }).get('/ping')).toEqual({
      response: 'pong',
    });
    expect(proxy.used).toHaveLength(3);
  });

  test('a proxy that is down is a clear panel_unreachable error', async () => {
    const simulator = await sim();
    const error = await rejection(
      client(proxiedUrl(simulator.url), {
        proxyEnv: { HTTP_PROXY: 'http://127.0.0.1:1' },
        retryBudgetMs: 0,
      }).get('/ping'),
    );
    expect(error.code).toBe('panel_unreachable');
    expect(error.hint).toMatch(/HTTPS_PROXY/);
  });

  test('proxySettings: lowercase wins, https falls back to the http proxy, NO_PROXY forms, credentials never shown', () => {
    const panel = new URL('https://panel.example.com:8443/api/v2');
    expect(proxySettings({ https_proxy: 'http://a:3128', HTTPS_PROXY: 'http://b:3128' }, panel).used).toBe(
      'http://a:3128',
    );
    expect(proxySettings({ HTTP_PROXY: 'http://user:pw@proxy:3128' }, panel).used).toBe('http://proxy:3128');
    expect(proxySettings({ HTTPS_PROXY: 'http://p:1' }, new URL('http://panel.example.com/')).used).toBeUndefined();
    for (const noProxy of ['*', '.example.com', 'example.com', '*.example.com', 'panel.example.com:8443']) {
      expect(proxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy }, panel).used).toBeUndefined();
    }
    for (const noProxy of ['panel.example.com:443', 'other.example.com', 'ample.com']) {
      expect(proxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy }, panel).used).toBe('http://p:1');
    }
    // The credentials stay in the URL the pool uses, and only there.
    expect(proxySettings({ HTTPS_PROXY: 'http://user:pw@proxy:3128' }, panel)).toEqual({
      url: 'http://user:pw@proxy:3128',
      used: 'http://proxy:3128',
    });
  });

  test('proxySettings: loopback never proxied; NO_PROXY as curl reads it (CIDR, IPv6, suffixes, ports)', () => {
    const env = { HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://p:1' };
    for (const loopback of [
      'http://127.0.0.1:8080',
      'http://127.3.2.1',
      'http://localhost:1',
      'http://[::1]:80',
      'https://localhost',
    ]) {
      expect(proxySettings(env, new URL(loopback)).url, loopback).toBeUndefined();
    }
    const via = (url: string, noProxy: string): string | undefined =>
      proxySettings({ ...env, NO_PROXY: noProxy }, new URL(url)).used;
    expect(via('http://10.1.2.3', '10.0.0.0/8')).toBeUndefined();
    expect(via('http://10.1.2.3', '10.1.2.3')).toBeUndefined();
    expect(via('http://10.1.2.3:8080', '10.1.2.3:8080')).toBeUndefined();
    expect(via('http://10.1.2.3', '10.1.2.3:8080')).toBe('http://p:1');
    expect(via('http://11.1.2.3', '10.0.0.0/8')).toBe('http://p:1');
    expect(via('http://192.168.1.9', '192.168.0.0/16 172.16.0.0/12')).toBeUndefined();
    expect(via('http://[fd00::5]', 'fd00::/8')).toBeUndefined();
    expect(via('http://[fd00::5]:81', '[fd00::5]:81')).toBeUndefined();
    expect(via('http://[fe80::5]', 'fd00::/8')).toBe('http://p:1');
    // A range never matches a name, and a bad range matches nothing.
    expect(via('http://panel.example', '0.0.0.0/0')).toBe('http://p:1');
    expect(via('http://10.1.2.3', '10.0.0.0/99')).toBe('http://p:1');
    expect(via('http://Panel.Example.COM', 'EXAMPLE.com')).toBeUndefined();
    expect(via('http://panel.example', '')).toBe('http://p:1');
  });

  test('a proxy variable that is not a URL is a usage error that does not echo it', () => {
    let caught: unknown;
    try {
      new PanelClient({
        baseUrl: 'https://panel.example/api/v2',
        apiKey: API_KEY,
        proxyEnv: { HTTPS_PROXY: 'user:hunter2@proxy:3128' },
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      code: 'usage',
      message: 'HTTPS_PROXY (or its lowercase form) is not an http:// or https:// URL',
    });
    expect(JSON.stringify(caught)).not.toContain('hunter2');
  });
});
