import { HubMessage, ILogger, MessageType } from '@microsoft/signalr';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { BookMessage } from '../../src/market/book-update';
import { canonicalDecimal } from '../../src/market/decimal';
import {
  bookMessageOf,
  decodeJsonBookItem,
  MalformedBookItemError,
} from '../../src/upstream/hub/book-item-codec';
import { BookListener } from '../../src/upstream/hub/book-subscription';
import {
  ExactJsonHubProtocol,
  MalformedHubMessageError,
  RECORD_SEPARATOR as RS,
} from '../../src/upstream/hub/exact-json-hub-protocol';
import { HubClient, HubClientState } from '../../src/upstream/hub/hub-client';
import { REJECTED_METRIC, UpstreamRejections } from '../../src/upstream/upstream-rejections';
import { waitUntil } from '../../src/upstream/gateway/testing/wait-until';
import { fuzzCases, fuzzParameters, parsedOrUndefined, ProcessFailures } from './support/fuzz-run';
import { damagedText, jsonText, JsonLike, junkValue, mutatedJson, RawJson } from './support/junk-json';
import { TinyHub } from './support/tiny-hub';

const CASES = 2_000;
const LIVE_CASES = 1_000;
const JUNK = 'junk_usdt';
const GOOD = 'good_usdt';

function bookItem(instrument: string, version: number): JsonLike {
  return {
    instrument,
    bids: [
      { price: new RawJson('100.25'), amount: new RawJson('2.5') },
      { price: '99.000000000000000001', amount: '0' },
    ],
    asks: [{ price: new RawJson('101'), amount: new RawJson('0.000000000000000001') }],
    version: new RawJson(String(version)),
    askTotalAmount: new RawJson('1'),
    bidTotalAmount: new RawJson('2.5'),
    snapshot: false,
  };
}

const streamItem = (invocationId: string): JsonLike => ({ type: 2, invocationId, item: bookItem(JUNK, 7) });

/** One record of the hub's stream: fine, damaged as JSON, or damaged as text. */
function record(invocationId: string): fc.Arbitrary<string> {
  const valid = jsonText(streamItem(invocationId));
  return fc.oneof(
    { arbitrary: fc.constant(valid), weight: 1 },
    { arbitrary: mutatedJson(streamItem(invocationId)).map(jsonText), weight: 6 },
    { arbitrary: damagedText(valid), weight: 2 },
    { arbitrary: junkValue.map(jsonText), weight: 1 },
  );
}

/** A websocket message: records, each ended by the separator or by a wrong one, maybe a tail without one. */
function frame(invocationId: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(
        fc.tuple(record(invocationId), fc.constantFrom(RS, RS, RS, RS, `${RS}${RS}`, '\n', '\x1f', '')),
        { minLength: 1, maxLength: 4 },
      ),
      fc.option(record(invocationId), { freq: 8 }),
    )
    .map(([records, tail]) => records.map(([text, end]) => text + end).join('') + (tail ?? ''));
}

/** What the protocol and the codec make of a frame, as the client will see it. */
function expectedOf(text: string, junkId: string) {
  const reports: MalformedHubMessageError[] = [];
  const messages = new ExactJsonHubProtocol((error) => reports.push(error)).parseMessages(text, null);
  let invalidItems = 0;
  for (const message of messages) {
    if (message.type === MessageType.StreamItem && message.invocationId === junkId) {
      try {
        bookMessageOf(message.item, 0, JUNK);
      } catch {
        invalidItems += 1;
      }
    }
  }
  return { messages, rejections: reports.length + invalidItems };
}

/** A message the client must act on, which no junk may be: a close, or the end of a stream. */
function endsSomething(message: HubMessage, goodId: string): boolean {
  if (message.type === MessageType.Close || message.type === MessageType.Completion) return true;
  return message.type === MessageType.StreamItem && message.invocationId === goodId;
}

