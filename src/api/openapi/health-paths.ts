import type { SchemaObject } from '@nestjs/swagger';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { HEALTH_ERRORS, NO_STORE_HEADERS } from './responses';

/** Liveness, readiness and metrics, for probes and Prometheus. */

const LIVE: SchemaObject = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['ok'] } },
};

const CHECK: SchemaObject = {
  type: 'object',
  description: "one role's check (api: data loaded and fresh; ingest: every owned book live); details vary",
  required: ['ready'],
  additionalProperties: true,
  properties: {
    ready: { type: 'boolean', description: 'this check passes' },
    reason: { type: 'string', description: 'why it does not, when that is one sentence' },
  },
};

const READINESS: SchemaObject = {
  type: 'object',
  description: "the store's health and one entry per check of the process's roles (api, ingest, shutdown)",
  required: ['status', 'store'],
  properties: {
    status: { type: 'string', enum: ['ready', 'not ready'] },
    sandbox: {
      type: 'boolean',
      enum: [true],
      description: 'present when the data comes from the built-in sandbox exchange: simulated prices',
    },
    store: {
      type: 'object',
      required: ['reachable'],
      additionalProperties: false,
      properties: {
        reachable: { type: 'boolean', description: 'the state store answered' },
        latencyMs: { type: 'number', minimum: 0, description: "the store's answer time, milliseconds" },
        error: { type: 'string', description: 'why it did not answer' },
      },
    },
  },
  additionalProperties: schemaRef('ReadinessCheck'),
  example: {
    status: 'ready',
    store: { reachable: true, latencyMs: 0 },
    ingest: { ready: true, instruments: 9, notLive: [], replicas: 1, unowned: 0 },
    api: { ready: true, dataAgeMs: 295, storeReadable: true },
  },
};

const readinessContent = { 'application/json': { schema: schemaRef('Readiness') } };

export const HEALTH: EndpointFamily = {
  tag: { name: 'health', description: 'Probes and metrics; no rate limit' },
  schemas: { Liveness: LIVE, ReadinessCheck: CHECK, Readiness: READINESS },
  paths: {
    '/health/live': {
      get: {
        operationId: 'healthLive',
        tags: ['health'],
        summary: 'The process answers',
        responses: {
          '200': { description: 'alive', content: { 'application/json': { schema: schemaRef('Liveness') } } },
          ...HEALTH_ERRORS,
        },
      },
    },
    '/health/ready': {
      get: {
        operationId: 'healthReady',
        tags: ['health'],
        summary: "The store answers and every check of the process's roles passes",
        responses: {
          '200': { description: 'ready', headers: NO_STORE_HEADERS, content: readinessContent },
          ...HEALTH_ERRORS,
          '503': {
            description:
              'not ready (also from the start of a shutdown on): the same body, `status` "not ready"',
            headers: NO_STORE_HEADERS,
            content: readinessContent,
          },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['health'],
        summary: 'Prometheus metrics in the text exposition format',
        responses: {
          '200': {
            description: 'the metrics',
            headers: NO_STORE_HEADERS,
            content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
          },
          '405': HEALTH_ERRORS['405'],
          '413': HEALTH_ERRORS['413'],
          '414': HEALTH_ERRORS['414'],
        },
      },
    },
  },
};
