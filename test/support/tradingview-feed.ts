import { get, IncomingMessage } from 'node:http';

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
