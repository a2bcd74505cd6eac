export const TRADE_EVENT_NAMES = ['OrderTradeEvent', 'TradeDataUpdateEvent'] as const;
export type TradeEventName = (typeof TRADE_EVENT_NAMES)[number];

/**
 * Every setting of the sandbox exchange, read from the environment by `loadSandboxConfig`, in the
 * order of the package README's table, which `npm run config-table` writes from the doc comments. The defaults run it on a laptop with the built-in markets.
 */
export class SandboxConfig {
  /**
   * Address the sandbox binds to when it runs alone (`ROLE=sandbox`), unless `SANDBOX_HOST` is set;
   * the gateway's HTTP server binds to the same one.
   */
  HOST = '0.0.0.0';

  /**
   * Address the sandbox binds to instead of `HOST`; unset, `HOST` alone and `127.0.0.1` in a gateway's
   * process (`SANDBOX=true`), so that its controls (faults, flow, private REST) are not open to the network.
   */
  SANDBOX_HOST?: string = undefined;

  /** Port of every interface, control API included; `0` lets the system choose one. */
  SANDBOX_PORT = 4000;

  /** The same seed gives the same markets, orders and trades. */
  SANDBOX_SEED = 1;

  /** JSON file of markets (unset: the built-in set, see Markets); checked at start. */
  SANDBOX_MARKETS_FILE?: string = undefined;

  /** Generate this many markets instead of the built-in set (scale tests); not together with a markets file. */
  SANDBOX_MARKET_COUNT?: number = undefined;

  /** JSON file of users (unset: the demo user, see Users); checked at start. */
  SANDBOX_USERS_FILE?: string = undefined;

  /** Synthetic orders per second per market. */
  SANDBOX_FLOW_RATE = 4;

  /**
   * Hours of trade history generated at start (0 to 336, two weeks); the REST candles reach that far
   * back, `/sandbox/truth` gives the last 24 hours.
   */
  SANDBOX_HISTORY_HOURS = 24;

  /**
   * Synthetic orders per second per market during the history; unset, a sparse history (360 an hour,
   * within a budget for all markets that the last 24 hours draw on first). At the flow rate, the
   * 24-hour window starts as full as it stays.
   */
  SANDBOX_HISTORY_RATE?: number = undefined;

  /** Name of the websocket gateway's public trade event: `OrderTradeEvent` or `TradeDataUpdateEvent`. */
  SANDBOX_TRADE_EVENT: TradeEventName = 'OrderTradeEvent';

  /**
   * Enforce the exchange's REST limits: 1 request/s under `/frontoffice/`, 2 requests/s under
   * `/marketdata/`, per client address.
   */
  SANDBOX_RATE_LIMITS = true;
}
