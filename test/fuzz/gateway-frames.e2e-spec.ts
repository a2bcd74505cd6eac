import fc from 'fast-check';
import { Registry } from 'prom-client';
import { BookMessage } from '../../src/market/book-update';
import { canonicalDecimal } from '../../src/market/decimal';
import { ExactJson, parseExactJson } from '../../src/upstream/exact-json';
import { GatewayClient, GatewayConnectionState } from '../../src/upstream/gateway/gateway-client';
import { decodeFrame, FrameType } from '../../src/upstream/gateway/gateway-frame';
import { GatewayPayloadError } from '../../src/upstream/gateway/gateway-payload-error';
import { decodeInstruments } from '../../src/upstream/gateway/instruments-codec';
import { decodeLevel1 } from '../../src/upstream/gateway/level1-codec';
import {
  decodeLevel2Snapshot,
  decodeLevel2Update,
  hasLevel2Rows,
} from '../../src/upstream/gateway/level2-codec';
import { level2Subscription, LEVEL2_EVENT } from '../../src/upstream/gateway/market-data-subscriptions';
import { decodeProducts } from '../../src/upstream/gateway/products-codec';
import { decodeTradeHistory } from '../../src/upstream/gateway/trade-history-codec';
import { decodeTrades } from '../../src/upstream/gateway/trade-rows-codec';
import { waitUntil } from '../../src/upstream/gateway/testing/wait-until';
import { REJECTED_METRIC, UpstreamRejections } from '../../src/upstream/upstream-rejections';
import { fuzzCases, fuzzParameters, parsedOrUndefined, ProcessFailures } from './support/fuzz-run';
import { damagedText, jsonText, JsonLike, junkValue, mutatedJson, RawJson } from './support/junk-json';
import { frameText, TinyGateway } from './support/tiny-gateway';

const CASES = 2_000;
const LIVE_CASES = 1_500;
const GOOD = { instrumentId: 1, instrument: 'good_usdt' };
const JUNK = { instrumentId: 2, instrument: 'junk_usdt' };
const NAMES = new Map([
  [GOOD.instrumentId, GOOD.instrument],
  [JUNK.instrumentId, JUNK.instrument],
]);

/** `[MDUpdateId, NumAccounts, ActionDateTime, ActionType, LastTradePrice, NumOrders, Price, InstrumentId, Quantity, Side]` */
function level2Row(
  instrumentId: number,
  updateId: number,
  side: number,
  price: string,
  quantity: string,
): JsonLike {
  return [
    updateId,
    1,
    new RawJson('1700000000123'),
    0,
    new RawJson('100.5'),
    1,
    new RawJson(price),
    instrumentId,
    new RawJson(quantity),
    side,
  ];
}

const junkRows: JsonLike = [
  level2Row(JUNK.instrumentId, 10, 0, '99.5', '1.25'),
  level2Row(JUNK.instrumentId, 11, 1, '100.000000000000000001', '0.000000000000000001'),
];

/** A valid payload of each codec, to be damaged. */
const PAYLOADS: Record<string, { sample: JsonLike; decode: (payload: ExactJson) => unknown }> = {
  level2Update: { sample: junkRows, decode: (payload) => decodeLevel2Update(payload, JUNK, 0) },
  level2Snapshot: { sample: junkRows, decode: (payload) => decodeLevel2Snapshot(payload, JUNK, 0) },
  trades: {
    sample: [
      [
        5000001,
        2,
        new RawJson('1.5'),
        new RawJson('0.000000012345678901'),
        11,
        12,
        1700000000123,
        1,
        0,
        false,
        0,
      ],
    ],
    decode: (payload) => decodeTrades(payload, NAMES, 'TradeDataUpdateEvent'),
  },
  level1: {
    sample: {
      OMSId: 1,
      InstrumentId: 2,
      BestBid: new RawJson('30000.10'),
      BestOffer: new RawJson('30000.2'),
      LastTradedPx: new RawJson('30000.15'),
      LastTradedQty: new RawJson('0.000214'),
      LastTradeTime: 1700000000123,
      Rolling24HrVolume: new RawJson('123456789.123456789012345678'),
      Rolling24HrNumTrades: 321,
      TimeStamp: '1700000000999',
    },
    decode: (payload) => decodeLevel1(payload, JUNK, 0),
  },
  instruments: {
    sample: [
      {
        OMSId: 1,
        InstrumentId: 3,
        Symbol: 'LTCBTC',
        Product1Symbol: 'LTC',
        Product2Symbol: 'BTC',
        SessionStatus: 'Running',
        QuantityIncrement: new RawJson('0.00000001'),
      },
    ],
    decode: decodeInstruments,
  },
  products: {
    sample: [{ ProductId: 1, Product: 'BTC', ProductFullName: 'Bitcoin', DecimalPlaces: 8 }],
    decode: decodeProducts,
  },
  tradeHistory: {
    sample: [
      {
        TradeId: 7,
        InstrumentId: 2,
        Price: new RawJson('1.5'),
        Quantity: new RawJson('2'),
        Side: 'Buy',
        TradeTimeMS: 1700000000123,
        IsBlockTrade: false,
      },
    ],
    decode: decodeTradeHistory,
  },
};

