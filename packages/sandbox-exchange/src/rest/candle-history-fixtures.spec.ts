import { toJson } from '../http/json-number';
import { fixtureExchange, fixtureMarket } from '../testing/fixture-exchange';
import { recordFixtureTape } from '../testing/fixture-tape';
import { readSpecFixture } from '../testing/spec-fixtures';
import { candleHistory } from './candle-history';
import { parseHistoryQuery } from './history-query';

/** The sandbox also writes each candle's `quoteVolume`, which spec 2.3 does not list. */
const QUOTE_VOLUME = /"quoteVolume":[^,]+,/g;

describe('the candle history against the specification fixture', () => {
  it('writes the candles of the fixture trades byte for byte, plus their quote volume', () => {
    const fixture = readSpecFixture<{ readonly data: readonly unknown[] }>('rest/candles.json');
    const { exchange } = fixtureExchange();
    const market = fixtureMarket(exchange);
    recordFixtureTape(market);
    const query = new URL(fixture.request!.replace(/^GET /, 'http://exchange')).searchParams;
    const wire = toJson(candleHistory(market, parseHistoryQuery(Object.fromEntries(query))));
    expect(wire.match(QUOTE_VOLUME)).toHaveLength(fixture.means.data.length);
    expect(wire.replace(QUOTE_VOLUME, '')).toBe(fixture.wire);
  });
});
