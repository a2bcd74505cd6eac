/**
 * The snapshots the gateway's feeds send (`/console/feed`, `/status/feed`), the console's market
 * data (`/console/market-data/{instrument}`) and the stream's candle frames: the types of the server's schemas of them, imported
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
