import { JsonValue } from './json-body';
import { BookView, ListsRead, MarketFigures, MarketRef, Read, TradeView } from './market-views';

export type FormatName = 'listing' | 'cmc' | 'coingecko';

export interface ListEndpoint {
  readonly path: string;
  /** A recommended endpoint that is absent only warns. */
  readonly mandatory: boolean;
}

/**
 * One aggregator format: the paths after the base URL, and how to read its records into the views the
 * checks share. Reading also checks each record's fields, as only the format knows them.
 */
export interface AuditFormat {
  readonly name: FormatName;
  /** CoinMarketCap requires gzip; for the others an uncompressed large body only warns. */
  readonly gzipRequired: boolean;
  /** Whether every trade served must lie in the last 24 hours (CoinGecko's historical trades may reach further). */
  readonly tradesOnlyLast24h: boolean;
  /** Fetched once per poll. */
  readonly lists: readonly ListEndpoint[];
  /** The list that carries the 24-hour figures (fetched again between trade reads). */
  readonly figuresPath: string;
  /** `bodies` holds the JSON of each list that answered it. */
  readLists(bodies: ReadonlyMap<string, JsonValue>): ListsRead;
  readFigures(body: JsonValue): ReadonlyMap<string, MarketFigures>;
  bookPath(market: MarketRef): string;
  tradesPath(market: MarketRef): string;
  readBook(body: JsonValue, market: MarketRef, where: string): Read<BookView>;
  readTrades(body: JsonValue, market: MarketRef, where: string): Read<TradeView[]>;
}
