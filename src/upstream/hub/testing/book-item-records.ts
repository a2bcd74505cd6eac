import fc from 'fast-check';
import { withTypos } from '../../testing/json-typos';

/**
 * Generated hub messages for the Book item readers' property tests: items in the hub's form with any
 * values the hub may write, the hub's layout with any values, any spelling, and damaged text.
 */

const PLAIN_NUMBER = String.raw`(?:0|[1-9][0-9]*)(?:\.[0-9]+)?`;
const PLAIN_STRING = String.raw`"([^"\\\u0000-\u001f]*)"`;
const LEVEL = String.raw`\{"amount":${PLAIN_NUMBER},"price":${PLAIN_NUMBER}\}`;
const LEVELS = String.raw`\[(?:${LEVEL}(?:,${LEVEL})*)?\]`;
const HUB_FORM = new RegExp(
  String.raw`^\{"type":2,"invocationId":${PLAIN_STRING},"item":\{"instrument":${PLAIN_STRING},` +
    String.raw`"bids":${LEVELS},"asks":${LEVELS},"version":(0|[1-9][0-9]*),` +
    String.raw`"askTotalAmount":${PLAIN_NUMBER},"bidTotalAmount":${PLAIN_NUMBER},"snapshot":(?:true|false)\}\}$`,
);

/** Whether `record` is in the hub's form, written out apart from the reader: all it must take and may. */
export function inHubForm(record: string): boolean {
  const match = HUB_FORM.exec(record);
  return (
    match !== null && match[1] !== '' && match[2].trim() !== '' && Number.isSafeInteger(Number(match[3]))
  );
}

/** Now and then a value of `arbitrary`, mostly nothing. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: oneIn - 1 }, { arbitrary, weight: 1 });
}

const space = fc.constantFrom('', '', '', '', '', ' ', '\n', '\t', '\r\n ');

/** Non-negative decimals in plain notation, as the hub writes them: any digits, trailing zeros. */
const plainNumber = fc
  .tuple(
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String)),
    fc.option(fc.stringMatching(/^[0-9]{1,30}$/), { nil: undefined }),
  )
  .map(([integer, fraction]) => (fraction === undefined ? integer : `${integer}.${fraction}`));
/** Decimals as any sender may write them: exponents and signs too. */
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

interface HubFields {
  readonly type: string;
  readonly invocationId: string;
  readonly instrument: string;
  readonly bids: string;
  readonly asks: string;
  readonly version: string;
  readonly askTotal: string;
  readonly bidTotal: string;
  readonly snapshot: string;
}

/** The hub's layout around the values given as JSON text. */
function hubLayout(fields: HubFields): string {
  const { type, invocationId, instrument, bids, asks, version, askTotal, bidTotal, snapshot } = fields;
  return (
    `{"type":${type},"invocationId":${invocationId},"item":{"instrument":${instrument},"bids":${bids},` +
    `"asks":${asks},"version":${version},"askTotalAmount":${askTotal},"bidTotalAmount":${bidTotal},` +
    `"snapshot":${snapshot}}}`
  );
}

const hubLevels = fc
  .array(
    fc.tuple(plainNumber, plainNumber).map(([amount, price]) => `{"amount":${amount},"price":${price}}`),
    { maxLength: 6 },
  )
  .map((entries) => `[${entries.join(',')}]`);

/** Book stream items exactly as the hub writes them, with any values the hub may write. */
export const hubFormRecord = fc
  .record({
    type: fc.constant('2'),
    invocationId: fc.oneof(fc.constantFrom('1', '17'), fc.stringMatching(/^[0-9a-z]{1,8}$/)),
    instrument: fc.oneof(
      { arbitrary: fc.constantFrom('btc_usdt', 'BTC_usdt', 'eth_btc'), weight: 8 },
      {
        arbitrary: fc
          .string({ unit: fc.constantFrom('a', 'Z', '_', '-', ' ', 'é', '\u00a0', '€'), minLength: 1 })
          .filter((text) => text.trim() !== ''),
        weight: 1,
      },
    ),
    bids: hubLevels,
    asks: hubLevels,
    version: fc.oneof(fc.nat(), fc.constantFrom(0, Number.MAX_SAFE_INTEGER)),
    askTotal: plainNumber,
    bidTotal: plainNumber,
    snapshot: fc.boolean(),
  })
  .map((values) =>
    hubLayout({
      ...values,
      invocationId: JSON.stringify(values.invocationId),
      instrument: JSON.stringify(values.instrument),
      version: String(values.version),
      snapshot: String(values.snapshot),
    }),
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
    '01',
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
export const anySpellingRecord = objectText(
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

const anyLevels = fc
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

/** The hub's layout with any values, valid or not. */
export const hubLayoutRecord = fc
  .record({
    type: typeValue,
    invocationId: invocationIdValue,
    instrument: instrumentValue,
    bids: anyLevels,
    asks: anyLevels,
    version: versionValue,
    askTotal: scalar,
    bidTotal: scalar,
    snapshot: snapshotValue,
  })
  .map(hubLayout);

/** Characters that matter to JSON's grammar, to break valid text with. */
const SIGNIFICANT = ['{', '}', '[', ']', '"', ':', ',', '-', '.', 'e', '0', '1', '9', ' ', '\\', 't', 'u'];

export const damagedRecord = withTypos(
  fc.oneof(hubFormRecord, hubLayoutRecord, anySpellingRecord),
  SIGNIFICANT,
);

/** The hub's own form, as the exchange and the sandbox write it. */
export function hubRecord(levelsText: string, snapshot = false): string {
  return (
    `{"type":2,"invocationId":"1","item":{"instrument":"btc_usdt","bids":[${levelsText}],` +
    `"asks":[{"amount":0,"price":30001.5}],"version":367398,"askTotalAmount":115.24421295,` +
    `"bidTotalAmount":108.16757362,"snapshot":${snapshot}}}`
  );
}
