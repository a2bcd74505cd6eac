import { HubMessage, MessageType } from '@microsoft/signalr';
import fc from 'fast-check';
import { BookMessage } from '../../market/book-update';
import { ExactJson, parseExactJson } from '../exact-json';
import {
  BookItem,
  bookMessageOf,
  decodeJsonBookItem,
  MalformedBookItemError,
  readBookItem,
} from './book-item-codec';
import { readHubFormBookItem } from './book-item-reader';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from './exact-json-hub-protocol';
import {
  anySpellingRecord,
  damagedRecord,
  hubFormRecord,
  hubLayoutRecord,
  hubRecord,
  inHubForm,
} from './testing/book-item-records';

const SEED = 20261122;
const RECEIVED_AT = 1_710_408_413_589;
const EXPECTED_INSTRUMENTS = [undefined, 'btc_usdt', 'BTC_USDT', 'eth_btc'];

type Decoded = { message: BookMessage } | { problems: readonly string[] };

function outcome(decode: () => BookMessage): Decoded {
  try {
    return { message: decode() };
  } catch (error) {
    if (!(error instanceof MalformedBookItemError)) throw error;
    return { problems: error.problems };
  }
}

/** What a Book stream makes of an item the hub protocol handed on. */
function decoded(item: BookItem, expectedInstrument: string | undefined): Decoded {
  return outcome(() => bookMessageOf(item, RECEIVED_AT, expectedInstrument));
}

/** What the generic reader makes of a parsed item. */
function decodedJson(item: ExactJson | undefined, expectedInstrument: string | undefined): Decoded {
  return outcome(() => decodeJsonBookItem(item, RECEIVED_AT, expectedInstrument));
}

/**
 * The reader's promise for a record in the hub's form: the generic reader reads the same text as a
 * StreamItem with the same invocation and an item that decodes exactly alike, problems included,
 * whatever instrument is expected.
 */
function expectReadAsGeneric(record: string): void {
  const fast = readHubFormBookItem(record);
  if (fast === undefined) throw new Error(`declined a record in the hub's form: ${record}`);
  const generic = parseExactJson(record) as { [key: string]: ExactJson };
  expect(Object.keys(generic)).toEqual(['type', 'invocationId', 'item']);
  expect(generic.type).toBe(String(MessageType.StreamItem));
  expect(fast.type).toBe(MessageType.StreamItem);
  expect(fast.invocationId).toBe(generic.invocationId);
  expect(fast.item).toEqual(readBookItem(generic.item));
  expect(fast.item).not.toHaveProperty('rejection');
  for (const expected of EXPECTED_INSTRUMENTS)
    expect(decoded(fast.item, expected)).toEqual(decodedJson(generic.item, expected));
}

/** The item the hub protocol hands a Book stream for `record`, if it hands on a stream item. */
function protocolItem(record: string): BookItem | undefined {
  const [message] = new ExactJsonHubProtocol().parseMessages(record + RECORD_SEPARATOR, null);
  return message?.type === MessageType.StreamItem ? (message.item as BookItem) : undefined;
}

/** What a Book stream makes of `record`, the instrument "btc_usdt" expected. */
function protocolDecoded(record: string): Decoded {
  return decoded(protocolItem(record)!, 'btc_usdt');
}

/** Whatever the hub protocol hands a stream for `record` decodes as the generic reader decodes its item. */
function expectHandedOnAsGeneric(record: string): void {
  const item = protocolItem(record);
  if (item === undefined) return;
  const generic = (parseExactJson(record) as { [key: string]: ExactJson }).item;
  for (const expected of EXPECTED_INSTRUMENTS)
    expect(decoded(item, expected)).toEqual(decodedJson(generic, expected));
}

