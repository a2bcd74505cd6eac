import { BookMessage } from '../../market/book-update';
import { Trade } from '../../market/trade';
import { DEFAULT_OMS_ID } from './gateway-client-options';
import { GatewaySubscriptionSpec } from './gateway-subscription';
import { InstrumentRef } from './instrument-ref';
import { Level1 } from './level1';
import { decodeLevel1 } from './level1-codec';
import { decodeLevel2Snapshot, decodeLevel2Update, hasLevel2Rows, level2Instruments } from './level2-codec';
import { numberOf } from './payload-values';
import { decodeTrades, hasTradesOf, tradeInstruments } from './trade-rows-codec';
import { ExactJson } from '../exact-json';

/** The public trade event under both names: the real gateway's and the one the spec gives. */
export const TRADE_EVENTS = ['TradeDataUpdateEvent', 'OrderTradeEvent'] as const;
export const LEVEL2_EVENT = 'Level2UpdateEvent';
export const LEVEL1_EVENT = 'Level1UpdateEvent';

/** A payload that cannot be decoded reaches `onError` as a GatewayPayloadError (and is logged). */
interface ErrorHandler {
  onError?(error: Error): void;
}

export interface Level2Handlers extends ErrorHandler {
  /** The subscription's snapshot (on every (re)subscribe), then its deltas in order. */
  onBook(message: BookMessage): void;
}

export interface Level2SubscriptionOptions {
  readonly instrument: InstrumentRef;
  /** Levels per side of the snapshot; small windows leave levels behind, so ask for many. */
  readonly depth: number;
  readonly omsId?: number;
}

/** SubscribeLevel2 for one instrument: the reply is the snapshot, Level2UpdateEvents the deltas. */
export function level2Subscription(
  options: Level2SubscriptionOptions,
  handlers: Level2Handlers,
): GatewaySubscriptionSpec {
  const { instrument, depth, omsId = DEFAULT_OMS_ID } = options;
  const { instrumentId } = instrument;
  return {
    subscribe: {
      name: 'SubscribeLevel2',
      payload: { OMSId: omsId, InstrumentId: instrumentId, Depth: depth },
    },
    unsubscribe: { name: 'UnsubscribeLevel2', payload: { OMSId: omsId, InstrumentId: instrumentId } },
    events: [LEVEL2_EVENT],
    matches: (payload) => hasLevel2Rows(payload, instrumentId),
    routing: { instrumentId, instrumentsOf: level2Instruments },
    onReply: (payload, receivedAt) => handlers.onBook(decodeLevel2Snapshot(payload, instrument, receivedAt)),
    onEvent: (_name, payload, receivedAt) => {
      const delta = decodeLevel2Update(payload, instrument, receivedAt);
      if (delta) handlers.onBook(delta);
    },
    onError: (error) => handlers.onError?.(error),
  };
}

export interface TradeHandlers extends ErrorHandler {
  /** The last trades, oldest first, on every (re)subscribe; they may repeat trades seen before. */
  onSnapshot(trades: Trade[]): void;
  onTrades(trades: Trade[]): void;
}

export interface TradesSubscriptionOptions {
  readonly instrument: InstrumentRef;
  /** Trades in the snapshot (default 100): enough to cover a reconnect's gap. */
  readonly includeLastCount?: number;
  readonly omsId?: number;
}

/** SubscribeTrades for one instrument (needs an authenticated connection). */
export function tradesSubscription(
  options: TradesSubscriptionOptions,
  handlers: TradeHandlers,
): GatewaySubscriptionSpec {
  const { instrument, includeLastCount = 100, omsId = DEFAULT_OMS_ID } = options;
  const { instrumentId } = instrument;
  const names = new Map([[instrumentId, instrument.instrument]]);
  return {
    subscribe: {
      name: 'SubscribeTrades',
      payload: { OMSId: omsId, InstrumentId: instrumentId, IncludeLastCount: includeLastCount },
    },
    unsubscribe: { name: 'UnsubscribeTrades', payload: { OMSId: omsId, InstrumentId: instrumentId } },
    events: TRADE_EVENTS,
    matches: (payload) => hasTradesOf(payload, instrumentId),
    routing: { instrumentId, instrumentsOf: tradeInstruments },
    onReply: (payload) => handlers.onSnapshot(decodeTrades(payload, names, 'SubscribeTrades reply')),
    onEvent: (name, payload) => {
      const trades = decodeTrades(payload, names, name);
      if (trades.length > 0) handlers.onTrades(trades);
    },
    onError: (error) => handlers.onError?.(error),
  };
}

export interface Level1Handlers extends ErrorHandler {
  onLevel1(level1: Level1): void;
}

export interface Level1SubscriptionOptions {
  readonly instrument: InstrumentRef;
  readonly omsId?: number;
}

/** SubscribeLevel1 for one instrument: the reply and every Level1UpdateEvent carry the whole record. */
export function level1Subscription(
  options: Level1SubscriptionOptions,
  handlers: Level1Handlers,
): GatewaySubscriptionSpec {
  const { instrument, omsId = DEFAULT_OMS_ID } = options;
  const { instrumentId } = instrument;
  return {
    subscribe: { name: 'SubscribeLevel1', payload: { OMSId: omsId, InstrumentId: instrumentId } },
    unsubscribe: { name: 'UnsubscribeLevel1', payload: { OMSId: omsId, InstrumentId: instrumentId } },
    events: [LEVEL1_EVENT],
    matches: (payload) =>
      typeof payload === 'object' &&
      payload !== null &&
      !Array.isArray(payload) &&
      numberOf(payload.InstrumentId ?? payload.instrumentId) === instrumentId,
    routing: { instrumentId, instrumentsOf: level1Instruments },
    onReply: (payload, receivedAt) => handlers.onLevel1(decodeLevel1(payload, instrument, receivedAt)),
    onEvent: (_name, payload, receivedAt) => handlers.onLevel1(decodeLevel1(payload, instrument, receivedAt)),
    onError: (error) => handlers.onError?.(error),
  };
}

/** The instrument of a Level 1 record. */
function level1Instruments(payload: ExactJson): number[] {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    ? [numberOf(payload.InstrumentId ?? payload.instrumentId)]
    : [];
}
