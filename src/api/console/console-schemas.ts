import { Static, TSchema, Type } from '@sinclair/typebox';

/**
 * The bodies the console's feeds send (`/console/feed`, `/status/feed`) and its market data
 * (`/console/market-data/{instrument}`). The server builds them as these types and the console
 * page reads them as the same types, imported for their types only (the page bundle holds no
 * TypeBox).
 */

/** `schema` or JSON null. */
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const millis = (description?: string) =>
  Type.Integer({ minimum: 0, ...(description ? { description } : {}) });

export const ConsoleEventSchema = Type.Object({
  at: millis('Unix milliseconds when this process observed it'),
  kind: Type.Union([
    Type.Literal('sync'),
    Type.Literal('upstream'),
    Type.Literal('ownership'),
    Type.Literal('store'),
  ]),
  market: Type.Optional(
    Type.String({
      description:
        'the market it concerns, as /summary keys it (BTC_USDT); absent for the process as a whole',
    }),
  ),
  message: Type.String(),
  incident: nullable(Type.Union([Type.Literal('began'), Type.Literal('ended')])),
});

export const ConsoleMarketRowSchema = Type.Object({
  market: Type.String({ description: 'as /summary keys it: BTC_USDT' }),
  instrument: Type.String(),
  base: Type.String({ description: "the asset's code, upper case: the unit the page writes amounts in" }),
  quote: Type.String(),
  status: Type.String(),
  syncState: Type.String(),
  bookVersion: nullable(Type.Integer()),
  dataAgeMs: nullable(Type.Number()),
  lastTradeAgeMs: nullable(Type.Number()),
  lastPrice: nullable(Type.String({ description: "as /summary writes it: at the market's price scale" })),
  bestBid: nullable(Type.String()),
  bestAsk: nullable(Type.String()),
  spreadPercent: nullable(Type.String()),
  depthPlus2PercentUsd: nullable(Type.String()),
  depthMinus2PercentUsd: nullable(Type.String()),
  quoteVolume24h: Type.String(),
  quoteVolume24hUsd: nullable(Type.String()),
  trades24h: Type.Integer({ minimum: 0 }),
  flags: Type.Array(Type.String()),
  owner: nullable(
    Type.String({
      description:
        "the ingest replica holding the instrument's lease; null when nobody does or it is not known",
    }),
  ),
});

export const FreshnessSampleSchema = Type.Object({
  at: millis(),
  maxDataAgeMs: nullable(
    Type.Number({
      description:
        'the oldest data age of the listed markets (how long ago each book was last known current)',
    }),
  ),
  fresh: Type.Integer({
    description: 'listed markets whose book is live and younger than the staleness bound (60 s), out of markets',
  }),
  markets: Type.Integer(),
});

export const RestBudgetRowSchema = Type.Object({
  family: Type.String(),
  limit: Type.Number(),
  counting: Type.Number(),
  waiting: Type.Number(),
  scope: Type.String({
    description: "deployment: every replica's requests (the budget shared in Redis); process: this one's",
  }),
});

export const ConsoleReplicasSchema = Type.Object({
  leased: Type.Boolean({
    description: 'false when the store keeps no leases (memory): this one process ingests everything',
  }),
  ingest: Type.Array(Type.Object({ id: Type.String(), expiresInMs: Type.Number(), owns: Type.Integer() })),
  api: Type.Array(Type.Object({ id: Type.String(), role: Type.String(), self: Type.Literal(true) }), {
    description: 'API replicas register nowhere (they only read): each API replica names only itself',
  }),
  error: nullable(Type.String({ description: 'why the leases could not be read, when they could not' })),
});

export const ConsoleSnapshotSchema = Type.Object({
  view: Type.Literal('console'),
  generatedAt: millis(),
  staleAfterMs: millis(),
  sandbox: Type.Boolean({
    description: 'the data comes from the built-in sandbox exchange: simulated prices',
  }),
  store: Type.Object({
    reachable: Type.Boolean(),
    kind: Type.Union([Type.Literal('redis'), Type.Literal('memory')]),
  }),
  markets: Type.Array(ConsoleMarketRowSchema),
  upstream: nullable(Type.Array(Type.Object({ name: Type.String(), state: Type.String() }))),
  restBudget: nullable(Type.Array(RestBudgetRowSchema)),
  replicas: ConsoleReplicasSchema,
  events: Type.Array(ConsoleEventSchema),
  freshness: Type.Array(FreshnessSampleSchema),
});

export const StatusMarketSchema = Type.Object({
  market: Type.String(),
  state: Type.Union([Type.Literal('live'), Type.Literal('stale')]),
  dataAgeMs: nullable(Type.Number()),
});

export const StatusIncidentSchema = Type.Object({
  at: millis(),
  market: nullable(Type.String()),
  message: Type.String(),
});

export const StatusSnapshotSchema = Type.Object({
  view: Type.Literal('status'),
  generatedAt: millis(),
  sandbox: Type.Boolean({
    description: 'the data comes from the built-in sandbox exchange: simulated prices',
  }),
  markets: Type.Array(StatusMarketSchema),
  incidents: Type.Array(StatusIncidentSchema),
});

/** `[price, amount]` in the listing endpoints' published form. */
export const LevelSchema = Type.Array(Type.String(), { minItems: 2, maxItems: 2 });

export const MarketDetailSchema = Type.Object({
  market: Type.String(),
  base: Type.String(),
  quote: Type.String(),
  version: nullable(Type.Integer()),
  bids: Type.Array(LevelSchema),
  asks: Type.Array(LevelSchema),
  trades: Type.Array(
    Type.Object({
      id: Type.String(),
      price: Type.String(),
      amount: Type.String(),
      side: Type.String(),
      time: millis(),
    }),
  ),
});

/** A body as both sides hold it: read-only all the way down. */
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

export type ConsoleEvent = Frozen<Static<typeof ConsoleEventSchema>>;
export type ConsoleMarketRow = Frozen<Static<typeof ConsoleMarketRowSchema>>;
export type FreshnessSample = Frozen<Static<typeof FreshnessSampleSchema>>;
export type RestBudgetRow = Frozen<Static<typeof RestBudgetRowSchema>>;
export type ConsoleReplicas = Frozen<Static<typeof ConsoleReplicasSchema>>;
export type ConsoleSnapshot = Frozen<Static<typeof ConsoleSnapshotSchema>>;
export type StatusMarket = Frozen<Static<typeof StatusMarketSchema>>;
export type StatusIncident = Frozen<Static<typeof StatusIncidentSchema>>;
export type StatusSnapshot = Frozen<Static<typeof StatusSnapshotSchema>>;
/** `[price, amount]`; a tuple to the type checker, two strings to the schema. */
export type Level = readonly [price: string, amount: string];
export type MarketDetail = Omit<Frozen<Static<typeof MarketDetailSchema>>, 'bids' | 'asks'> & {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
};
