import { Candle } from '../candle-stats';
import { TradeRows } from '../trade-columns';
import { firstTradeAtOrAfter, tradeMinuteBars } from './trade-minute-bars';

const MINUTE_MS = 60_000;

interface MemoBar {
  /** What the minute's trades were when the bar was built: their count, ends and sums of units. */
  readonly fingerprint: string;
  readonly bar: Candle;
}

/**
 * The 1-minute bars of one market's trade window, each built once (`tradeMinuteBars`) and built
 * again only when the trades of its minute are no longer the same (a trade more, a late one, a
 * list read again): a window read on every request would otherwise cost a `tradeCandles` pass
 * over up to a day of trades. Finding each minute's trades and their fingerprint reads only the
 * number columns.
 */
export class MinuteBarMemo {
  private readonly bars = new Map<number, MemoBar>();

  /** The same bars as `tradeMinuteBars(rows, from, to)`. */
  minuteBars(rows: TradeRows, from: number, to: number): Candle[] {
    const end = firstTradeAtOrAfter(rows, to);
    const bars: Candle[] = [];
    let position = firstTradeAtOrAfter(rows, from);
    while (position < end) {
      const time = rows.timeAt(position);
      const minute = time - (((time % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
      let next = position + 1;
      while (next < end && rows.timeAt(next) < minute + MINUTE_MS) next++;
      const fingerprint = minuteFingerprint(rows, position, next);
      const held = this.bars.get(minute);
      if (held && held.fingerprint === fingerprint) bars.push(held.bar);
      else {
        const [bar] = tradeMinuteBars(rows, minute, minute + MINUTE_MS);
        this.bars.set(minute, { fingerprint, bar });
        bars.push(bar);
      }
      position = next;
    }
    return bars;
  }

  /** Forgets the bars of minutes before `time`. */
  dropBefore(time: number): void {
    for (const minute of this.bars.keys()) if (minute < time) this.bars.delete(minute);
  }

  get size(): number {
    return this.bars.size;
  }
}

function minuteFingerprint(rows: TradeRows, from: number, to: number): string {
  let prices = 0;
  let amounts = 0;
  for (let position = from; position < to; position++) {
    prices += rows.priceUnitsAt(position) || 0;
    amounts += rows.amountUnitsAt(position) || 0;
  }
  return `${to - from} ${rows.idAt(from)} ${rows.idAt(to - 1)} ${rows.timeAt(to - 1)} ${prices} ${amounts}`;
}