describe('hub messages under fuzzing', () => {
  const failures = new ProcessFailures();
  beforeAll(() => failures.install());
  afterAll(() => failures.uninstall());

  it('the protocol reads, reports or ignores every record of damaged frames, and never throws', () => {
    const unknownTypes: string[] = [];
    const logger: ILogger = { log: (_level, message) => unknownTypes.push(message) };
    fc.assert(
      fc.property(frame('1'), (text) => {
        const reports: MalformedHubMessageError[] = [];
        unknownTypes.length = 0;
        const messages = new ExactJsonHubProtocol((error) => reports.push(error)).parseMessages(text, logger);
        const records = text.split(RS);
        const tail = records.pop()!;
        const recordReports = reports.filter((report) => report.kind !== 'unterminated');
        expect(messages.length + recordReports.length + unknownTypes.length).toBe(records.length);
        expect(reports.length - recordReports.length).toBe(tail === '' ? 0 : 1);
        for (const message of messages) expect(Number.isSafeInteger(message.type)).toBe(true);
        for (const report of reports) {
          expect(report).toBeInstanceOf(MalformedHubMessageError);
          expect(['not-json', 'invalid-message', 'unterminated']).toContain(report.kind);
        }
      }),
      fuzzParameters(CASES),
    );
  });

  it('a Book item decodes to a book message of canonical decimals or to a MalformedBookItemError', () => {
    const item = fc.oneof(
      { arbitrary: mutatedJson(bookItem(JUNK, 7)), weight: 9 },
      { arbitrary: junkValue, weight: 1 },
    );
    fc.assert(
      fc.property(item, (value) => {
        const item = parsedOrUndefined(jsonText(value));
        // Text the parser refuses never reaches the codec: the record is rejected as not JSON.
        if (item === undefined) return;
        let message: BookMessage;
        try {
          message = decodeJsonBookItem(item, 5, JUNK);
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedBookItemError);
          expect((error as MalformedBookItemError).problems.length).toBeGreaterThan(0);
          return;
        }
        expect(message.instrument).toBe(JUNK);
        expect(Number.isSafeInteger(message.version) && message.version >= 0).toBe(true);
        for (const update of message.updates) {
          expect(canonicalDecimal(update.price)).toBe(update.price);
          expect(canonicalDecimal(update.amount)).toBe(update.amount);
        }
      }),
      fuzzParameters(CASES),
    );
  });

  it('a real client skips thousands of junk records, counts each, and keeps its connection and its other stream', async () => {
    const hub = new TinyHub();
    const baseUrl = await hub.listen();
    const registry = new Registry();
    const logLines: string[] = [];
    const logger = { log: () => undefined, warn: (line: string) => logLines.push(line) };
    const client = new HubClient({
      baseUrl,
      logger,
      rejections: new UpstreamRejections(logger, { registry }),
      serverTimeoutMs: 120_000,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    const states: HubClientState[] = [];
    client.onStateChange((state) => states.push(state));
    const good = new RecordingListener();
    const junk = new RecordingListener();
    try {
      client.start();
      client.openBook(GOOD, good);
      client.openBook(JUNK, junk);
      await waitUntil(() => hub.streams.size === 2, 5_000, 'both streams opened');
      const goodId = hub.streams.get(GOOD)!;
      const junkId = hub.streams.get(JUNK)!;
      await hub.send(hub.item(GOOD, { ...(plain(bookItem(GOOD, 1)) as object), snapshot: true }));

      let expected = 0;
      let goodVersion = 1;
      const sent = fuzzCases(frame(junkId), LIVE_CASES * 2, 1)
        .map((text) => ({ text, outcome: expectedOf(text, junkId) }))
        .filter(({ outcome }) => !outcome.messages.some((message) => endsSomething(message, goodId)))
        .slice(0, LIVE_CASES);
      for (const [index, { text, outcome }] of sent.entries()) {
        expected += outcome.rejections;
        // Now and then the good stream's next delta rides in the same websocket message (when the
        // junk ends with a separator; otherwise the delta would become part of the junk record).
        if (index % 10 !== 0) await hub.send(text);
        else {
          const delta = hub.item(GOOD, plain(bookItem(GOOD, ++goodVersion)));
          if (text.endsWith(RS)) await hub.send(text + delta);
          else {
            await hub.send(text);
            await hub.send(delta);
          }
        }
      }
      await hub.send(hub.item(GOOD, plain(bookItem(GOOD, ++goodVersion))));
      await waitUntil(() => good.versions.at(-1) === goodVersion, 10_000, 'the last good delta');

      expect(sent.length).toBe(LIVE_CASES);
      expect(expected).toBeGreaterThan(LIVE_CASES);
      expect(client.counters.malformedMessages).toBe(expected);
      expect(await rejectedTotal(registry)).toBe(expected);
      expect(good.versions).toEqual(Array.from({ length: goodVersion }, (_, index) => index + 1));
      expect(good.interruptions).toEqual([]);
      expect(junk.interruptions).toEqual([]);
      expect(states).toEqual(['connecting', 'connected']);
      expect(hub.connections).toBe(1);
      expect(client.counters.reconnects).toBe(0);
      // Logged once per kind within the interval, not once per record.
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.length).toBeLessThanOrEqual(10);
    } finally {
      await client.stop();
      await hub.close();
    }
    expect(failures.seen).toEqual([]);
  }, 120_000);
});

class RecordingListener implements BookListener {
  readonly versions: number[] = [];
  readonly interruptions: string[] = [];
  readonly malformed: Error[] = [];
  onMessage(message: BookMessage): void {
    this.versions.push(message.version);
  }
  onInterrupted(reason: string): void {
    this.interruptions.push(reason);
  }
  onMalformed(error: Error): void {
    this.malformed.push(error);
  }
}

/** The JSON value of a JsonLike, for a stream item the hub sends as plain JSON. */
function plain(value: JsonLike): unknown {
  return JSON.parse(jsonText(value));
}

async function rejectedTotal(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric(REJECTED_METRIC)!.get();
  return metric.values.reduce((sum, sample) => sum + sample.value, 0);
}
