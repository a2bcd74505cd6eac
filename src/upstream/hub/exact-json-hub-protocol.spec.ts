import {
  ILogger,
  JsonHubProtocol,
  LogLevel,
  MessageType,
  NullLogger,
  StreamInvocationMessage,
  TransferFormat,
} from '@microsoft/signalr';
import { MalformedBookItemError } from './book-item-codec';
import {
  ExactJsonHubProtocol,
  MalformedHubMessageError,
  RECORD_SEPARATOR as RS,
} from './exact-json-hub-protocol';

/** A Book item spelt otherwise than the hub does, which only the generic reader reads. */
const BOOK_ITEM =
  '{"instrument":"BTC_usdt","asks":[{"price":30000,"amount":1.50}],"bids":[],"version":7,"snapshot":0}';
const READ_BOOK_ITEM = {
  instrument: 'BTC_usdt',
  version: 7,
  snapshot: false,
  updates: [{ side: 'ask', price: '30000', amount: '1.5' }],
};

function protocolWithReports(): { protocol: ExactJsonHubProtocol; reports: MalformedHubMessageError[] } {
  const reports: MalformedHubMessageError[] = [];
  return { protocol: new ExactJsonHubProtocol((error) => reports.push(error)), reports };
}

const logger: ILogger = NullLogger.instance;

