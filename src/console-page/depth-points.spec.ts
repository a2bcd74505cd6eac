import { depthPoints, plotted } from './depth-points';

describe('depthPoints', () => {
  const bids = [
    ['64993.00', '0.50000000'],
    ['64990.00', '1.25000000'],
  ] as const;
  const asks = [
    ['65000.00', '0.10000000'],
    ['65001.00', '0.20000000'],
  ] as const;

  it('runs from the lowest bid to the highest ask, summed from the spread outwards, as text', () => {
    expect(depthPoints(bids, asks)).toEqual({
      prices: ['64990.00', '64993.00', '65000.00', '65001.00'],
      bids: ['1.75000000', '0.50000000', null, null],
      asks: [null, null, '0.10000000', '0.30000000'],
    });
  });

  it('draws numbers and leaves the other side out', () => {
    expect(plotted(depthPoints(bids, asks))).toEqual([
      [64990, 64993, 65000, 65001],
      [1.75, 0.5, null, null],
      [null, null, 0.1, 0.3],
    ]);
  });

  it('is empty for an empty book', () => {
    expect(depthPoints([], [])).toEqual({ prices: [], bids: [], asks: [] });
  });
});
