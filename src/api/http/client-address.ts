import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';

/** Whether the peer at `hop` (0: the socket's peer) is a proxy whose `X-Forwarded-For` is believed. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * `TRUST_PROXY`: `false` believes no proxy (the client is the socket's peer); `true` every one; a
 * number that many hops (1: the ingress in front); else a comma-separated list of addresses, CIDR
 * ranges or `loopback`, `linklocal`, `uniquelocal`. Undefined when no proxy is trusted.
 */
export function proxyTrust(setting: string): ProxyTrust | undefined {
  const value = setting.trim().toLowerCase();
  if (value === '' || value === 'false') return undefined;
  if (value === 'true') return () => true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops === 0 ? undefined : (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(value.split(',').map((entry) => entry.trim()));
}

/**
 * The client's address as Fastify's `request.ip` gives it under the same trust: the same function is
 * handed to Fastify as its `trustProxy`, so that both ways of serving key the rate limit alike.
 */
export function clientAddress(trust: ProxyTrust | undefined): (request: IncomingMessage) => string {
  if (!trust) return (request) => request.socket.remoteAddress ?? '';
  return (request) => proxyAddr(request, trust);
}
