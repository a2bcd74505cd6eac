import Redis from 'ioredis';
import { canonicalDecimal } from '../../src/market/decimal';
import { BookChannelMessage } from '../../src/market/stream/book-channel-message';
import { BookReader } from '../../src/market/stream/testing/book-reader';
import { decodeInstrumentChange } from '../../src/store/instrument-change-message';
import { InstrumentChange } from '../../src/store/state-store';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { StreamClient } from '../support/stream-client';
import { readTruth, setFlow } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const CHANNEL = `book.${INSTRUMENT}`;
const CHANGES = 'mdg:changes';

type Level = readonly [string, string];
const canonical = (levels: readonly Level[]): [string, string][] =>
  levels.map(([price, amount]) => [canonicalDecimal(price), canonicalDecimal(amount)]);

/** How many PUBLISH calls Redis ran since its statistics were reset (scripts' calls included). */
async function publishCalls(admin: Redis): Promise<number> {
  const stats = await admin.info('commandstats');
  return Number(/cmdstat_publish:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

describe('one read model per market, fed by one subscription and one publish per write', () => {
  let stack: TestStack;
  let admin: Redis;
  let monitor: Redis;
  const clients: StreamClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '40' } });
    admin = new Redis(stack.redis!.url);
    monitor = new Redis(stack.redis!.url);
    await waitFor(async () => (await fetch(`${stack.app.url}/orderbook/${INSTRUMENT}`)).ok, 'a served book');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    monitor?.disconnect();
    admin?.disconnect();
    await stack?.close();
  });

  async function streamReader(): Promise<{ client: StreamClient; reader: BookReader; applyAll(): void }> {
    const client = new StreamClient(stack.app.url);
    clients.push(client);
    await client.opened;
    client.send({ op: 'subscribe', channels: [CHANNEL] });
    const reader = new BookReader();
    let applied = 0;
    const applyAll = (): void => {
      for (; applied < client.frames.length; applied++) {
        const frame = client.frames[applied];
        if (frame.channel === CHANNEL && frame.type !== 'subscribed')
          reader.read(frame as unknown as BookChannelMessage);
      }
    };
    await client.frame((frame) => frame.type === 'snapshot');
    return { client, reader, applyAll };
  }

  it('has the process subscribe to the change channel once, and each write publish one message there', async () => {
    // A streamed book and a served one: neither adds a subscription of its own.
    await streamReader();
    expect((await fetch(`${stack.app.url}/orderbook/${INSTRUMENT}`)).ok).toBe(true);
    expect(await admin.pubsub('NUMSUB', CHANGES)).toEqual([CHANGES, 1]);
    const channels = (await admin.pubsub('CHANNELS')) as string[];
    expect(channels.filter((channel) => channel.includes('{'))).toEqual([]);

    const heard: [channel: string, message: string][] = [];
    monitor.on('pmessage', (_pattern: string, channel: string, message: string) =>
      heard.push([channel, message]),
    );
    await monitor.psubscribe('*');
    // Writes wait while Redis is paused: the count starts and ends between two writes, and a PING on
    // the monitoring connection comes back after every message published before it.
    await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE');
    await monitor.ping();
    heard.length = 0;
    await admin.config('RESETSTAT');
    await admin.call('CLIENT', 'UNPAUSE');
    await waitFor(() => heard.filter(([channel]) => channel === CHANGES).length >= 100, 'a hundred writes');
    await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE');
    const published = await publishCalls(admin);
    await monitor.ping();
    const counted = heard.slice();
    await admin.call('CLIENT', 'UNPAUSE');
    await monitor.punsubscribe();

    // Every PUBLISH Redis ran was heard, and each write's is one message on the change channel.
    expect(counted.length).toBe(published);
    const writes = counted.filter(([channel]) => channel === CHANGES);
    expect(writes.length).toBeGreaterThanOrEqual(100);
    const changes = writes.map(([, message]) => decodeInstrumentChange(message));
    expect(changes.filter((change) => change === undefined)).toEqual([]);
    // Per instrument, each message starts from the versions the one before it left: none came twice.
    const previous = new Map<string, InstrumentChange>();
    for (const change of changes as InstrumentChange[]) {
      const before = previous.get(change.instrument);
      if (before && !change.replace) {
        expect([change.fromVersion, change.fromTradesRevision]).toEqual([
          before.head.bookVersion,
          before.head.tradesRevision,
        ]);
      }
      previous.set(change.instrument, change);
    }
    expect(previous.size).toBeGreaterThan(1);
  });

  it('has the stream and /orderbook agree on the book after Redis restarted empty', async () => {
    const { client, reader, applyAll } = await streamReader();
    const snapshotsBefore = client.frames.filter((frame) => frame.type === 'snapshot').length;
    const fromFrame = client.frames.length;
    await stack.redis!.restart();
    // The restart empties the store: the book is read again once, and the reader is told so.
    await client.frame((frame) => frame.type === 'status' && frame.state === 'resyncing', fromFrame);
    await waitFor(
      () => client.frames.filter((frame) => frame.type === 'snapshot').length > snapshotsBefore,
      'a snapshot after the reset',
    );
    await setFlow(stack.sandbox, 0);
    let last = '';
    await waitFor(async () => {
      applyAll();
      const truth = await readTruth(stack.sandbox, INSTRUMENT);
      const served = (await (await fetch(`${stack.app.url}/orderbook/${INSTRUMENT}`)).json()) as {
        bids: Level[];
        asks: Level[];
      };
      const streamed = { bids: canonical(reader.levels('bid')), asks: canonical(reader.levels('ask')) };
      const listed = { bids: canonical(served.bids), asks: canonical(served.asks) };
      last = `reader at ${reader.seq}, truth at ${truth.version}`;
      return (
        reader.seq === truth.version &&
        JSON.stringify(streamed) === JSON.stringify(listed) &&
        JSON.stringify(streamed) === JSON.stringify({ bids: truth.bids, asks: truth.asks })
      );
    }, 'the stream, /orderbook and the exchange on one book').catch((error: Error) => {
      throw new Error(`${error.message}; ${last}`);
    });
    expect(reader.problems).toEqual([]);
    expect(reader.state).toBe('live');
    await setFlow(stack.sandbox, 40);
  });
});
