import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalDecimal } from '../../src/market/decimal';
import { compareDecimalText } from '../../src/market/stream/testing/book-reader';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { readTruth, setFlow } from '../support/truth';

/** What the documented example's `followBook` returns. */
interface FollowedBook {
  readonly book: { bids: Map<string, string>; asks: Map<string, string>; seq: number };
  readonly seen: { applied: number; mismatches: number; stop: () => void };
}
type FollowBook = (url: string, channel: string) => FollowedBook;

/** The example client of docs/stream.md, as a reader would copy it. */
function exampleClient(): string {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'stream.md'), 'utf8');
  const block = page.slice(
    page.indexOf('<!-- stream-client:start -->'),
    page.indexOf('<!-- stream-client:end -->'),
  );
  return block.slice(block.indexOf('```ts') + 5, block.lastIndexOf('```'));
}

describe("docs/stream.md's example client of GET /stream", () => {
  let stack: TestStack;
  const code = exampleClient();
  const folder = mkdtempSync(join(tmpdir(), 'stream-client-'));
  let followed: FollowedBook | undefined;

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '40' } });
    await waitFor(async () => (await fetch(`${stack.app.url}/orderbook/btc_usdt`)).ok, 'a served book');
  });
  afterAll(async () => {
    followed?.seen.stop();
    await stack?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is a few lines that import nothing of the project', () => {
    const lines = code.split('\n').filter((line) => line.trim());
    expect(lines.length).toBeLessThanOrEqual(50);
    const imports = [...code.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(imports).toEqual(['node:zlib']);
  });

  it('keeps a book equal to the exchange, every checksum verified', async () => {
    const file = join(folder, 'stream-client.ts');
    writeFileSync(file, code);
    // Loaded as any module of the suite, compiled by its TypeScript transform.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { followBook } = require(file) as { followBook: FollowBook };
    followed = followBook(`${stack.app.url.replace(/^http/, 'ws')}/stream`, 'book.btc_usdt');
    const { book, seen } = followed;

    await waitFor(() => seen.applied >= 20, 'twenty messages applied while the market moves', 10_000);
    await setFlow(stack.sandbox, 0);
    const sorted = (side: Map<string, string>, sign: number) =>
      [...side]
        .sort(([a], [b]) => sign * compareDecimalText(a, b))
        .map(([price, amount]) => [canonicalDecimal(price), canonicalDecimal(amount)]);
    let last = '';
    await waitFor(
      async () => {
        const truth = await readTruth(stack.sandbox, 'btc_usdt');
        last = `example at ${book.seq}, truth at ${truth.version}`;
        return (
          book.seq === truth.version &&
          JSON.stringify(sorted(book.bids, -1)) === JSON.stringify(truth.bids) &&
          JSON.stringify(sorted(book.asks, 1)) === JSON.stringify(truth.asks)
        );
      },
      'the example equal to the truth',
      10_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; ${last}`);
    });
    expect(seen.mismatches).toBe(0);
    expect(book.bids.size).toBeGreaterThan(0);
    expect(book.asks.size).toBeGreaterThan(0);
  });
});
