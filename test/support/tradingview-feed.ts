import { get, IncomingMessage } from 'node:http';
import { canonical, ChartBar, truthBars } from './chart-truth';

/** One reader of `/tradingview/streaming`: the response, its lines as sent with their arrival, and how it ended. */
export class FeedReader {
  readonly lines: string[] = [];
  /** `Date.now()` when each line arrived, by index. */
  readonly arrivals: number[] = [];
  response?: IncomingMessage;
  ended = false;
  error?: Error;
  private rest = '';
  private readonly request;

  constructor(url: string) {
    this.request = get(`${url}/tradingview/streaming`, (response) => {
      this.response = response;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const parts = (this.rest + chunk).split('\n');
        this.rest = parts.pop()!;
        const now = Date.now();
        for (const line of parts) {
          this.lines.push(line);
          this.arrivals.push(now);
        }
      });
      response.on('end', () => (this.ended = true));
      response.on('error', (error) => (this.error = error));
    });
    this.request.on('error', (error) => (this.error = error));
  }

  /** Lines of kind `f` (`t` trade, `q` quote, `d` daily bar, `h` heartbeat), of `symbol` if given, as sent. */
  of(f: string, symbol?: string): string[] {
    return this.lines.filter(
      (line) => line.includes(`"f":"${f}"`) && (symbol === undefined || line.includes(`"id":"${symbol}"`)),
    );
  }

  close(): void {
    this.request.destroy();
  }
}

/** The value of `name` in a line, as its text (a JSON number keeps its digits). */
export function field(line: string, name: string): string {
  const match = new RegExp(`"${name}":("[^"]*"|[^,}]+)`).exec(line);
  if (!match) throw new Error(`${name} missing in ${line}`);
  return match[1];
}

/** A streamed trade: its price and size as canonical decimal text, its time in Unix ms (sent in seconds). */
export interface StreamedTrade {
  readonly price: string;
  readonly amount: string;
  readonly time: number;
}

export function streamedTrade(line: string): StreamedTrade {
  return {
    price: canonical(field(line, 'p')),
    amount: canonical(field(line, 's')),
    time: Number(field(line, 't')) * 1000,
  };
}

/** 1-minute bars of streamed trades, in the order they were sent, with the tests' own arithmetic. */
export function streamedBars(trades: readonly StreamedTrade[]): ChartBar[] {
  return truthBars(trades.map((trade, at) => ({ ...trade, id: String(at).padStart(9, '0'), side: 'buy' })));
}
