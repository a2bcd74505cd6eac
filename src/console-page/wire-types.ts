/**
 * The snapshots the gateway's feeds send (`/console/feed`, `/status/feed`), the console's market
 * data (`/console/market-data/{instrument}`), the stream's candle frames and the console's book-at answers: the types of the server's schemas of them, imported
 * as types only, so that the bundle holds none of the server's code.
 */
export type {
  ConsoleEvent,
  ConsoleMarketRow,
  ConsoleSnapshot,
  FreshnessSample,
  Level,
  MarketDetail,
  StatusSnapshot,
} from '../api/console/console-schemas';
export type { CandleFrameBody } from '../api/stream/candle-frame';
export type { BookAtAnswer } from '../replay/book-at-answer';
