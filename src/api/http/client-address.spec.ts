import type { IncomingMessage } from 'node:http';
import { clientAddress, proxyTrust } from './client-address';

function request(peer: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
}

describe('clientAddress under TRUST_PROXY', () => {
  const behindIngress = request('10.0.0.5', '203.0.113.9, 198.51.100.7');

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    for (const setting of ['false', '', '0', 'FALSE'])
      expect(clientAddress(proxyTrust(setting))(behindIngress)).toBe('10.0.0.5');
  });

  it('is the address the trusted hops name', () => {
    expect(clientAddress(proxyTrust('1'))(behindIngress)).toBe('198.51.100.7');
    expect(clientAddress(proxyTrust('2'))(behindIngress)).toBe('203.0.113.9');
    expect(clientAddress(proxyTrust('true'))(behindIngress)).toBe('203.0.113.9');
  });

  it('believes only the listed proxies', () => {
    expect(clientAddress(proxyTrust('10.0.0.0/8'))(behindIngress)).toBe('198.51.100.7');
    expect(clientAddress(proxyTrust('10.0.0.0/8, 198.51.100.7'))(behindIngress)).toBe('203.0.113.9');
    expect(clientAddress(proxyTrust('192.168.0.0/16'))(behindIngress)).toBe('10.0.0.5');
  });

  it('refuses a list it cannot read', () => {
    expect(() => proxyTrust('not an address')).toThrow();
  });
});
