import { ClientFrame, ClientFrameLimits, readClientFrame } from './client-frame';

const limits: ClientFrameLimits = { maxFrameBytes: 200, maxChannelsPerFrame: 3 };

const read = (text: string): ClientFrame => readClientFrame(text, limits);

describe('readClientFrame', () => {
  it('reads the three requests', () => {
    expect(read('{"op":"subscribe","channels":["book.BTC-USDT","ticker"]}')).toEqual({
      ok: true,
      request: { op: 'subscribe', channels: ['book.BTC-USDT', 'ticker'] },
    });
    expect(read('{"op":"unsubscribe","channels":["ticker"]}')).toEqual({
      ok: true,
      request: { op: 'unsubscribe', channels: ['ticker'] },
    });
    expect(read('{"op":"ping"}')).toEqual({ ok: true, request: { op: 'ping' } });
  });

  it('ignores the fields it does not know', () => {
    expect(read('{"id":7,"op":"ping","channels":5}')).toEqual({ ok: true, request: { op: 'ping' } });
    expect(read(' {"op":"subscribe","channels":["ticker"],"id":"a"} ')).toEqual({
      ok: true,
      request: { op: 'subscribe', channels: ['ticker'] },
    });
  });

  it('takes as many channels as the limit allows', () => {
    expect(read('{"op":"subscribe","channels":["a","b","c"]}')).toMatchObject({ ok: true });
  });

  it.each([
    ['{"op":"ping"', 'bad_json', 'the frame is not JSON'],
    ['', 'bad_json', 'the frame is not JSON'],
    ['ping', 'bad_json', 'the frame is not JSON'],
    ['[{"op":"ping"}]', 'bad_frame', 'the frame is not a JSON object'],
    ['"ping"', 'bad_frame', 'the frame is not a JSON object'],
    ['null', 'bad_frame', 'the frame is not a JSON object'],
    ['42', 'bad_frame', 'the frame is not a JSON object'],
    ['{}', 'unknown_op', 'no op, or not a string: expected "subscribe", "unsubscribe" or "ping"'],
    ['{"op":1}', 'unknown_op', 'no op, or not a string: expected "subscribe", "unsubscribe" or "ping"'],
    [
      '{"op":"Subscribe"}',
      'unknown_op',
      'unknown op "Subscribe": expected "subscribe", "unsubscribe" or "ping"',
    ],
    ['{"op":"pong"}', 'unknown_op', 'unknown op "pong": expected "subscribe", "unsubscribe" or "ping"'],
    ['{"op":"subscribe"}', 'bad_channels', 'subscribe needs "channels", an array of channel names'],
    [
      '{"op":"unsubscribe","channels":"ticker"}',
      'bad_channels',
      'unsubscribe needs "channels", an array of channel names',
    ],
    [
      '{"op":"subscribe","channels":[]}',
      'bad_channels',
      'subscribe needs "channels", an array of channel names',
    ],
    [
      '{"op":"subscribe","channels":{"0":"ticker"}}',
      'bad_channels',
      'subscribe needs "channels", an array of channel names',
    ],
    ['{"op":"subscribe","channels":["ticker",null]}', 'bad_channels', 'every channel is a string'],
    ['{"op":"subscribe","channels":[["ticker"]]}', 'bad_channels', 'every channel is a string'],
    ['{"op":"subscribe","channels":["a","b","c","d"]}', 'too_many_channels', 'at most 3 channels per frame'],
  ])('answers %j with %s', (text, code, message) => {
    expect(read(text)).toEqual({ ok: false, error: { code, message } });
  });

  it('measures the frame in UTF-8 bytes, at the limit and past it', () => {
    const frame = (filler: string) => `{"op":"ping","pad":"${filler}"}`;
    const overhead = frame('').length;
    expect(read(frame('a'.repeat(200 - overhead)))).toEqual({ ok: true, request: { op: 'ping' } });
    expect(read(frame('a'.repeat(201 - overhead)))).toMatchObject({
      ok: false,
      error: { code: 'frame_too_large' },
    });
    // A three-byte character: few UTF-16 units, many bytes.
    const wide = frame('€'.repeat(Math.ceil((201 - overhead) / 3)));
    expect(wide.length).toBeLessThanOrEqual(200);
    expect(read(wide)).toEqual({
      ok: false,
      error: { code: 'frame_too_large', message: 'frame larger than 200 bytes' },
    });
  });

  it('does not parse a frame too large', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(read(`{"op":"ping","pad":"${'a'.repeat(1000)}"}`)).toMatchObject({ ok: false });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('quotes an unknown op shortened', () => {
    const result = read(`{"op":"${'x'.repeat(150)}"}`);
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_op' } });
    if (!result.ok) expect(result.error.message).toContain(`"${'x'.repeat(64)}…"`);
  });
});
