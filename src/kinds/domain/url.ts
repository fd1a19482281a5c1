/**
 * What a redirect's URL may hold beyond being an absolute http(s) URL (settings.ts isHttpUrl):
 * only what RFC 3986 lets stand unencoded, less `;`, and no user info. The panel writes the URL
 * into a web server's configuration, where `"`, `<`, `>`, a backtick, `|`, `;`, `\` or `%{...}`
 * may mean something else than a URL (a quote's end, a variable), and a name or password before
 * `@` is a credential in every log, or a way to dress one host as another
 * (`https://bank.example@evil.example/`). Pure.
 */
import { quote } from '../../escape.js';

/** What is wrong with a URL, and the URL to write instead (undefined when none can be offered). */
export interface UrlProblem {
  /** Follows "the URL": `carries user info (...)`, `holds characters a URL needs percent-encoded (" <)`. */
  readonly what: string;
  readonly instead: string | undefined;
}

/** The characters that may stand unencoded after the host: unreserved, gen-delims but `[ ]`, sub-delims but `;`. */
const PLAIN = /^[A-Za-z0-9\-._~:/?#@!$&'()*+,=]$/;
/** A host as a URL may name it: a name or IPv4 address, or an IPv6 address in brackets, with a port. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]*)?$/;

/**
 * Why `url` (an absolute http(s) URL: isHttpUrl holds) cannot be a redirect's target, or
 * undefined when it can. Characters that need percent-encoding (non-ASCII ones too, and a `%`
 * not followed by two hex digits) are named once each; `instead` has them encoded and the user
 * info left out. An international host is not a problem: domain names are written in Unicode
 * everywhere in a manifest.
 */
export function redirectUrlProblem(url: string): UrlProblem | undefined {
  const parts = /^(https?:\/\/)([^/?#\\]*)([\s\S]*)$/i.exec(url);
  if (parts === null) return undefined; // not an http(s) URL: isHttpUrl says so
  const [, scheme = '', authority = '', rest = ''] = parts;
  const at = authority.lastIndexOf('@');
  const host = authority.slice(at + 1);
  const bad = new Set<string>();
  let encoded = '';
  for (let i = 0; i < rest.length;) {
    const char = String.fromCodePoint(rest.codePointAt(i) ?? 0);
    i += char.length;
    if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(rest.slice(i, i + 2))) encoded += char;
    else if (PLAIN.test(char)) encoded += char;
    else {
      bad.add(char);
      encoded += percentEncoded(char);
    }
  }
  const problems: string[] = [];
  if (at !== -1) problems.push('carries user info (a name or password before "@" in front of the host)');
  if (bad.size > 0) problems.push(`holds characters a URL needs percent-encoded (${[...bad].map(shown).join(', ')})`);
  if (problems.length === 0) return undefined;
  // A path must start with "/" right after the host: else what follows could read as the host again.
  const path = encoded === '' || /^[/?#]/.test(encoded) ? encoded : `/${encoded}`;
  // An international host is taken as written (domain names are, everywhere in a manifest).
  const instead = HOST.test(host) || hostInAscii(host) !== undefined ? `${scheme}${host}${path}` : undefined;
  return { what: problems.join(', and '), instead };
}

/** An international host in its ASCII (punycode) form; undefined when it is no host. */
function hostInAscii(host: string): string | undefined {
  try {
    const ascii = new URL(`http://${host}/`).host;
    return HOST.test(ascii) ? ascii : undefined;
  } catch {
    return undefined;
  }
}

/** `%22`, or the UTF-8 bytes of a character outside ASCII (`%C3%BC`). */
function percentEncoded(char: string): string {
  return [...new TextEncoder().encode(char)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A character as a message names it: printable ASCII as it is, any other as its code point. */
function shown(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '%') return '% not before two hex digits';
  return code > 0x20 && code < 0x7f ? char : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why a panel's redirect URL cannot be written in a manifest, as export's warning says it (with
 * the encoded URL a person may write instead); undefined when it can.
 */
export function unsafeTarget(url: string): string | undefined {
  const problem = redirectUrlProblem(url);
  if (problem === undefined) return undefined;
  return `a target that ${problem.what}${problem.instead === undefined ? '' : ` (encoded: ${quote(problem.instead)})`}`;
}
