import { rollUpBars } from '../../market/bars/bar-roll-up';
import { barStart, ONE_DAY, ONE_MINUTE } from '../../market/bars/chart-resolution';
import { ChartBars } from '../charts/chart-bars';
import { EarlierBarSource } from './live-bar-driver';

/** The older part of an open week or month from the chart history: its whole days, then minutes. */
export function earlierBarsOf(chart: ChartBars): EarlierBarSource {
  return async (market, resolution, from, to) => {
    const wholeDaysTo = Math.max(from, barStart(to, ONE_DAY));
    const days = await chart.bars(market, ONE_DAY, { from, to: wholeDaysTo });
    const minutes = await chart.bars(market, ONE_MINUTE, { from: wholeDaysTo, to });
    return rollUpBars([...days.bars, ...minutes.bars], resolution)[0];
  };
}

/** For bars that never reach past the trade list (a day). */
export const NO_EARLIER_BARS: EarlierBarSource = () => Promise.resolve(undefined);
