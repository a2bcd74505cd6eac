import { Tuning } from '../../src/config/tuning';
import { canonicalDecimal } from '../../src/market/decimal';
import { BookChannelMessage } from '../../src/market/stream/book-channel-message';
import { BookReader } from '../../src/market/stream/testing/book-reader';
import { sleep, waitFor } from '../support/fault-run';
import { parseMetrics } from '../support/metrics-text';
import { RawWebSocket } from '../support/raw-websocket';
import { StreamClient } from '../support/stream-client';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { readTruth, setFlow } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const CHANNEL = `book.${INSTRUMENT}`;
/** A deep book whose snapshots, asked for again and again, fill the stalled reader's socket buffers. */
const FILLER = 'book.eth_usdt';

function bookReaderOf(messages: readonly ({ type: string } & Record<string, unknown>)[]): BookReader {
  const reader = new BookReader();
  for (const message of messages)
    if (message.channel === CHANNEL && message.type !== 'subscribed')
      reader.read(message as unknown as BookChannelMessage);
  return reader;
}

async function metric(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const samples = parseMetrics(await (await fetch(`${url}/metrics`)).text());
  const sample = samples.find(
    (each) =>
      each.name === name && Object.entries(labels).every(([key, value]) => each.labels[key] === value),
  );
  return sample?.value ?? 0;
}

/**
 * Asks for the deep filler book again and again on a reader that does not read: each subscription
 * brings its snapshot once the frames before it are written out, and some hundreds fill the socket's
 * buffers. Goes on until `done`.
 */
async function fillUntil(stalled: RawWebSocket, done: () => Promise<boolean>, what: string): Promise<void> {
  await waitFor(
    async () => {
      for (let i = 0; i < 10; i++) {
        stalled.send({ op: 'subscribe', channels: [FILLER] });
        await sleep(5);
        stalled.send({ op: 'unsubscribe', channels: [FILLER] });
      }
      return done();
    },
    what,
    60_000,
    0,
  );
}

/** A stack whose stream gives up a reader's pending book updates after 4, and lets it subscribe often. */
function startStack(tuning: Partial<Tuning>): Promise<TestStack> {
  return startTestStack({
    sandbox: { SANDBOX_FLOW_RATE: '40' },
    tuning: { streamMaxBacklog: 4, streamSubscribeRate: 1000, streamMaxSubscriptions: 4, ...tuning },
  });
}

/** A steady reader of the book, also keeping the filler's book followed so that each subscription to it is answered at once. */
async function steadyReader(url: string): Promise<StreamClient> {
  const steady = new StreamClient(url);
  await steady.opened;
  steady.send({ op: 'subscribe', channels: [CHANNEL, FILLER] });
  await steady.frame((frame) => frame.type === 'snapshot' && frame.channel === FILLER);
  return steady;
}

describe('GET /stream, a reader that stops reading', () => {
  let stack: TestStack;
  let url: string;

  beforeAll(async () => {
    stack = await startStack({ streamMaxBehindMs: 60_000 });
    url = stack.app.url;
    await waitFor(async () => (await fetch(`${url}/orderbook/${INSTRUMENT}`)).ok, 'a served book');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('delays no other reader, and catches up with one snapshot when it reads again', async () => {
    const steady = await steadyReader(url);
    const stalled = await RawWebSocket.open(url);
    stalled.send({ op: 'subscribe', channels: [CHANNEL] });
    await waitFor(() => stalled.messages.some((message) => message.type === 'snapshot'), 'a first snapshot');
    const conflations = () => metric(url, 'mdg_stream_conflations_total', { kind: 'book' });
    const conflationsBefore = await conflations();

    stalled.pause();
    await fillUntil(
      stalled,
      async () => (await conflations()) > conflationsBefore,
      "the stalled reader's pending updates given up for a snapshot",
    );
    // Meanwhile the steady reader is sent every update, on time.
    const steadyBefore = steady.frames.length;
    await waitFor(
      () => steady.frames.slice(steadyBefore).filter((frame) => frame.type === 'update').length >= 10,
      'ten more updates to the steady reader while the other is stalled',
    );

    stalled.resume();
    await setFlow(stack.sandbox, 0);
    let last = '';
    await waitFor(async () => {
      const truth = await readTruth(stack.sandbox, INSTRUMENT);
      const equal = (reader: BookReader) =>
        reader.seq === truth.version &&
        (['bid', 'ask'] as const).every(
          (side) =>
            JSON.stringify(reader.levels(side).map((level) => level.map(canonicalDecimal))) ===
            JSON.stringify(side === 'bid' ? truth.bids : truth.asks),
        );
      const [steadyBook, stalledBook] = [bookReaderOf(steady.frames), bookReaderOf(stalled.messages)];
      last = `steady at ${steadyBook.seq}, stalled at ${stalledBook.seq}, truth at ${truth.version}`;
      return equal(steadyBook) && equal(stalledBook);
    }, 'both readers equal to the exchange').catch((error: Error) => {
      throw new Error(`${error.message}; ${last}`);
    });

    const stalledBook = stalled.messages.filter((message) => message.channel === CHANNEL);
    const snapshots = stalledBook.filter((message) => message.type === 'snapshot').length;
    expect(snapshots).toBeGreaterThanOrEqual(2);
    for (const reader of [bookReaderOf(steady.frames), bookReaderOf(stalled.messages)]) {
      expect(reader.problems).toEqual([]);
      expect(reader.state).toBe('live');
    }
    // The steady reader was never conflated: its one snapshot is the first.
    expect(
      steady.frames.filter((frame) => frame.channel === CHANNEL && frame.type === 'snapshot'),
    ).toHaveLength(1);
    expect(stalled.closeCode).toBeUndefined();
    steady.close();
    stalled.close();
    await setFlow(stack.sandbox, 40);
  }, 120_000);
});

describe('GET /stream, a reader that stays behind', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ streamMaxBehindMs: 1000 });
    await waitFor(async () => (await fetch(`${stack.app.url}/orderbook/${INSTRUMENT}`)).ok, 'a served book');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is closed with 4008 after streamMaxBehindMs, and the others go on', async () => {
    const { url } = stack.app;
    const steady = await steadyReader(url);
    const stalled = await RawWebSocket.open(url);
    stalled.send({ op: 'subscribe', channels: [CHANNEL] });
    await waitFor(() => stalled.messages.some((message) => message.type === 'snapshot'), 'a first snapshot');
    const closedBefore = await metric(url, 'mdg_stream_slow_closes_total');
    stalled.pause();
    await fillUntil(
      stalled,
      async () => (await metric(url, 'mdg_stream_slow_closes_total')) > closedBefore,
      'the stalled reader closed as too slow',
    );
    const steadyBefore = steady.frames.length;
    await waitFor(
      () => steady.frames.slice(steadyBefore).filter((frame) => frame.type === 'update').length >= 5,
      'more updates to the steady reader',
    );
    stalled.resume();
    await waitFor(() => stalled.closeCode !== undefined, 'the close frame, after what was written before it');
    expect(stalled.closeCode).toBe(4008);
    expect(steady.closeCode).toBeUndefined();
    expect(bookReaderOf(steady.frames).problems).toEqual([]);
    steady.close();
    stalled.close();
  }, 120_000);
});
