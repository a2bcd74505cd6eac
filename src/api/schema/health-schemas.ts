import { Type } from '@sinclair/typebox';

/** Liveness and readiness bodies, for probes. */

export const Liveness = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

export const ReadinessCheck = Type.Object(
  {
    ready: Type.Boolean({ description: 'this check passes' }),
    reason: Type.Optional(Type.String({ description: 'why it does not, when that is one sentence' })),
  },
  {
    description: "one role's check (api: data loaded and fresh; ingest: every owned book live); details vary",
    additionalProperties: true,
  },
);

export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
    sandbox: Type.Optional(
      Type.Literal(true, {
        description: 'present when the data comes from the built-in sandbox exchange: simulated prices',
      }),
    ),
    store: Type.Object(
      {
        reachable: Type.Boolean({ description: 'the state store answered' }),
        latencyMs: Type.Optional(
          Type.Number({ minimum: 0, description: "the store's answer time, milliseconds" }),
        ),
        error: Type.Optional(Type.String({ description: 'why it did not answer' })),
      },
      { additionalProperties: false },
    ),
  },
  {
    description: "the store's health and one entry per check of the process's roles (api, ingest, shutdown)",
    additionalProperties: ReadinessCheck,
    examples: [
      {
        status: 'ready',
        store: { reachable: true, latencyMs: 0 },
        ingest: { ready: true, instruments: 9, notLive: [], replicas: 1, unowned: 0 },
        api: { ready: true, dataAgeMs: 295, storeReadable: true },
      },
    ],
  },
);

export const HEALTH_SCHEMAS = { Liveness, ReadinessCheck, Readiness };