const event = (payload: JsonLike): JsonLike => ({ m: 3, i: 5, n: LEVEL2_EVENT, o: jsonText(payload) });

/** One websocket message of the gateway: a Level 2 event damaged in its payload, its envelope or its text. */
const junkFrame: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(jsonText(event(junkRows))), weight: 1 },
  { arbitrary: mutatedJson(junkRows).map((rows) => jsonText(event(rows))), weight: 5 },
  { arbitrary: mutatedJson(event(junkRows)).map(jsonText), weight: 3 },
  {
    arbitrary: damagedText(jsonText(junkRows)).map((o) => JSON.stringify({ m: 3, i: 5, n: LEVEL2_EVENT, o })),
    weight: 2,
  },
  { arbitrary: damagedText(jsonText(event(junkRows))), weight: 2 },
  { arbitrary: junkValue.map(jsonText), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(0, 1, 2, 4, 5, 6, -1, 3.5), fc.string({ maxLength: 30 }))
      .map(([m, n]) => JSON.stringify({ m, i: 5, n, o: '{}' })),
    weight: 1,
  },
);

/** What the client will make of a frame: rejected, a delta of the junk book, or ignored. */
function outcomeOf(text: string): { rejected: boolean; touchesGood: boolean; unexpected?: unknown } {
  const decoded = decodeFrame(text);
  if (!decoded.ok) return { rejected: true, touchesGood: false };
  const { frame } = decoded;
  if (frame.type !== FrameType.Event || frame.name !== LEVEL2_EVENT)
    return { rejected: false, touchesGood: false };
  const touchesGood = hasLevel2Rows(frame.payload, GOOD.instrumentId);
  if (!hasLevel2Rows(frame.payload, JUNK.instrumentId)) return { rejected: false, touchesGood };
  try {
    decodeLevel2Update(frame.payload, JUNK, 0);
    return { rejected: false, touchesGood };
  } catch (error) {
    if (error instanceof GatewayPayloadError) return { rejected: true, touchesGood };
    return { rejected: false, touchesGood, unexpected: error };
  }
}

