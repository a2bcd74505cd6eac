import { HubMessage, MessageType } from '@microsoft/signalr';
import fc from 'fast-check';
import { ExactJson, isJsonObject, parseExactJson } from '../exact-json';
import { decodeBookItem, MalformedBookItemError } from './book-item.codec';
import { isDecodedBookItem, readBookStreamItem } from './book-item-reader';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from './exact-json-hub-protocol';
import { withTypos } from '../testing/json-typos';

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
 * What the specialised reader must guarantee for any record: either it declines (the generic reader
 * then decides alone), or the generic reader reads the same text as a StreamItem with the same
 * invocation and an item that decodes exactly alike, problems included, whatever instrument is expected.
 */
function expectSameAsGeneric(record: string): boolean {
  const fast = readBookStreamItem(record);
  if (fast === undefined) return false;
  const generic = parseExactJson(record);
  if (!isJsonObject(generic)) throw new Error('the reader took a record that is no JSON object');
  expect(Object.keys(generic).sort()).toEqual(['invocationId', 'item', 'type']);
  expect(generic.type).toBe(String(MessageType.StreamItem));
  expect(fast.type).toBe(MessageType.StreamItem);
  expect(fast.invocationId).toBe(generic.invocationId);
  expect(isDecodedBookItem(fast.item)).toBe(true);
  for (const expected of EXPECTED_INSTRUMENTS)
    expect(decoded(fast.item, expected)).toEqual(decoded(generic.item, expected));
  return true;
}

/** Now and then a value of `arbitrary`, mostly nothing. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: oneIn - 1 }, { arbitrary, weight: 1 });
}

const space = fc.constantFrom('', '', '', '', '', ' ', '\n', '\t', '\r\n ');

/** Decimals as senders write them: plain, trailing zeros, exponents, signs, many digits. */
const plainNumber = fc
  .tuple(
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String)),
    fc.option(fc.stringMatching(/^[0-9]{1,30}$/), { nil: undefined }),
  )
  .map(([integer, fraction]) => (fraction === undefined ? integer : `${integer}.${fraction}`));
const numberText = fc.oneof(
  { arbitrary: plainNumber, weight: 40 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('', '-'),
        plainNumber,
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.integer({ min: 0, max: 130 }),
      )
      .map((parts) => parts.join('')),
    weight: 1,
  },
  { arbitrary: plainNumber.map((text) => `-${text}`), weight: 1 },
);
const decimalValue = fc.oneof(
  { arbitrary: numberText, weight: 30 },
  { arbitrary: numberText.map((text) => JSON.stringify(text)), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '"007.50"',
      '".5"',
      '"5."',
      '""',
      '"abc"',
      '"1e999"',
      'null',
      'true',
      '[]',
      '{}',
    ),
    weight: 1,
  },
);
const scalar = fc.oneof(
  numberText,
  fc.constantFrom('true', 'false', 'null', '"x"', '"\\u0041"', '[1]', '{}'),
);

/** Fields of an object as `"key":value` text, mostly unique, now and then one repeated. */
function objectText(fields: fc.Arbitrary<[string, string][]>): fc.Arbitrary<string> {
  return fc.tuple(fields, space, fc.nat({ max: 39 }), fc.nat()).map(([entries, ws, roll, which]) => {
    const all = roll === 0 && entries.length > 0 ? [...entries, entries[which % entries.length]] : entries;
    return `{${ws}${all.map(([key, value]) => `"${key}"${ws}:${ws}${value}`).join(`${ws},${ws}`)}${ws}}`;
  });
}

const level = objectText(
  fc
    .tuple(
      decimalValue,
      decimalValue,
      fc.boolean(),
      rarely(fc.tuple(fc.constantFrom('count', 'pr\\u0069ce', '__proto__', 'price '), scalar), 20),
    )
    .map(([amount, price, amountFirst, extra]) => {
      const fields: [string, string][] = amountFirst
        ? [
            ['amount', amount],
            ['price', price],
          ]
        : [
            ['price', price],
            ['amount', amount],
          ];
      return extra ? [...fields, extra] : fields;
    }),
);

