import { PrivateRestClient } from 'sandbox-exchange';
import { IngestService } from '../../src/ingest/ingest-service';
import { InstrumentPipeline } from '../../src/ingest/instrument-pipeline';
import { PriceLevel } from '../../src/store/state-store';
import { sleep, waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFault, setFlow } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
/** How long the upstream book stays crossed while the market moves. */
const CROSSED_MS = 4_000;
/** Snapshots asked for (REST or by reopening the stream) per second while the exchange's book is crossed. */
const MAX_ATTEMPTS_PER_SECOND = 2;

interface Sample {
  readonly syncState: string;
  readonly bestBid?: PriceLevel;
  readonly bestAsk?: PriceLevel;
  readonly summaryStatus: number;
  readonly highestBid: string;
  readonly lowestAsk: string;
}

const crossed = (bid: string | undefined, ask: string | undefined) =>
  bid !== undefined && ask !== undefined && Number(bid) >= Number(ask);

/**
 * The exchange's own book crossed (its matching engine stopped: the sandbox's `stop-matching`). The
 * gateway takes a crossed book for a broken copy and re-syncs; a snapshot that is crossed itself is
 * the exchange's book, so it waits before asking again instead of fetching the same crossed book as
 * fast as the exchange answers. Meanwhile the stored head keeps the crossed book it last received,
 * marked `resync`, and the listing shows its best bid and ask; once the exchange uncrosses, the
 * gateway converges to it.
 */
describe('a crossed upstream book', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '0' } });
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 15_000);
  });
  afterAll(() => stack.close());

  function pipeline(): InstrumentPipeline {
    const found = stack.app.app
      .get(IngestService)
      .pipelines()
      .find((each) => each.instrument === INSTRUMENT);
    if (!found) throw new Error(`no pipeline for ${INSTRUMENT}`);
    return found;
  }

  async function sample(): Promise<Sample> {
    const head = (await stack.store.readHeads([INSTRUMENT])).get(INSTRUMENT)!;
    const response = await fetch(`${stack.app.url}/summary`);
    const body = (response.ok ? await response.json() : {}) as Record<string, Record<string, string>>;
    const summary = body[INSTRUMENT.toUpperCase()] ?? {};
    return {
      syncState: head.syncState,
      bestBid: head.bestBid,
      bestAsk: head.bestAsk,
      summaryStatus: response.status,
      highestBid: summary.highestBid,
      lowestAsk: summary.lowestAsk,
    };
  }

  it('stays up, asks again at a bounded rate, publishes the crossed top as resync, and converges once uncrossed', async () => {
    const before = await readTruth(stack.sandbox, INSTRUMENT);
    await setFault(stack.sandbox, 'stop-matching', true, { instrument: INSTRUMENT });
    // With the flow at 0, a limit buy at the best ask rests instead of trading: the book crosses.
    const demo = new PrivateRestClient(stack.sandbox.baseUrl);
    const order = await demo.placed({
      instrument: INSTRUMENT,
      type: 'buy',
      amount: '0.01',
      price: before.asks[0][0],
      isLimit: true,
    });
    expect(order.status).toBe('Working');
    const truth = await readTruth(stack.sandbox, INSTRUMENT);
    expect(crossed(truth.bids[0][0], truth.asks[0][0])).toBe(true);

    await waitFor(
      async () => {
        const now = await sample();
        // The listing follows the store's change notices a few milliseconds behind.
        return (
          now.syncState === 'resync' &&
          crossed(now.bestBid?.[0], now.bestAsk?.[0]) &&
          crossed(now.highestBid, now.lowestAsk)
        );
      },
      'the crossed book stored as resync and listed',
      5_000,
    );
    const start = pipeline().counters;
    // The flow goes on and crosses the book further.
    await setFlow(stack.sandbox, 4);
    const samples: Sample[] = [];
    const started = Date.now();
    while (Date.now() - started < CROSSED_MS) {
      samples.push(await sample());
      await sleep(100);
    }
    const end = pipeline().counters;
    const seconds = (Date.now() - started) / 1000;

    const attempts = end.snapshotRequests + end.streamReopens - start.snapshotRequests - start.streamReopens;
    expect(attempts).toBeLessThanOrEqual(Math.ceil(MAX_ATTEMPTS_PER_SECOND * seconds));
    // One warning is logged per resync: as few as the attempts.
    expect(end.resyncs - start.resyncs).toBeLessThanOrEqual(Math.ceil(MAX_ATTEMPTS_PER_SECOND * seconds));
    expect(pipeline().state).toBe('resync');
    for (const each of samples) {
      expect(each.summaryStatus).toBe(200);
      // What a crossed_book flag relies on: a crossed top is never stored as live.
      if (crossed(each.bestBid?.[0], each.bestAsk?.[0])) expect(each.syncState).not.toBe('live');
    }
    // The stored head holds the crossed book it last received, and the listing shows its top.
    expect(samples.every((each) => each.syncState === 'resync')).toBe(true);
    expect(samples.every((each) => crossed(each.bestBid?.[0], each.bestAsk?.[0]))).toBe(true);
    expect(samples.every((each) => crossed(each.highestBid, each.lowestAsk))).toBe(true);

    await setFault(stack.sandbox, 'stop-matching', false);
    const uncrossed = await readTruth(stack.sandbox, INSTRUMENT);
    expect(crossed(uncrossed.bids[0][0], uncrossed.asks[0][0])).toBe(false);
    expect(uncrossed.trades.length).toBeGreaterThan(truth.trades.length);

    // The next snapshot, at most snapshotRetryMs (5 s) away, is no longer crossed.
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 15_000);
    expect(pipeline().state).toBe('live');
    const final = await readTruth(stack.sandbox, INSTRUMENT);
    const after = await sample();
    expect(after).toMatchObject({ syncState: 'live' });
    expect([after.bestBid?.[0], after.bestAsk?.[0]]).toEqual([final.bids[0][0], final.asks[0][0]]);
    // The listing follows the store's change notices a few milliseconds behind.
    await waitFor(
      async () => {
        const listed = await sample();
        return (
          Number(listed.highestBid) === Number(final.bids[0][0]) &&
          Number(listed.lowestAsk) === Number(final.asks[0][0])
        );
      },
      'the uncrossed top listed',
      5_000,
    );
  }, 60_000);
});
