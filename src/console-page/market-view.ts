import { bookAtPanel } from './book-at-panel';
import { depthChart } from './depth-chart';
import { fill, h } from './dom';
import { age, clock, decimal, money, usdEstimate } from './formats';
import { feedBadge, followFeed } from './live-feed';
import { sandboxBanner } from './sandbox-banner';
import { ConsoleMarketRow, ConsoleSnapshot, MarketDetail } from './wire-types';

/** Market data is asked for this often while the page is open. */
const POLL_MS = 1_000;

/** One market: its figures from the console feed, a depth chart of its book, its newest trades, and its book at a recorded moment. */
export function marketView(root: HTMLElement, instrument: string): void {
  const badge = h('span', { class: 'badge' });
  const figures = h('dl', { class: 'figures' });
  const chart = h('div', { class: 'chart' });
  const trades = h('tbody');
  const priceHead = h('th', { class: 'num' }, 'Price');
  const amountHead = h('th', { class: 'num' }, 'Amount');
  const drawDepth = depthChart(chart);
  const title = h('h1', {}, instrument.toUpperCase());
  const sandbox = sandboxBanner();
  const candles = h('div');
  // The chart library is most of a bundle's size: only market pages fetch it, as a chunk of its own.
  void import('./candle-panel').then(({ candlePanel }) => candles.replaceWith(candlePanel(instrument)));
  fill(
    root,
    sandbox.element,
    h('header', {}, h('a', { href: '/console' }, '← all markets'), title, badge),
    h(
      'div',
      { class: 'grid' },
      h('section', { class: 'panel' }, h('h2', {}, 'Figures'), figures),
      h('section', { class: 'panel' }, h('h2', {}, 'Depth'), chart),
    ),
    candles,
    h(
      'section',
      { class: 'panel wide' },
      h('h2', {}, 'Newest trades'),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { class: 'trades' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'Time'),
              h('th', {}, 'Side'),
              priceHead,
              amountHead,
              h('th', { class: 'num' }, 'Trade id'),
            ),
          ),
          trades,
        ),
      ),
    ),
    bookAtPanel(instrument),
  );
  followFeed<ConsoleSnapshot>(
    '/console/feed',
    (snapshot) => {
      sandbox.show(snapshot.sandbox);
      const row = snapshot.markets.find((market) => market.instrument === instrument.toLowerCase());
      if (!row) return;
      const figureRows: [field: keyof ConsoleMarketRow, name: string, value: string][] = [
        ['syncState', 'State', row.syncState],
        ['status', 'Status', row.status],
        ['bookVersion', 'Book version', String(row.bookVersion ?? '—')],
        ['dataAgeMs', 'Data age', age(row.dataAgeMs)],
        ['lastTradeAgeMs', 'Last trade', age(row.lastTradeAgeMs)],
        ['lastPrice', `Last price, ${row.quote}`, decimal(row.lastPrice)],
        ['bestBid', `Best bid, ${row.quote}`, decimal(row.bestBid)],
        ['bestAsk', `Best ask, ${row.quote}`, decimal(row.bestAsk)],
        ['spreadPercent', 'Spread %', decimal(row.spreadPercent)],
        ['depthMinus2PercentUsd', '−2 % depth', usdEstimate(row.depthMinus2PercentUsd)],
        ['depthPlus2PercentUsd', '+2 % depth', usdEstimate(row.depthPlus2PercentUsd)],
        [
          'quoteVolume24h',
          '24 h volume',
          money(row.quoteVolume24h, row.quote) +
            (row.quoteVolume24hUsd === null ? '' : ` (${usdEstimate(row.quoteVolume24hUsd)})`),
        ],
        ['flags', 'Flags', row.flags.join(', ') || 'none'],
        ['owner', 'Ingest replica', row.owner ?? '—'],
      ];
      fill(
        figures,
        ...figureRows.flatMap(([field, name, value]) => [
          h('dt', {}, name),
          h('dd', { 'data-field': field }, value),
        ]),
      );
    },
    (state) => feedBadge(badge, state),
  );
  const poll = async () => {
    try {
      const response = await fetch(`/console/market-data/${encodeURIComponent(instrument)}`, {
        cache: 'no-store',
      });
      if (response.ok) {
        const detail = (await response.json()) as MarketDetail;
        drawDepth(detail.bids, detail.asks, detail.base);
        priceHead.textContent = `Price, ${detail.quote}`;
        amountHead.textContent = `Amount, ${detail.base}`;
        fill(
          trades,
          ...detail.trades.map((trade) =>
            h(
              'tr',
              { 'data-trade': trade.id },
              h('td', {}, clock(trade.time)),
              h('td', { class: trade.side === 'buy' ? 'ok-text' : 'bad-text' }, trade.side),
              h('td', { class: 'num' }, trade.price),
              h('td', { class: 'num' }, trade.amount),
              h('td', { class: 'num muted' }, trade.id),
            ),
          ),
        );
      }
    } catch {
      // The gateway is restarting: the next poll tries again.
    }
    setTimeout(poll, POLL_MS);
  };
  void poll();
}
