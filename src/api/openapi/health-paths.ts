import { HEALTH_SCHEMAS } from '../schema/health-schemas';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { HEALTH_ERRORS, NO_STORE_HEADERS } from './responses';

/** Liveness, readiness and metrics, for probes and Prometheus. */

const readinessContent = { 'application/json': { schema: schemaRef('Readiness') } };
export const HEALTH: EndpointFamily = {
  tag: { name: 'health', description: 'Probes and metrics; no rate limit' },
  schemas: HEALTH_SCHEMAS,
  paths: {
    '/health/live': {
      get: {
        operationId: 'healthLive',
        tags: ['health'],
        summary: 'The process answers',
        description:
          'For liveness probes: a 200 as long as the process serves HTTP, whatever the state of the store or the exchange.',
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
        description:
          'For readiness probes: 200 when ready, 503 with the same body when not; the body says which check fails.',
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
        description: "For Prometheus: the process's counters, gauges and histograms.",
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
