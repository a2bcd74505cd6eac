export const TRADE_EVENT_NAMES = ['OrderTradeEvent', 'TradeDataUpdateEvent'] as const;
export type TradeEventName = (typeof TRADE_EVENT_NAMES)[number];

/**
 * Every setting of the sandbox exchange, read from the environment by `loadSandboxConfig`, in the
 * order of the package README's table. The defaults run it on a laptop with the built-in markets.
 */
export class SandboxConfig {
  /** Address the sandbox binds to, unless SANDBOX_HOST is set. */
  HOST = '0.0.0.0';

  /** Address the sandbox binds to, instead of HOST: a sandbox beside a gateway keeps its own. */
  SANDBOX_HOST?: string = undefined;

  /** Port of every interface; 0 lets the system choose one. */
  SANDBOX_PORT = 4000;

  /** The same seed gives the same markets, orders and trades. */
  SANDBOX_SEED = 1;

  /** JSON file of markets; unset uses the built-in set. */
  SANDBOX_MARKETS_FILE?: string = undefined;

  /** Generate this many markets instead of the built-in set (scale tests). */
  SANDBOX_MARKET_COUNT?: number = undefined;

  /** JSON file of users; unset uses the demo user. */
  SANDBOX_USERS_FILE?: string = undefined;

  /** Synthetic orders per second per market. */
  SANDBOX_FLOW_RATE = 4;

  /** Hours of trade history generated at start. */
  SANDBOX_HISTORY_HOURS = 24;

  /**
   * Synthetic orders per second per market during the history; unset, a sparse history (360 an hour,
   * within a budget for all markets). At the flow rate, the 24-hour window starts as full as it stays.
   */
  SANDBOX_HISTORY_RATE?: number = undefined;

  /** Name of the websocket gateway's public trade event. */
  SANDBOX_TRADE_EVENT: TradeEventName = 'OrderTradeEvent';

  /** Interval of the hubs' keep-alive pings; a connection silent for twice this long is closed. */
  SANDBOX_KEEPALIVE_MS = 15_000;

  /** Enforce the exchange's REST rate limits (1 rps /frontoffice/, 2 rps /marketdata/). */
  SANDBOX_RATE_LIMITS = true;
}
