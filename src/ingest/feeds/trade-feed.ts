import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { DAY_MS } from '../../market/trade-window';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { GatewayMarketData } from '../../upstream/gateway/gateway-market-data';
import { tradesSubscription } from '../../upstream/gateway/market-data-subscriptions';
import { TradeBackfill, TradeRange } from './trade-backfill';

/** Injection token of the `TradeFeed`, or null without a gateway login (the feed needs one). */
export const TRADE_FEED = Symbol('TradeFeed');

export interface TradeFeedListener {
  onTrades(trades: readonly Trade[]): void;
  /** Time of the newest trade already known, so that a fresh snapshot can tell whether it left a gap. */
  newestTradeTime(): number | undefined;
  /**
   * Every trade since the newest one known (on a cold start: of the last 24 hours) has arrived: the
   * subscription's snapshot reached back far enough, or the trade history filled the gap.
   */
  onCaughtUp(): void;
}

export interface TradeFeedSubscription {
  close(): void;
}

export interface TradeFeedOptions {
  /** Trades asked for with every (re)subscription. */
  readonly snapshotCount: number;
  readonly now: () => number;
}

/**
 * Public trades from the gateway (an authenticated connection): SubscribeTrades per instrument, both
 * event names accepted. Every (re)subscription answers with the last trades; when they do not reach
 * back to the newest trade already known (or to 24 hours ago on a cold start), the gap is paged from
 * GetTradesHistory, again and again until it arrives. Trades may repeat; the trade window removes
 * duplicates by id.
 */
export class TradeFeed {
  private readonly logger = new Logger(TradeFeed.name);
  private readonly history: GatewayMarketData;

  constructor(
    private readonly gateway: GatewayClient,
    private readonly options: TradeFeedOptions,
  ) {
    this.history = new GatewayMarketData(gateway, { now: options.now });
  }

  open(market: MarketInfo, listener: TradeFeedListener): TradeFeedSubscription {
    const ref = market.gateway;
    if (!ref) throw new Error(`${market.instrument} is not listed by the gateway, so it has no trade feed`);
    const instrument = { instrumentId: ref.instrumentId, instrument: market.instrument };
    const backfill = this.backfill(market, ref.instrumentId, listener);
    const subscription = this.gateway.subscribe(
      tradesSubscription(
        { instrument, includeLastCount: this.options.snapshotCount },
        {
          onSnapshot: (trades) => {
            const known = listener.newestTradeTime() ?? this.options.now() - DAY_MS;
            listener.onTrades(trades);
            const oldest = trades[0]?.time;
            // Trades of the newest known one's millisecond may be missing too (a full snapshot can
            // start within it), so the range reaches back to just before it; repeats are merged.
            if (trades.length >= this.options.snapshotCount && oldest !== undefined && oldest >= known) {
              backfill.request({ from: known - 1, to: oldest });
            } else if (backfill.pending === undefined) listener.onCaughtUp();
          },
          onTrades: (trades) => listener.onTrades(trades),
          onError: (error) =>
            this.logger.warn(`${market.instrument}: unreadable trades skipped: ${error.message}`),
        },
      ),
    );
    return {
      close: () => {
        backfill.close();
        void subscription.close().catch(() => undefined);
      },
    };
  }

  /** What the instrument's feed missed, paged from the trade history. */
  private backfill(market: MarketInfo, instrumentId: number, listener: TradeFeedListener): TradeBackfill {
    const names = new Map([[instrumentId, market.instrument]]);
    const span = (range: TradeRange) =>
      `${new Date(range.from).toISOString()} to ${new Date(range.to).toISOString()}`;
    const backfill: TradeBackfill = new TradeBackfill({
      fetch: (range) =>
        this.history.getTradesHistory({
          names,
          instrumentId,
          startTimeStamp: range.from,
          endTimeStamp: range.to,
        }),
      deliver: (trades, range) => {
        this.logger.log(`${market.instrument}: ${trades.length} trades from ${span(range)} backfilled`);
        listener.onTrades(trades);
        if (backfill.pending === undefined) listener.onCaughtUp();
      },
      onFailed: (error, range) =>
        this.logger.warn(
          `${market.instrument}: trades from ${span(range)} not backfilled yet, retrying: ${error.message}`,
        ),
    });
    return backfill;
  }
}
