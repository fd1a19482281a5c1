import { ProvisionError } from '../errors.js';

/**
 * The proxies for this panel from an environment, as EnvHttpProxyAgent takes them ('' = none,
 * so that undici does not fall back to process.env), and `used`: the proxy this panel's
 * requests go through, credentials removed, or undefined when NO_PROXY exempts it.
 */
export function proxySettings(env: Readonly<Record<string, string | undefined>>, panel: URL): { http: string; https: string; noProxy: string; used: string | undefined } {
  const pick = (name: string): string => (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '').trim();
  const http = pick('http_proxy');
  const https = pick('https_proxy');
  const noProxy = pick('no_proxy');
  for (const [name, value] of [['HTTP_PROXY', http], ['HTTPS_PROXY', https]] as const) {
    if (value !== '' && !/^https?:\/\/[^/]/i.test(value)) {
      // The value is not echoed: a proxy URL may carry a password.
      throw new ProvisionError('usage', `${name} (or its lowercase form) is not an http:// or https:// URL`, {
        hint: 'set it like http://proxy.example:3128 (user:password@ allowed), or unset it',
      });
    }
  }
  const chosen = panel.protocol === 'https:' ? https || http : http;
  const used = chosen === '' || exempt(noProxy, panel) ? undefined : withoutCredentials(chosen);
  return { http, https, noProxy, used };
}

/** NO_PROXY as undici reads it: '*', hosts, '.suffix' or '*.suffix', optional ':port'. */
function exempt(noProxy: string, panel: URL): boolean {
  const host = panel.hostname.toLowerCase();
  const port = Number(panel.port) || (panel.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    if (entry === '*') return true;
    const match = /^(.+):(\d+)$/.exec(entry);
    const name = (match?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    if (match?.[2] !== undefined && Number(match[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

function withoutCredentials(proxy: string): string {
  try {
    const url = new URL(proxy);
    return url.origin;
  } catch {
    return 'an unreadable proxy URL';
  }
}
