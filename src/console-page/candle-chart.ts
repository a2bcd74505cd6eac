import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  IChartApi,
  ISeriesApi,
  MouseEventParams,
  Time,
} from 'lightweight-charts';
import { CandleBar, CandleChange, mergeBar, priceDigits } from './candle-bars';
import { candlePoint, volumePoint } from './candle-points';
import { fill, h } from './dom';

const RISING = '#2b8a3e';
const FALLING = '#c92a2a';

/**
 * Candles with their volume under them (TradingView's Lightweight Charts), and a legend that writes
 * the bar under the cursor, else the newest, as the gateway's text. The bars are kept as text; the
 * library gets numbers, for drawing only.
 */
export class CandleChart {
  private readonly chart: IChartApi;
  private readonly candles: ISeriesApi<'Candlestick'>;
  private readonly volumes: ISeriesApi<'Histogram'>;
  private bars: readonly CandleBar[] = [];
  private byTime = new Map<number, CandleBar>();
  private digits = -1;
  private hovered?: number;

  constructor(
    private readonly container: HTMLElement,
    private readonly legend: HTMLElement,
  ) {
    this.chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { color: '#ffffff' },
        textColor: '#1d2330',
        fontFamily: getComputedStyle(document.body).fontFamily,
        fontSize: 12,
        // Its logo would add a style element, which the page's policy refuses: the panel links instead.
        attributionLogo: false,
      },
      grid: { vertLines: { color: '#eef0f3' }, horzLines: { color: '#eef0f3' } },
      rightPriceScale: { borderColor: '#e3e6eb', scaleMargins: { top: 0.08, bottom: 0.25 } },
      timeScale: { borderColor: '#e3e6eb', timeVisible: true, secondsVisible: false },
    });
    this.candles = this.chart.addSeries(CandlestickSeries, {
      upColor: RISING,
      downColor: FALLING,
      borderVisible: false,
      wickUpColor: RISING,
      wickDownColor: FALLING,
    });
    this.volumes = this.chart.addSeries(HistogramSeries, {
      priceScaleId: '',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    this.volumes.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    this.chart.subscribeCrosshairMove((event: MouseEventParams<Time>) => {
      this.hovered = typeof event.time === 'number' ? event.time : undefined;
      this.writeLegend();
    });
  }

  /** Draws `bars` (oldest first) in place of what was drawn. */
  show(bars: readonly CandleBar[]): void {
    this.bars = bars;
    this.byTime = new Map(bars.map((bar) => [bar.time, bar]));
    this.fitPrices();
    this.candles.setData(bars.map(candlePoint));
    this.volumes.setData(bars.map(volumePoint));
    this.drawn();
  }

  /** Puts `bar` in its place: the newest replaced, a new one appended, an older one corrected. */
  merge(bar: CandleBar): CandleChange {
    const { bars, change } = mergeBar(this.bars, bar);
    if (change === 'none') return change;
    if (change === 'earlier') {
      this.show(bars);
      return change;
    }
    this.bars = bars;
    this.byTime.set(bar.time, bar);
    this.fitPrices();
    this.candles.update(candlePoint(bar));
    this.volumes.update(volumePoint(bar));
    this.drawn();
    return change;
  }

  /** The price axis writes as many fraction digits as the prices have (18 for some markets). */
  private fitPrices(): void {
    const digits = priceDigits(this.bars);
    if (digits === this.digits) return;
    this.digits = digits;
    this.candles.applyOptions({
      priceFormat: {
        type: 'custom',
        minMove: 10 ** -digits,
        base: 10 ** digits,
        formatter: (price: number) => price.toFixed(digits),
      },
    });
  }

  private drawn(): void {
    // What the chart holds, read back from the library: the page's tests count the candles here.
    this.container.dataset.candles = String(this.candles.data().length);
    this.writeLegend();
  }

  private writeLegend(): void {
    const bar =
      (this.hovered !== undefined && this.byTime.get(this.hovered)) || this.bars[this.bars.length - 1];
    if (!bar) {
      fill(this.legend);
      return;
    }
    const figure = (field: keyof CandleBar, name: string, value: string) => [
      h('span', { class: 'muted' }, name),
      h('span', { 'data-field': field }, value),
    ];
    fill(
      this.legend,
      h(
        'time',
        { 'data-field': 'time' },
        `${new Date(bar.time * 1_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      ),
      ...figure('open', 'O', bar.open),
      ...figure('high', 'H', bar.high),
      ...figure('low', 'L', bar.low),
      ...figure('close', 'C', bar.close),
      ...figure('volume', 'V', bar.volume),
    );
  }
}