describe('ExactJsonHubProtocol', () => {
  it('is the json protocol, version 1, over text frames', () => {
    const protocol = new ExactJsonHubProtocol();
    expect(protocol.name).toBe('json');
    expect(protocol.version).toBe(1);
    expect(protocol.transferFormat).toBe(TransferFormat.Text);
  });

  it('reads several messages of one frame, in order, with numeric types', () => {
    const { protocol, reports } = protocolWithReports();
    const frame =
      `{"type":6}${RS}` +
      `{"type":2,"invocationId":"0","item":${BOOK_ITEM}}${RS}` +
      `{"type":3,"invocationId":"0"}${RS}` +
      `{"type":7,"error":"bye","allowReconnect":true}${RS}`;
    expect(protocol.parseMessages(frame, logger)).toEqual([
      { type: MessageType.Ping },
      { type: MessageType.StreamItem, invocationId: '0', item: READ_BOOK_ITEM },
      { type: MessageType.Completion, invocationId: '0' },
      { type: MessageType.Close, error: 'bye', allowReconnect: true },
    ]);
    expect(reports).toEqual([]);
  });

  it('keeps every digit of the numbers inside an item, where the official protocol rounds them', () => {
    // 18 decimals and 27 significant digits: far beyond a double's 15 to 17.
    const amount = '123456789.123456789012345678';
    const price = '0.000000004321987654';
    const frame = `{"type":2,"invocationId":"3","item":{"instrument":"btc_usdt","bids":[],"asks":[{"price":${price},"amount":${amount}}],"version":1,"snapshot":true}}${RS}`;
    const [exact] = new ExactJsonHubProtocol().parseMessages(frame, logger);
    expect(exact).toEqual({
      type: 2,
      invocationId: '3',
      item: { instrument: 'btc_usdt', version: 1, snapshot: true, updates: [{ side: 'ask', price, amount }] },
    });
    const [rounded] = new JsonHubProtocol().parseMessages(frame, logger) as {
      item: { asks: { amount: number }[] };
    }[];
    expect(String(rounded.item.asks[0].amount)).not.toBe(amount);
  });

  it('skips and reports a message that is not JSON, keeping the others of the frame', () => {
    const { protocol, reports } = protocolWithReports();
    const malformed = '{"type":2,"invocationId":"0","item":{"instrument":';
    const frame = `{"type":6}${RS}${malformed}${RS}{"type":2,"invocationId":"0","item":${BOOK_ITEM}}${RS}`;
    expect(protocol.parseMessages(frame, logger)).toEqual([
      { type: 6 },
      { type: 2, invocationId: '0', item: READ_BOOK_ITEM },
    ]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toBeInstanceOf(MalformedHubMessageError);
    expect(reports[0].text).toBe(malformed);
    expect(reports[0].message).toMatch(/invalid JSON/);
    // The official protocol lets the same frame throw, which closes the connection.
    expect(() => new JsonHubProtocol().parseMessages(frame, logger)).toThrow();
  });

  it.each([
    ['a message that is no object', `[1,2]`, /not a JSON object/],
    ['a message without a type', `{"invocationId":"0"}`, /"type" is not an integer/],
    ['a type that is no integer', `{"type":2.5}`, /"type" is not an integer/],
    ['a stream item without an item', `{"type":2,"invocationId":"0"}`, /without an item/],
    ['a stream item without an invocation id', `{"type":2,"item":{}}`, /"invocationId"/],
    [
      'a completion with a result and an error',
      `{"type":3,"invocationId":"1","result":1,"error":"x"}`,
      /both/,
    ],
    ['a completion with an empty error', `{"type":3,"invocationId":"1","error":""}`, /"error"/],
    ['an invocation without a target', `{"type":1,"arguments":[]}`, /"target"/],
    ['an ack without a sequence id', `{"type":8}`, /"sequenceId"/],
    ['an empty message', ``, /invalid JSON/],
  ])('skips and reports %s', (_case, message, reason) => {
    const { protocol, reports } = protocolWithReports();
    expect(protocol.parseMessages(`${message}${RS}{"type":6}${RS}`, logger)).toEqual([{ type: 6 }]);
    expect(reports.map((report) => report.message)).toEqual([expect.stringMatching(reason)]);
  });

  it('hands on a stream item that is no Book item, rejected in the generic words, for its stream to count', () => {
    const { protocol, reports } = protocolWithReports();
    const frame = `{"type":2,"invocationId":"0","item":{"instrument":"btc_usdt","version":8}}${RS}`;
    const [message] = protocol.parseMessages(frame, logger);
    expect(message).toEqual({
      type: 2,
      invocationId: '0',
      item: { rejection: expect.any(MalformedBookItemError), instrument: 'btc_usdt' },
    });
    expect((message as { item: { rejection: MalformedBookItemError } }).item.rejection.problems).toEqual([
      'item.snapshot: expected true, false, 0 or 1, got nothing',
      'item.bids: expected an array, got nothing',
      'item.asks: expected an array, got nothing',
    ]);
    expect(reports).toEqual([]);
  });

  it('reports text after the last separator and still returns the complete messages', () => {
    const { protocol, reports } = protocolWithReports();
    expect(protocol.parseMessages(`{"type":6}${RS}{"type":6}`, logger)).toEqual([{ type: 6 }]);
    expect(reports.map((report) => report.message)).toEqual([expect.stringMatching(/no record separator/)]);
  });

  it('reports binary input instead of throwing', () => {
    const { protocol, reports } = protocolWithReports();
    expect(protocol.parseMessages(new ArrayBuffer(4), logger)).toEqual([]);
    expect(reports).toHaveLength(1);
  });

  it('ignores unknown message types without reporting them, as the protocol asks', () => {
    const { protocol, reports } = protocolWithReports();
    const logged: string[] = [];
    const recording: ILogger = {
      log: (level, message) => level === LogLevel.Information && logged.push(message),
    };
    expect(protocol.parseMessages(`{"type":42,"x":1}${RS}{"type":6}${RS}`, recording)).toEqual([{ type: 6 }]);
    expect(reports).toEqual([]);
    expect(logged).toEqual(["Unknown message type '42' ignored."]);
  });

  it('turns the sequence ids of Ack and Sequence messages into numbers', () => {
    const protocol = new ExactJsonHubProtocol();
    expect(
      protocol.parseMessages(`{"type":8,"sequenceId":12}${RS}{"type":9,"sequenceId":3}${RS}`, logger),
    ).toEqual([
      { type: 8, sequenceId: 12 },
      { type: 9, sequenceId: 3 },
    ]);
  });

  it('reads what the official client hands over after taking the handshake response off a frame', () => {
    // The official client reads `{}` itself and passes on the rest of the frame: nothing, or messages.
    const { protocol, reports } = protocolWithReports();
    expect(protocol.parseMessages('', logger)).toEqual([]);
    expect(protocol.parseMessages(`{"type":6}${RS}`, logger)).toEqual([{ type: 6 }]);
    expect(reports).toEqual([]);
  });

  it('writes plain JSON ended by the record separator, as the official protocol does', () => {
    const protocol = new ExactJsonHubProtocol();
    const message: StreamInvocationMessage = {
      type: MessageType.StreamInvocation,
      invocationId: '0',
      target: 'Book',
      arguments: ['btc_usdt'],
      streamIds: [],
    };
    const written = protocol.writeMessage(message);
    expect(written).toBe(
      '{"type":4,"invocationId":"0","target":"Book","arguments":["btc_usdt"],"streamIds":[]}\x1e',
    );
    expect(written).toBe(new JsonHubProtocol().writeMessage(message));
    expect(protocol.writeMessage({ type: MessageType.Ping })).toBe(`{"type":6}${RS}`);
  });
});
