import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface BrokenListingServer {
  readonly url: string;
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;

/**
 * A listing API (the exchange's format: /asset, /summary, /ticker, /orderbook/{instrument},
 * /trades/{instrument}) with one of each defect aggregators reject, and otherwise correct, so that
 * each defect shows up under its own check:
 *
 * - BTC_USDT: `baseVolume` a JSON number (decimal-strings); the ticker's base and quote names swapped
 *   (base-quote-orientation) and `isFrozen` written `isfrozen` (key-case); a book an hour older than
 *   the newest trade, also in its Last-Modified (book-fresh).
 * - ETH_BTC: `low24hr` in exponent notation (decimal-strings); `baseVolume` 7.0 where the trades sum
 *   to 1.0 (volumes-match-trades); the ticker lacks `isFrozen` (required-fields).
 * - SOL_USDT: the last price inverted (price-vs-book); a trade with base and quote volumes swapped
 *   (trade-quote-volume).
 */
export async function startBrokenListingServer(): Promise<BrokenListingServer> {
  const routes: Record<string, (now: number) => { body: unknown; lastModified?: number }> = {
    '/asset': () => ({
      body: {
        BTC: { name: 'Bitcoin' },
        USDT: { name: 'Tether' },
        ETH: { name: 'Ether' },
        SOL: { name: 'Solana' },
      },
    }),
    '/summary': () => ({
      body: {
        BTC_USDT: summary('65000.00', 0.3, '19502.00', '65010.00', '65000.00'),
        ETH_BTC: summary('0.05000', '7.0', '0.05000', '5e-2', '0.05000'),
        SOL_USDT: summary('0.006666', '300.00', '2.000', '150.00', '150.00'),
      },
    }),
    '/ticker': () => ({
      body: {
        btc_usdt: { ...ticker('Tether', 'Bitcoin', '65000.00', '0.30', '19502.00'), isfrozen: '0' },
        eth_btc: ticker('Ether', 'Bitcoin', '0.05000', '1.0', '0.05000'),
        sol_usdt: { ...ticker('Solana', 'Tether', '0.006666', '300.00', '2.000'), isFrozen: '0' },
      },
    }),
    '/orderbook/btc_usdt': (now) => ({
      body: book(
        now - HOUR_MS,
        [
          ['65000.00', '0.5'],
          ['64990.00', '1.0'],
        ],
        [
          ['65010.00', '0.3'],
          ['65020.00', '2'],
        ],
      ),
      lastModified: now - HOUR_MS,
    }),
    '/orderbook/eth_btc': (now) => ({ body: book(now - 500, [['0.05000', '1']], [['0.05010', '2']]) }),
    '/orderbook/sol_usdt': (now) => ({ body: book(now - 200, [['150.00', '3']], [['150.10', '4']]) }),
    '/trades/btc_usdt': (now) => ({
      body: [
        trade('2', '65000.00', '0.10', '6500.00', now - 1000),
        trade('1', '65010.00', '0.20', '13002.00', now - 2000),
      ],
    }),
    '/trades/eth_btc': (now) => ({ body: [trade('3', '0.05000', '1.0', '0.05000', now - 1500)] }),
    '/trades/sol_usdt': (now) => ({ body: [trade('4', '150.00', '300.00', '2.000', now - 1500)] }),
  };
  const server = createServer((request, response) => {
    const route = routes[request.url ?? ''];
    if (request.method !== 'GET' || route === undefined) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"errors":[{"code":"not_found"}]}');
      return;
    }
    const { body, lastModified } = route(Date.now());
    response.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=1',
      ...(lastModified === undefined ? {} : { 'last-modified': new Date(lastModified).toUTCString() }),
    });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function summary(last: string, baseVolume: unknown, quoteVolume: string, low: string, high: string) {
  return {
    id: '1',
    last,
    lowestAsk: '0',
    highestBid: '0',
    percentChange: '0.00',
    baseVolume,
    quoteVolume,
    isFrozen: '0',
    high24hr: high,
    low24hr: low,
  };
}

function ticker(baseName: string, quoteName: string, last: string, baseVolume: string, quoteVolume: string) {
  return {
    base_name: baseName,
    quote_name: quoteName,
    last_price: last,
    base_volume: baseVolume,
    quote_volume: quoteVolume,
  };
}

function book(timestamp: number, bids: string[][], asks: string[][]) {
  return { timestamp: String(timestamp), bids, asks };
}

function trade(id: string, price: string, baseVolume: string, quoteVolume: string, time: number) {
  return {
    tradeID: id,
    price,
    base_volume: baseVolume,
    quote_volume: quoteVolume,
    trade_timestamp: String(time),
    type: 'buy',
  };
}
