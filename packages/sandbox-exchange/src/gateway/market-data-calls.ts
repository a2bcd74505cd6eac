import { MarketSimulator } from '../simulation/market-simulator';
import { Payload } from './frame-codec';
import { GatewayCatalog } from './gateway-catalog';
import { GatewayConnection } from './gateway-connection';
import { GatewayFunctions } from './gateway-functions';
import { GatewayCallError, GatewayErrorCode, GatewayResult, succeeded } from './gateway-result';
import { Level1Feed } from './level1-feed';
import { Level2Feed } from './level2-feed';
import { snapshotRows } from './level2-rows';
import { optionalInteger } from './payload-fields';
import { SubscriberIndex } from './subscriber-index';
import { TradeFeed } from './trade-feed';
import { tradeRow } from './trade-rows';

export interface MarketDataFeeds {
  readonly catalog: GatewayCatalog;
  readonly level1: Level1Feed;
  readonly level2: Level2Feed;
  readonly trades: TradeFeed;
}

const DEFAULT_INCLUDE_LAST_COUNT = 100;

/** The public calls: instruments, products, Level 1, Level 2, trades and Ping. */
export function registerMarketDataCalls(functions: GatewayFunctions, feeds: MarketDataFeeds): void {
  const { catalog, level1, level2, trades } = feeds;

  functions.register('Ping', () => ({ msg: 'PONG' }));
  functions.register('GetInstruments', () => catalog.instruments());
  functions.register('GetProducts', () => catalog.productRecords());

  functions.register('SubscribeLevel1', (connection, payload) => {
    const reply = level1.subscribe(connection, catalog.resolve(payload));
    if (!reply) throw new GatewayCallError(GatewayErrorCode.AlreadySubscribed);
    return reply;
  });
  functions.register('UnsubscribeLevel1', (connection, payload) =>
    unsubscribe(level1.subscriptions, connection, catalog.resolve(payload)),
  );

  functions.register('SubscribeLevel2', (connection, payload) => {
    const depth = requiredDepth(payload);
    const market = catalog.resolve(payload);
    if (!level2.subscriptions.add(connection, market.spec.instrumentId))
      throw new GatewayCallError(GatewayErrorCode.AlreadySubscribed);
    return snapshotRows(market, depth);
  });
  functions.register('UnsubscribeLevel2', (connection, payload) =>
    unsubscribe(level2.subscriptions, connection, catalog.resolve(payload)),
  );
  functions.register('GetL2Snapshot', (_connection, payload) => {
    const depth = requiredDepth(payload);
    return snapshotRows(catalog.resolve(payload), depth);
  });

  functions.register('SubscribeTrades', (connection, payload) => {
    if (!connection.user) throw new GatewayCallError(GatewayErrorCode.NotAuthorized);
    const count = optionalInteger(payload, 'IncludeLastCount') ?? DEFAULT_INCLUDE_LAST_COUNT;
    const market = catalog.resolve(payload);
    if (!trades.subscriptions.add(connection, market.spec.instrumentId))
      throw new GatewayCallError(GatewayErrorCode.AlreadySubscribed);
    return market.tradeLog
      .newest(count)
      .reverse()
      .map((trade) => tradeRow(trade, market.spec));
  });
  functions.register('UnsubscribeTrades', (connection, payload) =>
    unsubscribe(trades.subscriptions, connection, catalog.resolve(payload)),
  );
}

function requiredDepth(payload: Payload): number {
  const depth = optionalInteger(payload, 'Depth');
  if (depth === undefined || depth < 1)
    throw new GatewayCallError(GatewayErrorCode.InvalidRequest, 'Depth must be a positive integer');
  return depth;
}

function unsubscribe(
  subscriptions: SubscriberIndex<GatewayConnection>,
  connection: GatewayConnection,
  market: MarketSimulator,
): GatewayResult {
  if (!subscriptions.remove(connection, market.spec.instrumentId))
    throw new GatewayCallError(
      GatewayErrorCode.ResourceNotFound,
      `not subscribed to ${market.spec.instrumentId}`,
    );
  return succeeded();
}
