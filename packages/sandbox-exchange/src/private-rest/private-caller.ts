import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ExactJson } from '../wire/exact-json';
import { SandboxUser } from '../users/sandbox-user';

/** A private request once its signature, `ts` and `nonce` passed. */
export interface AuthenticatedRequest extends FastifyRequest {
  rawBody?: Buffer;
  /** The owner of the `Key`. */
  privateCaller?: SandboxUser;
  /** A POST body parsed with every number as the exact text sent. */
  exactBody?: ExactJson;
}

/** The user a private request was signed by (set by PrivateAuthGuard). */
export const PrivateCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): SandboxUser => {
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().privateCaller;
    if (!user) throw new Error('PrivateCaller used on a route without PrivateAuthGuard');
    return user;
  },
);

/** The POST body with exact numbers (set by PrivateAuthGuard). */
export const ExactBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ExactJson | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().exactBody,
);
