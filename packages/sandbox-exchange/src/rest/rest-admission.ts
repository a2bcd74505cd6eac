import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import { SandboxConfig } from '../config/sandbox-config';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { RestCallStats } from './rest-call-stats';
import { RestGate } from './rest-gate';

/**
 * Runs every request of the sandbox's HTTP server through the RestGate as its first step, so that
 * rate limits and REST faults apply to every REST path (unknown ones included) before routing,
 * body parsing or any endpoint, and never to the control endpoints.
 */
@Injectable()
export class RestAdmission implements OnModuleInit {
  private readonly gate: RestGate;

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(SandboxExchange) exchange: SandboxExchange,
    @Inject(RestCallStats) stats: RestCallStats,
    @Inject(SandboxConfig) config: SandboxConfig,
  ) {
    this.gate = new RestGate({ faults: exchange.faults, stats, rateLimits: config.SANDBOX_RATE_LIMITS });
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const refusal = this.gate.check(request.url, request.ip, performance.now());
      if (!refusal) return done();
      // Answering without calling done() ends the request here.
      void reply.status(refusal.status).send(refusal.body);
    });
  }
}
