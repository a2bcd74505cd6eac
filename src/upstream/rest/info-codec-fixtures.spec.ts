import { MarketInfo } from '../../market/market-info';
import { parseExactJson } from '../exact-json';
import { readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { decodeInfo } from './info-codec';
import { exchangeRecords } from './info-records';

interface PairMeaning {
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly minAmount: string;
  readonly priceDeviation: string;
  readonly hidden: string;
  readonly makerFee: string;
  readonly takerFee: string;
  readonly priceScale: string;
  readonly amountScale: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: string;
  readonly side: string;
  readonly isCustom: boolean;
}

interface InfoMeaning {
  readonly serverTime: string;
  readonly pairs: Readonly<Record<string, PairMeaning>>;
}

const fixture = readSpecFixture<InfoMeaning>('rest/market-info.json');

function market(instrument: string, pair: PairMeaning): MarketInfo {
  return {
    instrument,
    baseAsset: pair.baseAsset,
    quoteAsset: pair.quoteAsset,
    priceScale: Number(pair.priceScale),
    amountScale: Number(pair.amountScale),
    minAmount: pair.minAmount,
    priceDeviation: pair.priceDeviation,
    makerFee: pair.makerFee,
    takerFee: pair.takerFee,
    hidden: pair.hidden === '1',
    status: pair.status,
    side: pair.side,
    isCustom: pair.isCustom,
    createdAt: pair.createdAt,
    updatedAt: pair.updatedAt,
  };
}

describe('decodeInfo against the specification fixture', () => {
  it('reads serverTime as .NET ticks and every pair with its values', () => {
    const info = decodeInfo(parseExactJson(fixture.wire));
    expect(info.serverTime).toBe(unixMs(fixture.means.serverTime));
    expect(info.skipped).toEqual([]);
    expect(info.markets).toEqual(
      Object.entries(fixture.means.pairs).map(([instrument, pair]) => market(instrument, pair)),
    );
  });

  it("keeps each pair's record exactly as the exchange wrote it, for the REST mirror", () => {
    const records = exchangeRecords(fixture.wire);
    for (const instrument of Object.keys(fixture.means.pairs)) {
      const start = fixture.wire.indexOf(`"${instrument}":{`) + instrument.length + 3;
      expect(records.get(instrument)).toBe(fixture.wire.slice(start, fixture.wire.indexOf('}', start) + 1));
    }
  });
});