describe('gateway frames and payloads under fuzzing', () => {
  const failures = new ProcessFailures();
  beforeAll(() => failures.install());
  afterAll(() => failures.uninstall());

  it('a frame decodes or is reported with a reason, never throws', () => {
    fc.assert(
      fc.property(junkFrame, (text) => {
        const decoded = decodeFrame(text);
        if (decoded.ok) {
          expect([FrameType.Reply, FrameType.Event, FrameType.Error]).toContain(decoded.frame.type);
          expect(Number.isSafeInteger(decoded.frame.sequence)).toBe(true);
        } else {
          expect(['not-json', 'invalid-frame', 'payload-not-json']).toContain(decoded.kind);
          expect(decoded.reason.length).toBeLessThan(200);
        }
      }),
      fuzzParameters(CASES),
    );
  });

  it.each(Object.keys(PAYLOADS))(
    'a damaged %s payload decodes or fails with a GatewayPayloadError',
    (name) => {
      const { sample, decode } = PAYLOADS[name];
      expect(() => decode(parseExactJson(jsonText(sample)))).not.toThrow();
      fc.assert(
        fc.property(
          fc.oneof({ arbitrary: mutatedJson(sample), weight: 9 }, { arbitrary: junkValue, weight: 1 }),
          (value) => {
            const payload = parsedOrUndefined(jsonText(value));
            // Text the parser refuses never reaches a codec: the frame is rejected as not JSON.
            if (payload === undefined) return;
            let decoded: unknown;
            try {
              decoded = decode(payload);
            } catch (error) {
              expect(error).toBeInstanceOf(GatewayPayloadError);
              return;
            }
            if (name.startsWith('level2')) {
              for (const update of (decoded as BookMessage | undefined)?.updates ?? []) {
                expect(canonicalDecimal(update.price)).toBe(update.price);
                expect(canonicalDecimal(update.amount)).toBe(update.amount);
              }
            }
          },
        ),
        fuzzParameters(CASES / 2),
      );
    },
  );

  it('a real client skips thousands of junk frames, counts each, and keeps its connection and its other book', async () => {
    const gateway = new TinyGateway();
    gateway.snapshots.set(GOOD.instrumentId, [plain(level2Row(GOOD.instrumentId, 1, 0, '10', '1'))]);
    gateway.snapshots.set(JUNK.instrumentId, plain(junkRows) as unknown[][]);
    const wsUrl = await gateway.listen();
    const registry = new Registry();
    const logLines: string[] = [];
    const logger = {
      log: () => undefined,
      warn: (line: string) => logLines.push(line),
      error: (line: string) => logLines.push(line),
    };
    const client = new GatewayClient({
      wsUrl,
      logger,
      rejections: new UpstreamRejections(logger, { registry }),
      pingIntervalMs: 120_000,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    const states: GatewayConnectionState[] = [];
    client.onStateChange((state) => states.push(state));
    const good: BookMessage[] = [];
    const junk: BookMessage[] = [];
    const errors: Error[] = [];
    for (const [ref, messages] of [
      [GOOD, good],
      [JUNK, junk],
    ] as const) {
      client.subscribe(
        level2Subscription(
          { instrument: ref, depth: 100 },
          { onBook: (message) => messages.push(message), onError: (error) => errors.push(error) },
        ),
      );
    }
    try {
      client.start();
      await waitUntil(() => good.length === 1 && junk.length === 1, 5_000, 'both snapshots');

      const cases = fuzzCases(junkFrame, LIVE_CASES * 2, 2)
        .map((text) => ({ text, outcome: outcomeOf(text) }))
        .filter(({ outcome }) => !outcome.touchesGood);
      expect(cases.map(({ outcome }) => outcome.unexpected).filter(Boolean)).toEqual([]);
      const sent = cases.slice(0, LIVE_CASES);
      let goodVersion = 1;
      for (const [index, { text }] of sent.entries()) {
        await gateway.send(text);
        if (index % 10 === 0) {
          goodVersion += 1;
          await gateway.send(
            frameText(3, 7, LEVEL2_EVENT, [
              plain(level2Row(GOOD.instrumentId, goodVersion, 1, `${goodVersion}.5`, '2')),
            ]),
          );
        }
      }
      const expected = sent.filter(({ outcome }) => outcome.rejected).length;
      await waitUntil(() => good.at(-1)?.version === goodVersion, 10_000, 'the last good delta');
      // A Ping answered after the junk: every frame before it was read.
      expect(await client.request('Ping')).toEqual({ msg: 'PONG' });

      expect(sent.length).toBe(LIVE_CASES);
      expect(expected).toBeGreaterThan(LIVE_CASES / 2);
      expect(await rejectedTotal(registry)).toBe(expected);
      expect(errors.filter((error) => !(error instanceof GatewayPayloadError))).toEqual([]);
      expect(good.map((message) => message.version)).toEqual(
        Array.from({ length: goodVersion }, (_, index) => index + 1),
      );
      expect(states).toEqual(['connecting', 'connected']);
      expect(gateway.connections).toBe(1);
      expect(client.counters.reconnects).toBe(0);
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.length).toBeLessThanOrEqual(10);
    } finally {
      await client.stop();
      await gateway.close();
    }
    expect(failures.seen).toEqual([]);
  }, 120_000);
});

function plain(value: JsonLike): unknown[] {
  return JSON.parse(jsonText(value)) as unknown[];
}

async function rejectedTotal(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric(REJECTED_METRIC)!.get();
  return metric.values.reduce((sum, sample) => sum + sample.value, 0);
}
