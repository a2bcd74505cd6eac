/**
 * The snapshots the gateway's feeds send (`/console/feed`, `/status/feed`) and the console's market
 * data (`/console/market-data/{instrument}`): the types of the server's schemas of them, imported
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
