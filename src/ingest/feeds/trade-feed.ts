import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { DAY_MS } from '../../market/trade-window';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { GatewayMarketData } from '../../upstream/gateway/gateway-market-data';
import { tradesSubscription } from '../../upstream/gateway/market-data-subscriptions';

export interface TradeFeedListener {
  onTrades(trades: readonly Trade[]): void;
  /** Time of the newest trade already known, so that a fresh snapshot can tell whether it left a gap. */
  newestTradeTime(): number | undefined;
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
 * GetTradesHistory. Trades may repeat; the trade window removes duplicates by id.
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
    const subscription = this.gateway.subscribe(
      tradesSubscription(
        { instrument, includeLastCount: this.options.snapshotCount },
        {
          onSnapshot: (trades) => {
            const known = listener.newestTradeTime() ?? this.options.now() - DAY_MS;
            listener.onTrades(trades);
            const oldest = trades[0]?.time;
            if (trades.length >= this.options.snapshotCount && oldest !== undefined && oldest > known) {
              this.backfill(market, ref.instrumentId, known, oldest, listener);
            }
          },
          onTrades: (trades) => listener.onTrades(trades),
          onError: (error) =>
            this.logger.warn(`${market.instrument}: unreadable trades skipped: ${error.message}`),
        },
      ),
    );
    return { close: () => void subscription.close().catch(() => undefined) };
  }

  /** Pages the trades of `(from, to]` from the trade history. */
  private backfill(
    market: MarketInfo,
    instrumentId: number,
    from: number,
    to: number,
    listener: TradeFeedListener,
  ): void {
    this.history
      .getTradesHistory({
        names: new Map([[instrumentId, market.instrument]]),
        instrumentId,
        startTimeStamp: from,
        endTimeStamp: to,
      })
      .then((trades) => {
        this.logger.log(`${market.instrument}: ${trades.length} trades backfilled from the trade history`);
        listener.onTrades(trades);
      })
      .catch((error: unknown) => {
        this.logger.warn(
          `${market.instrument}: trade history unavailable, trades before ${new Date(to).toISOString()} missing: ${(error as Error).message}`,
        );
      });
  }
}