const levels = fc
  .tuple(fc.array(level, { maxLength: 6 }), space)
  .map(([entries, ws]) => `[${ws}${entries.join(`${ws},${ws}`)}${ws}]`);

const instrumentValue = fc.oneof(
  { arbitrary: fc.constantFrom('"btc_usdt"', '"BTC_usdt"', '"eth_btc"'), weight: 8 },
  { arbitrary: fc.constantFrom('""', '" "', '42', '"b\\u0074c_usdt"', 'null'), weight: 1 },
);
const versionValue = fc.oneof(
  { arbitrary: fc.nat().map(String), weight: 8 },
  fc.constantFrom(
    '0',
    '9007199254740991',
    '9007199254740992',
    '123456789012345678',
    '-1',
    '-0',
    '1.0',
    '1e3',
    '"42"',
  ),
);
const snapshotValue = fc.oneof(
  { arbitrary: fc.constantFrom('true', 'false'), weight: 8 },
  { arbitrary: fc.constantFrom('1', '0', '"1"', 'null'), weight: 1 },
);
const typeValue = fc.oneof(
  { arbitrary: fc.constant('2'), weight: 8 },
  { arbitrary: fc.constantFrom('1', '"2"', '2.0', '20'), weight: 1 },
);
const invocationIdValue = fc.oneof(
  { arbitrary: fc.constantFrom('"1"', '"17"'), weight: 8 },
  { arbitrary: fc.constantFrom('""', '7', '"a\\"b"'), weight: 1 },
);

const item = objectText(
  fc
    .tuple(
      instrumentValue,
      levels,
      levels,
      versionValue,
      snapshotValue,
      fc.option(fc.tuple(fc.constantFrom('askTotalAmount', 'bidTotalAmount', 'extra'), scalar), {
        nil: undefined,
      }),
      fc.nat(),
    )
    .map(([instrument, bids, asks, version, snapshot, extra, order]) => {
      const fields: [string, string][] = [
        ['instrument', instrument],
        ['bids', bids],
        ['asks', asks],
        ['version', version],
        ['snapshot', snapshot],
      ];
      if (extra) fields.push(extra);
      // A rotation of the usual order, now and then with one field left out.
      const rotated = [...fields.slice(order % fields.length), ...fields.slice(0, order % fields.length)];
      return order % 17 === 0 ? rotated.slice(1) : rotated;
    }),
);

/** Stream item messages in any spelling: whitespace, any order of the fields, extra fields, repeated keys. */
const anyFormRecord = objectText(
  fc
    .tuple(
      typeValue,
      invocationIdValue,
      item,
      rarely(fc.tuple(fc.constantFrom('headers', 'target'), scalar), 10),
    )
    .map(([type, invocationId, value, extra]) => {
      const fields: [string, string][] = [
        ['type', type],
        ['invocationId', invocationId],
        ['item', value],
      ];
      return extra ? [...fields, extra] : fields;
    }),
);

const hubLevels = fc
  .array(
    fc.oneof(
      {
        arbitrary: fc
          .tuple(decimalValue, decimalValue)
          .map(([amount, price]) => `{"amount":${amount},"price":${price}}`),
        weight: 9,
      },
      { arbitrary: level, weight: 1 },
    ),
    { maxLength: 6 },
  )
  .map((entries) => `[${entries.join(',')}]`);

/** Stream item messages laid out as the hub writes them, with any values. */
const hubFormRecord = fc
  .tuple(
    typeValue,
    invocationIdValue,
    instrumentValue,
    hubLevels,
    hubLevels,
    versionValue,
    scalar,
    scalar,
    snapshotValue,
  )
  .map(
    ([type, invocationId, instrument, bids, asks, version, askTotal, bidTotal, snapshot]) =>
      `{"type":${type},"invocationId":${invocationId},"item":{"instrument":${instrument},"bids":${bids},` +
      `"asks":${asks},"version":${version},"askTotalAmount":${askTotal},"bidTotalAmount":${bidTotal},` +
      `"snapshot":${snapshot}}}`,
  );