describe('readHubFormBookItem', () => {
  it("reads the hub's own form straight into the decoded item, amounts of 28 decimals trimmed", () => {
    const record = hubRecord(
      '{"amount":0.0002140000000000000000000000,"price":30000.10},{"amount":1,"price":29999}',
      true,
    );
    const message = readHubFormBookItem(record);
    const updates = [
      { side: 'bid', price: '30000.1', amount: '0.000214' },
      { side: 'bid', price: '29999', amount: '1' },
      { side: 'ask', price: '30001.5', amount: '0' },
    ];
    expect(message).toEqual({
      type: MessageType.StreamItem,
      invocationId: '1',
      item: { instrument: 'btc_usdt', version: 367398, snapshot: true, updates },
    });
    expect(bookMessageOf(message!.item, RECEIVED_AT, 'BTC_USDT')).toEqual({
      instrument: 'btc_usdt',
      version: 367398,
      snapshot: true,
      time: RECEIVED_AT,
      updates,
    });
    expectReadAsGeneric(record);
  });

  it('reads every generated Book item in the hub form as the generic reader and decoder do', () => {
    fc.assert(
      fc.property(hubFormRecord, (record) => {
        expect(inHubForm(record)).toBe(true);
        expectReadAsGeneric(record);
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it.each([
    ['in any spelling', anySpellingRecord],
    ['in the hub layout with any values', hubLayoutRecord],
    ['damaged', damagedRecord],
  ])(
    'declines every generated record %s unless it is in the hub form, and the protocol hands on every item as the generic reader reads it',
    (_, records) => {
      let declined = 0;
      fc.assert(
        fc.property(records, (record) => {
          if (inHubForm(record)) expectReadAsGeneric(record);
          else {
            expect(readHubFormBookItem(record)).toBeUndefined();
            declined += 1;
          }
          expectHandedOnAsGeneric(record);
        }),
        { seed: SEED, numRuns: 3_000 },
      );
      // The generators are meant to leave the hub form often, not only now and then.
      expect(declined).toBeGreaterThan(500);
    },
  );

  it('leaves levels in other spellings to the generic reader, which reads them as their hub spelling', () => {
    for (const [other, hub] of [
      ['{ "amount" : 1.50 , "price" : 30000 }', '{"amount":1.5,"price":30000}'],
      ['{"price":30000,"amount":1.5}', '{"amount":1.5,"price":30000}'],
      ['{"amount":"1.500","price":"30000.00"}', '{"amount":1.5,"price":30000}'],
      ['{"amount":1.5E0,"price":3e4}', '{"amount":1.5,"price":30000}'],
      ['{"amount":-0.0,"price":30000,"count":3}', '{"amount":0,"price":30000}'],
    ]) {
      expect(readHubFormBookItem(hubRecord(other))).toBeUndefined();
      expectReadAsGeneric(hubRecord(hub));
      expect(protocolDecoded(hubRecord(other))).toEqual(protocolDecoded(hubRecord(hub)));
    }
  });

  it('declines what only the generic reader may judge: other messages, escapes, repeated keys, nested extras, bad values', () => {
    for (const record of [
      '{"type":1,"target":"Book","arguments":[]}',
      '{"type":3,"invocationId":"1"}',
      hubRecord('{"amount":1,"price":30000}').replace('"instrument"', '"instr\\u0075ment"'),
      hubRecord('{"amount":1,"price":30000,"price":30001}'),
      hubRecord('{"amount":1,"price":30000,"orders":[1,2]}'),
      hubRecord('{"amount":1,"price":-30000}'),
      hubRecord('{"amount":1,"price":"abc"}'),
      hubRecord('{"amount":1,"price":01}'),
      hubRecord('{"amount":1,"price":30000}').replace('"instrument":"btc_usdt"', '"instrument":" "'),
      hubRecord('{"amount":1,"price":30000}').replace('"version":367398', '"version":-1'),
      hubRecord('{"amount":1,"price":30000}').replace('"version":367398', '"version":01'),
      hubRecord('{"amount":1,"price":30000}').replace('"version":367398', '"version":9007199254740992'),
      hubRecord('{"amount":1,"price":30000}').replace(
        '"askTotalAmount":115.24421295',
        '"askTotalAmount":null',
      ),
      hubRecord('{"amount":1,"price":30000}').replace('"snapshot":false', '"snapshot":0'),
      hubRecord('{"amount":1,"price":30000}') + ' x',
      hubRecord('{"amount":1,"price":30000}').slice(0, -1),
    ])
      expect(readHubFormBookItem(record)).toBeUndefined();
  });

  it('the hub protocol hands the stream read items, rejected ones in the generic words, and still reports unreadable messages', () => {
    const reports: string[] = [];
    const protocol = new ExactJsonHubProtocol((error) => reports.push(error.kind));
    const good = hubRecord('{"amount":1,"price":30000}');
    const bad = good.replace('"version":367398', '"version":"x"');
    const messages = protocol.parseMessages(
      [
        good,
        '{"type":2,"invocationId":"1","item":{',
        '{"type":2,"invocationId":"","item":{}}',
        good.replace('"instrument"', '"instr\\u0075ment"'),
        bad,
      ]
        .map((record) => record + RECORD_SEPARATOR)
        .join(''),
      null,
    );
    expect(reports).toEqual(['not-json', 'invalid-message']);
    expect(messages.map((message: HubMessage) => message.type)).toEqual([
      MessageType.StreamItem,
      MessageType.StreamItem,
      MessageType.StreamItem,
    ]);
    const [fast, generic, rejected] = messages.map((message) => (message as { item: BookItem }).item);
    expect(generic).toEqual(fast);
    expect(rejected).toEqual({ rejection: expect.any(MalformedBookItemError), instrument: 'btc_usdt' });
    expect(decoded(rejected, 'btc_usdt')).toEqual(
      decodedJson((parseExactJson(bad) as { item: ExactJson }).item, 'btc_usdt'),
    );
    expect(decoded(rejected, 'eth_btc')).toEqual({
      problems: [
        'item.instrument: expected "eth_btc", got "btc_usdt"',
        'item.version: expected an integer from 0 to 9007199254740991, got "x"',
      ],
    });
  });

  it('explains an item of another instrument in the generic words', () => {
    const record = hubRecord('{"amount":1,"price":30000}').replace('"btc_usdt"', '"ETH_btc"');
    const fast = readHubFormBookItem(record)!.item;
    const generic = (parseExactJson(record) as { item: ExactJson }).item;
    expect(decoded(fast, 'btc_usdt')).toEqual(decodedJson(generic, 'btc_usdt'));
    expect(decoded(fast, 'btc_usdt')).toEqual({
      problems: ['item.instrument: expected "btc_usdt", got "ETH_btc"'],
    });
  });
});
