import { AUDIT_FORMATS } from './audit-formats';
import { parseJsonBody } from './json-body';

const CMC = AUDIT_FORMATS.cmc;
const COINGECKO = AUDIT_FORMATS.coingecko;

describe('the formats read their records into the shared views', () => {
  it('CoinMarketCap: the summary array gives the markets and figures, a swapped base and quote fails', () => {
    const summary = parseJsonBody(
      JSON.stringify([
        {
          trading_pairs: 'ETH_BTC',
          base_currency: 'BTC',
          quote_currency: 'ETH',
          last_price: '0.05',
          lowest_ask: '0.051',
          highest_bid: '0.049',
          base_volume: '4.0',
          quote_volume: '0.2',
          price_change_percent_24h: '-1.33',
          highest_price_24h: '0.06',
          lowest_price_24h: '0.04',
        },
      ]),
    );
    const ticker = parseJsonBody(
      '{"ETH_BTC":{"last_price":"0.05","base_volume":"4.0","quote_volume":"0.2","isFrozen":0}}',
    );
    const read = CMC.readLists(
      new Map([
        ['/summary', summary],
        ['/ticker', ticker],
        ['/assets', parseJsonBody('{}')],
      ]),
    );
    expect(read.markets).toEqual([{ market: 'ETH_BTC', pathName: 'ETH_BTC' }]);
    expect(read.figures.get('ETH_BTC')).toMatchObject({
      last: '0.05',
      baseVolume: '4.0',
      quoteVolume: '0.2',
    });
    expect(read.findings).toEqual([
      expect.objectContaining({ check: 'base-quote-orientation', severity: 'fail' }),
    ]);
    expect(CMC.tradesPath(read.markets[0])).toBe('/trades/ETH_BTC');
  });

  it('CoinGecko: historical trades split by side, or one list, both read; a ticker without a pair fails', () => {
    const trade = (id: number, type: string) =>
      `{"trade_id":${id},"price":"5","base_volume":"2","target_volume":"10","trade_timestamp":1795688483312,"type":"${type}"}`;
    const market = { market: 'ETH_BTC', pathName: 'ETH_BTC' };
    const split = COINGECKO.readTrades(
      parseJsonBody(`{"buy":[${trade(1, 'buy')}],"sell":[${trade(2, 'sell')}]}`),
      market,
      'h',
    );
    expect(split.findings).toEqual([]);
    expect(split.value?.map((read) => read.id)).toEqual(['1', '2']);
    expect(COINGECKO.readTrades(parseJsonBody(`[${trade(3, 'buy')}]`), market, 'h').value).toHaveLength(1);

    const tickers = parseJsonBody(
      '[{"ticker_id":"ETH_BTC","base_currency":"ETH","target_currency":"BTC","last_price":"5","base_volume":"2","target_volume":"10"}]',
    );
    const read = COINGECKO.readLists(
      new Map([
        ['/pairs', parseJsonBody('[]')],
        ['/tickers', tickers],
      ]),
    );
    expect(read.findings).toEqual([
      expect.objectContaining({ check: 'market-keys', detail: 'listed in /tickers but not in /pairs' }),
    ]);
    expect(COINGECKO.bookPath(read.markets[0])).toBe('/orderbook?ticker_id=ETH_BTC&depth=0');
  });
});