const streamItemRecord = fc.oneof(anyFormRecord, hubFormRecord);

/** Characters that matter to JSON's grammar, to break valid text with. */
const SIGNIFICANT = ['{', '}', '[', ']', '"', ':', ',', '-', '.', 'e', '0', '1', '9', ' ', '\\', 't', 'u'];

const mutatedRecord = withTypos(streamItemRecord, SIGNIFICANT);

/** The hub's own form, as the exchange and the sandbox write it. */
function hubRecord(levelsText: string, snapshot = false): string {
  return (
    `{"type":2,"invocationId":"1","item":{"instrument":"btc_usdt","bids":[${levelsText}],` +
    `"asks":[{"amount":0,"price":30001.5}],"version":367398,"askTotalAmount":115.24421295,` +
    `"bidTotalAmount":108.16757362,"snapshot":${snapshot}}}`
  );
}

describe('readBookStreamItem', () => {
  it("reads the hub's own form straight into the decoded item, amounts of 28 decimals trimmed", () => {
    const record = hubRecord(
      '{"amount":0.0002140000000000000000000000,"price":30000.10},{"amount":1,"price":29999}',
      true,
    );
    const message = readBookStreamItem(record);
    expect(message).toEqual({
      type: MessageType.StreamItem,
      invocationId: '1',
      item: expect.objectContaining({ instrument: 'btc_usdt', record }),
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
    expect(expectSameAsGeneric(record)).toBe(true);
  });

  it('reads levels in other spellings alike: whitespace, price first, strings, exponents, extra fields', () => {
    for (const levelText of [
      '{ "amount" : 1.50 , "price" : 30000 }',
      '{"price":30000,"amount":1.5}',
      '{"amount":"1.500","price":"30000.00"}',
      '{"amount":1.5E0,"price":3e4}',
      '{"amount":-0.0,"price":30000,"count":3}',
    ]) {
      const message = readBookStreamItem(hubRecord(levelText));
      expect(message).toBeDefined();
      expect(expectSameAsGeneric(hubRecord(levelText))).toBe(true);
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
      hubRecord('{"amount":1,"price":30000}').replace('"version":367398', '"version":-1'),
      hubRecord('{"amount":1,"price":30000}').replace('"version":367398', '"version":9007199254740992'),
      hubRecord('{"amount":1,"price":30000}').replace('"snapshot":false', '"snapshot":0'),
      hubRecord('{"amount":1,"price":30000}') + ' x',
      hubRecord('{"amount":1,"price":30000}').slice(0, -1),
    ])
      expect(readBookStreamItem(record)).toBeUndefined();
  });

  it.each([
    ['laid out as the hub writes them', hubFormRecord],
    ['in any spelling', anyFormRecord],
  ])(
    'reads every generated Book stream item %s as the generic reader and decoder do, or declines it',
    (_, records) => {
      let read = 0;
      fc.assert(
        fc.property(records, (record) => {
          if (expectSameAsGeneric(record)) read += 1;
        }),
        { seed: SEED, numRuns: 2_000 },
      );
      // The generators are meant to reach the reader's own paths often, not only its way out.
      expect(read).toBeGreaterThan(200);
    },
  );

  it('never takes a damaged record the generic reader rejects, and reads the damaged ones it takes alike', () => {
    let read = 0;
    fc.assert(
      fc.property(mutatedRecord, (record) => {
        if (expectSameAsGeneric(record)) read += 1;
      }),
      { seed: SEED, numRuns: 5_000 },
    );
    expect(read).toBeGreaterThan(50);
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
    const record = hubRecord('{"amount":1,"price":30000}');
    const fast = readBookStreamItem(record)!.item;
    const generic = (parseExactJson(record) as { item: ExactJson }).item;
    expect(decoded(fast, 'eth_btc')).toEqual(decoded(generic, 'eth_btc'));
    expect(decoded(fast, 'eth_btc')).toEqual({ problems: [expect.stringContaining('item.instrument')] });
  });
});
