import { BookMessage } from '../../market/book-update';
import { GatewayInstrument, GatewayProduct } from '../../market/gateway-records';
import { Trade } from '../../market/trade';
import { ExactJson } from '../exact-json';
import { DEFAULT_OMS_ID } from './gateway-client-options';
import { decodeInstruments } from './instruments-codec';
import { InstrumentNames, InstrumentRef } from './instrument-ref';
import { decodeLevel2Snapshot } from './level2-codec';
import { decodeProducts } from './products-codec';
import { decodeTradeHistory, TradeExecution, tradesFromExecutions } from './trade-history-codec';

/** What the calls need of the client. */
export interface GatewayRequester {
  request(functionName: string, payload?: Readonly<Record<string, unknown>>): Promise<ExactJson>;
}

export interface TradesHistoryQuery {
  /** Domain names of the instruments whose trades are kept; the trades of others are left out. */
  readonly names: InstrumentNames;
  readonly instrumentId?: number;
  readonly accountId?: number;
  /** POSIX seconds or milliseconds, inclusive. */
  readonly startTimeStamp?: number;
  readonly endTimeStamp?: number;
  /** Executions per call (default 500). */
  readonly pageSize?: number;
  /** Calls at most (default 1000): a bound for a gateway that ignores StartIndex. */
  readonly maxPages?: number;
}

export interface GatewayMarketDataOptions {
  readonly omsId?: number;
  /** Unix milliseconds: the time of a snapshot whose rows carry none. */
  readonly now?: () => number;
}

const DEFAULT_PAGE_SIZE = 500;
const DEFAULT_MAX_PAGES = 1000;

/** The gateway's common market-data calls, decoded into the domain's types. */
export class GatewayMarketData {
  private readonly omsId: number;
  private readonly now: () => number;

  constructor(
    private readonly gateway: GatewayRequester,
    options: GatewayMarketDataOptions = {},
  ) {
    this.omsId = options.omsId ?? DEFAULT_OMS_ID;
    this.now = options.now ?? Date.now;
  }

  async getInstruments(): Promise<GatewayInstrument[]> {
    return decodeInstruments(await this.gateway.request('GetInstruments', { OMSId: this.omsId }));
  }

  async getProducts(): Promise<GatewayProduct[]> {
    return decodeProducts(await this.gateway.request('GetProducts', { OMSId: this.omsId }));
  }

  /** The book of one instrument, `depth` levels per side, without subscribing. */
  async getL2Snapshot(instrument: InstrumentRef, depth: number): Promise<BookMessage> {
    const payload = await this.gateway.request('GetL2Snapshot', {
      OMSId: this.omsId,
      InstrumentId: instrument.instrumentId,
      Depth: depth,
    });
    return decodeLevel2Snapshot(payload, instrument, this.now());
  }

  /**
   * Trades from GetTradesHistory (an authenticated call; the history is of the caller's accounts,
   * all of them for the venue operator), newest first, one per TradeId with the taker's side. Pages
   * with StartIndex/Depth until a short page. StartIndex counts back from the newest execution, so
   * executions arriving meanwhile shift the pages: they repeat records, which are merged.
   */
  async getTradesHistory(query: TradesHistoryQuery): Promise<Trade[]> {
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const maxPages = query.maxPages ?? DEFAULT_MAX_PAGES;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1)
      throw new RangeError('pageSize must be a positive integer');
    const filters = {
      OMSId: this.omsId,
      ...(query.instrumentId === undefined ? {} : { InstrumentId: query.instrumentId }),
      ...(query.accountId === undefined ? {} : { AccountId: query.accountId }),
      ...(query.startTimeStamp === undefined ? {} : { StartTimeStamp: query.startTimeStamp }),
      ...(query.endTimeStamp === undefined ? {} : { EndTimeStamp: query.endTimeStamp }),
    };
    const executions: TradeExecution[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < maxPages; page++) {
      const records = decodeTradeHistory(
        await this.gateway.request('GetTradesHistory', {
          ...filters,
          StartIndex: page * pageSize,
          Depth: pageSize,
        }),
      );
      const fresh = records.filter((execution) => !seen.has(execution.key));
      for (const execution of fresh) {
        seen.add(execution.key);
        executions.push(execution);
      }
      if (records.length < pageSize || fresh.length === 0) break;
    }
    return tradesFromExecutions(executions, query.names);
  }
}
