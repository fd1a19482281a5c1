/** A remote host: an IP address, a CIDR network or a host name, in one form for comparing; anything else refused with what to write. */
import { describe, expect, it } from 'vitest';
import { hostSet, normalizeRemoteHost, sameHosts } from '../../../src/kinds/database/index.js';

function host(text: string): string {
  const read = normalizeRemoteHost(text);
  return 'host' in read ? read.host : `problem: ${read.problem}`;
}

describe('a remote host', () => {
  it('takes addresses, networks and host names in comparison form', () => {
    expect(host('192.0.2.10')).toBe('192.0.2.10');
    expect(host('192.0.2.0/24')).toBe('192.0.2.0/24');
    expect(host('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(host('2001:DB8:0::1')).toBe('2001:db8::1');
    expect(host('2001:db8::/32')).toBe('2001:db8::/32');
    expect(host('DB.Example.net')).toBe('db.example.net');
    expect(host('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('refuses what is none, saying what to write', () => {
    expect(host('192.0.2.5/24')).toBe(
      "problem: has bits set past its prefix: write the network's first address, 192.0.2.0/24",
    );
    expect(host('192.0.2.0/33')).toContain('prefix length over 32');
    expect(host('2001:db8::/129')).toContain('prefix length over 128');
    expect(host('db.example/24')).toContain('is not a network');
    expect(host('10.0.0.0/x')).toContain('is not a number');
    expect(host('%')).toContain('wildcard');
    expect(host('localhost')).toContain('needs at least two labels');
    expect(host('localhost')).toContain('[] allows local connections only');
    expect(host('')).toContain('is empty');
    expect(host(' 10.0.0.1')).toBe('problem: has spaces around it');
    expect(host('256.1.1.1')).toContain('is not a remote host');
  });

  it('compares lists as sets', () => {
    expect(hostSet(['b.example', 'a.example', 'b.example'])).toEqual(['a.example', 'b.example']);
    expect(sameHosts(['10.0.0.1', 'a.example'], ['a.example', '10.0.0.1'])).toBe(true);
    expect(sameHosts(['10.0.0.1'], ['10.0.0.1', 'a.example'])).toBe(false);
  });
});
