import { toJson } from '../http/json-number';
import { fixtureExchange, InfoMeaning } from '../testing/fixture-exchange';
import { readSpecFixture } from '../testing/spec-fixtures';
import { exchangeInfo } from './market-info-view';

/**
 * The sandbox also writes `makerFeeLimit` and `takerFeeLimit` (0) after the fees, as the exchange's
 * captures do; spec 2.1 names them only in the earlier 0.1.3 sample, without a meaning.
 */
function withFeeLimits(wire: string): string {
  return wire
    .replace(/("makerFee":[^,]+,)/g, '$1"makerFeeLimit":0,')
    .replace(/("takerFee":[^,]+,)/g, '$1"takerFeeLimit":0,');
}

describe('the market list against the specification fixture', () => {
  it('writes serverTime in .NET ticks and every pair byte for byte, plus the fee limits', () => {
    const { wire } = readSpecFixture<InfoMeaning>('rest/market-info.json');
    const { exchange, clock } = fixtureExchange();
    expect(toJson(exchangeInfo(exchange.all(), clock.now()))).toBe(withFeeLimits(wire));
  });
});
