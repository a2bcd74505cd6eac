import { HubMessage, MessageType } from '@microsoft/signalr';
import fc from 'fast-check';
import { ExactJson, parseExactJson } from '../exact-json';
import { decodeBookItem, isDecodedBookItem, MalformedBookItemError } from './book-item-codec';
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

type Decoded = { message: unknown } | { problems: readonly string[] };

function decoded(item: unknown, expectedInstrument: string | undefined): Decoded {
  try {
    return { message: decodeBookItem(item, RECEIVED_AT, expectedInstrument) };
  } catch (error) {
    if (!(error instanceof MalformedBookItemError)) throw error;
    return { problems: error.problems };
  }
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
  expect(isDecodedBookItem(fast.item)).toBe(true);
  for (const expected of EXPECTED_INSTRUMENTS)
    expect(decoded(fast.item, expected)).toEqual(decoded(generic.item, expected));
}

/** What the hub protocol hands a Book stream for `record`, decoded. */
function protocolDecoded(record: string): Decoded {
  const [message] = new ExactJsonHubProtocol().parseMessages(record + RECORD_SEPARATOR, null);
  return decoded((message as { item: unknown }).item, 'btc_usdt');
}

describe('readHubFormBookItem', () => {
  it("reads the hub's own form straight into the decoded item, amounts of 28 decimals trimmed", () => {
    const record = hubRecord(
      '{"amount":0.0002140000000000000000000000,"price":30000.10},{"amount":1,"price":29999}',
      true,
    );
    const message = readHubFormBookItem(record);
    expect(message).toEqual({
      type: MessageType.StreamItem,
      invocationId: '1',
      item: expect.objectContaining({ instrument: 'btc_usdt', version: 367398, snapshot: true }),
    });
    expect(decodeBookItem(message!.item, RECEIVED_AT, 'BTC_USDT')).toEqual({
      instrument: 'btc_usdt',
      version: 367398,
      snapshot: true,
      time: RECEIVED_AT,
      updates: [
        { side: 'bid', price: '30000.1', amount: '0.000214' },
        { side: 'bid', price: '29999', amount: '1' },
        { side: 'ask', price: '30001.5', amount: '0' },
      ],
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
    'declines every generated record %s unless it is in the hub form, and reads those alike',
    (_, records) => {
      let declined = 0;
      fc.assert(
        fc.property(records, (record) => {
          if (inHubForm(record)) return expectReadAsGeneric(record);
          expect(readHubFormBookItem(record)).toBeUndefined();
          declined += 1;
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

  it('the hub protocol hands decoded items to the stream and still reports what the generic reader rejects', () => {
    const reports: string[] = [];
    const protocol = new ExactJsonHubProtocol((error) => reports.push(error.kind));
    const good = hubRecord('{"amount":1,"price":30000}');
    const messages = protocol.parseMessages(
      [
        good,
        '{"type":2,"invocationId":"1","item":{',
        '{"type":2,"invocationId":"","item":{}}',
        good.replace('"instrument"', '"instr\\u0075ment"'),
      ]
        .map((record) => record + RECORD_SEPARATOR)
        .join(''),
      null,
    );
    expect(reports).toEqual(['not-json', 'invalid-message']);
    expect(messages.map((message: HubMessage) => message.type)).toEqual([
      MessageType.StreamItem,
      MessageType.StreamItem,
    ]);
    const [fast, generic] = messages.map((message) => (message as { item: unknown }).item);
    expect(isDecodedBookItem(fast)).toBe(true);
    expect(isDecodedBookItem(generic)).toBe(false);
    expect(decodeBookItem(fast, 0, 'btc_usdt')).toEqual(decodeBookItem(generic, 0, 'btc_usdt'));
  });

  it('explains an item of another instrument in the generic words', () => {
    const record = hubRecord('{"amount":1,"price":30000}').replace('"btc_usdt"', '"ETH_btc"');
    const fast = readHubFormBookItem(record)!.item;
    const generic = (parseExactJson(record) as { item: ExactJson }).item;
    expect(decoded(fast, 'btc_usdt')).toEqual(decoded(generic, 'btc_usdt'));
    expect(decoded(fast, 'btc_usdt')).toEqual({
      problems: ['item.instrument: expected "btc_usdt", got "ETH_btc"'],
    });
  });
});
