import { MAX_CHANNEL_NAME_LENGTH, parseStreamChannel, StreamChannel } from './stream-channel';

function parsed(text: string): StreamChannel {
  const result = parseStreamChannel(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error.message}`);
  return result.channel;
}

function rejected(text: string): { code: string; message: string } {
  const result = parseStreamChannel(text);
  if (result.ok) throw new Error(`expected ${text} to be rejected`);
  return result.error;
}

describe('parseStreamChannel', () => {
  it('reads the three kinds', () => {
    expect(parsed('book.btc_usdt')).toEqual({ kind: 'book', instrument: 'btc_usdt', name: 'book.btc_usdt' });
    expect(parsed('trades.btc_usdt')).toEqual({
      kind: 'trades',
      instrument: 'btc_usdt',
      name: 'trades.btc_usdt',
    });
    expect(parsed('ticker')).toEqual({ kind: 'ticker', name: 'ticker' });
  });

  it.each(['book.BTC_USDT', 'book.btc-usdt', 'book.Btc-Usdt', 'book.BTC-usdt'])(
    'names the instrument as the listing paths do: %s',
    (text) => {
      expect(parsed(text)).toEqual({ kind: 'book', instrument: 'btc_usdt', name: 'book.btc_usdt' });
    },
  );

  it('reads candles channels, the resolution after the last dot, in its canonical name', () => {
    expect(parsed('candles.BTC-USDT.1')).toEqual({
      kind: 'candles',
      instrument: 'btc_usdt',
      resolution: { name: '1', unit: 'minute', count: 1 },
      name: 'candles.btc_usdt.1',
    });
    expect(parsed('candles.usdt.e_btc.D')).toMatchObject({
      instrument: 'usdt.e_btc',
      resolution: { name: '1D', unit: 'day' },
      name: 'candles.usdt.e_btc.1D',
    });
    expect(parsed('candles.btc_usdt.240')).toMatchObject({ name: 'candles.btc_usdt.240' });
  });

  it.each(['candles.btc_usdt', 'candles.btc_usdt.2', 'candles.btc_usdt.1h', 'candles.btc_usdt.', 'candles'])(
    'rejects a candles channel without a known resolution: %s',
    (text) => {
      expect(rejected(text).code).toBe('bad_channel');
    },
  );

  it('keeps the dots of asset symbols in the instrument', () => {
    expect(parsed('trades.USDT.E_btc')).toMatchObject({
      instrument: 'usdt.e_btc',
      name: 'trades.usdt.e_btc',
    });
    expect(parsed('book.1000shib-usdt')).toMatchObject({ instrument: '1000shib_usdt' });
  });

  it.each([
    ['orders.btc_usdt', /^unknown channel "orders\.btc_usdt": expected book\.\{instrument\}/],
    ['Book.btc_usdt', /^unknown channel "Book\.btc_usdt"/],
    ['TICKER', /^unknown channel "TICKER"/],
    ['', /^unknown channel ""/],
    ['.btc_usdt', /^unknown channel/],
  ])('rejects the unknown kind in %j', (text, message) => {
    expect(rejected(text)).toEqual({ code: 'unknown_channel', message: expect.stringMatching(message) });
  });

  it.each([
    ['book', 'book channel without an instrument: "book"'],
    ['trades.', 'trades channel without an instrument: "trades."'],
    ['ticker.btc_usdt', 'the ticker channel covers every market and takes no instrument: "ticker.btc_usdt"'],
    ['book.btc usdt', `instrument "btc usdt" may hold only letters, digits, '.', '-' and '_'`],
    ['book.btc/usdt', `instrument "btc/usdt" may hold only letters, digits, '.', '-' and '_'`],
    ['book. btc_usdt', `instrument " btc_usdt" may hold only letters, digits, '.', '-' and '_'`],
    ['book.btcusdt', 'instrument "btcusdt" is not written base_quote or base-quote'],
    ['book._usdt', 'instrument "_usdt" is not written base_quote or base-quote'],
    ['book.btc_', 'instrument "btc_" is not written base_quote or base-quote'],
    ['book.btc__usdt', 'instrument "btc__usdt" is not written base_quote or base-quote'],
  ])('rejects the malformed name %j', (text, message) => {
    expect(rejected(text)).toEqual({ code: 'bad_channel', message });
  });

  it('rejects a name too long before reading it', () => {
    const text = `book.${'a'.repeat(MAX_CHANNEL_NAME_LENGTH)}_usdt`;
    expect(rejected(text)).toEqual({
      code: 'bad_channel',
      message: `channel name longer than ${MAX_CHANNEL_NAME_LENGTH} characters`,
    });
  });

  it('quotes a client text shortened in a message', () => {
    const { message } = rejected(`x${'y'.repeat(100)}`);
    expect(message).toContain(`"x${'y'.repeat(63)}…"`);
    expect(message.length).toBeLessThan(160);
  });
});
