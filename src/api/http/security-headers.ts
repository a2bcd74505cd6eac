import type { FastifyInstance } from 'fastify';
import type { ApiReply } from './api-http';

/**
 * Sent with every response. The API serves JSON only, so the policy allows nothing to load or
 * frame it. HSTS is left to the TLS-terminating ingress: this server speaks plain HTTP behind it.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

/** The OpenAPI page at `/docs` runs scripts and styles of its own, which the strict policy would block. */
const DOCS_PAGE = /^\/docs(\/|$|\?)/;
const FOR_DOCS_PAGE = Object.fromEntries(
  Object.entries(SECURITY_HEADERS).filter(([name]) => name !== 'content-security-policy'),
);

/** The security headers of the response to `url`; Fastify's hook and the fast path both add them here. */
export function addSecurityHeaders(url: string, reply: ApiReply): void {
  reply.headers(DOCS_PAGE.test(url) ? FOR_DOCS_PAGE : SECURITY_HEADERS);
}

/** Adds the security headers to everything Fastify answers. */
export function applySecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    addSecurityHeaders(request.url, reply);
    done();
  });
}
