import { CandleBar, CandleFrame, frameBar, historyBars, UdfHistory } from './candle-bars';
import { CandleChart } from './candle-chart';
import { CANDLE_RESOLUTIONS, CandleResolution, historyRange } from './candle-resolutions';
import { h } from './dom';
import { parseNumbersAsText } from './numbers-as-text';

/** A closed stream (a restart, a replica going away) or a failed read is tried again after this… */
const REOPEN_MS = 2_000;
/** …doubled at each failure in a row, up to this. */
const MOST_REOPEN_MS = 30_000;

const retryAfter = (failures: number) => Math.min(MOST_REOPEN_MS, REOPEN_MS * 2 ** failures);

/**
 * The market's candles: a resolution switcher, the last bars from `/udf/history`, then the live bar
 * from the stream's `candles.{instrument}.{resolution}` channel. Frames that come while the history
 * loads wait for it, so that a bar is never older on the chart than on the wire.
 */
export function candlePanel(instrument: string): HTMLElement {
  const market = instrument.toLowerCase();
  const area = h('div', { class: 'candle-area' });
  const legend = h('div', { class: 'candle-legend' });
  const note = h('p', { class: 'muted candle-note' });
  const buttons = CANDLE_RESOLUTIONS.map((resolution) =>
    h('button', { type: 'button', 'data-resolution': resolution.name }, resolution.label),
  );
  const panel = h(
    'section',
    { class: 'panel wide candles' },
    h(
      'div',
      { class: 'panel-head' },
      h('h2', {}, 'Candles, UTC'),
      h('div', { class: 'resolutions' }, ...buttons),
    ),
    legend,
    area,
    note,
    h(
      'p',
      { class: 'muted attribution' },
      h('a', { href: 'https://www.tradingview.com/', rel: 'noopener' }, 'TradingView Lightweight Charts™'),
      ' · Copyright (c) TradingView, Inc.',
    ),
  );
  const chart = new CandleChart(area, legend);
  let resolution = CANDLE_RESOLUTIONS[0];
  let socket: WebSocket | undefined;
  /** Frames of the channel while its history loads; undefined once it is drawn. */
  let waiting: CandleBar[] | undefined = [];
  let load = 0;
  let failedLoads = 0;
  let failedOpens = 0;

  const channel = () => `candles.${market}.${resolution.name}`;
  const send = (op: 'subscribe' | 'unsubscribe', name: string) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op, channels: [name] }));
  };

  const loadHistory = async () => {
    const mine = ++load;
    waiting = [];
    const { from, to } = historyRange(resolution, Date.now());
    delete area.dataset.candles;
    Object.assign(area.dataset, { resolution: resolution.name, from: String(from), to: String(to) });
    try {
      const query = new URLSearchParams({
        symbol: market,
        resolution: resolution.name,
        from: `${from}`,
        to: `${to}`,
      });
      const response = await fetch(`/udf/history?${query}`, { cache: 'no-store' });
      if (!response.ok) throw new Error(`history: ${response.status}`);
      const bars = historyBars(parseNumbersAsText(await response.text()) as UdfHistory);
      if (mine !== load) return;
      chart.show(bars);
      for (const bar of waiting) chart.merge(bar);
      waiting = undefined;
      failedLoads = 0;
      note.textContent = bars.length === 0 ? 'No trades in this range yet.' : '';
    } catch {
      if (mine !== load) return;
      note.textContent = 'The bars could not be read; trying again.';
      setTimeout(() => mine === load && void loadHistory(), retryAfter(failedLoads++));
    }
  };

  const select = (next: CandleResolution) => {
    if (next !== resolution) send('unsubscribe', channel());
    resolution = next;
    for (const button of buttons) button.classList.toggle('active', button.dataset.resolution === next.name);
    send('subscribe', channel());
    void loadHistory();
  };

  let opens = 0;
  const openStream = () => {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/stream`;
    const opened = new WebSocket(url);
    socket = opened;
    opened.onopen = () => {
      failedOpens = 0;
      send('subscribe', channel());
      // Back after a lost connection: bars may have changed meanwhile.
      if (++opens > 1) void loadHistory();
    };
    opened.onmessage = (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as CandleFrame | { type: 'error'; code: string };
      if (message.type === 'candle' && message.channel === channel()) {
        const bar = frameBar(message);
        if (waiting) waiting.push(bar);
        else chart.merge(bar);
      } else if (message.type === 'error' && message.code === 'not_ready') {
        setTimeout(() => opened === socket && send('subscribe', channel()), REOPEN_MS);
      }
    };
    opened.onclose = () => setTimeout(() => opened === socket && openStream(), retryAfter(failedOpens++));
  };

  for (const button of buttons)
    button.addEventListener('click', () => {
      const next = CANDLE_RESOLUTIONS.find((each) => each.name === button.dataset.resolution)!;
      if (next !== resolution) select(next);
    });
  select(resolution);
  openStream();
  return panel;
}
