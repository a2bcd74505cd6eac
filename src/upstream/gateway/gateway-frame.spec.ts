import { decodeFrame, encodeRequest, FrameType } from './gateway-frame';

describe('gateway frames', () => {
  it('encodes the payload of a request as a JSON string', () => {
    const text = encodeRequest(2, 'SubscribeLevel2', { OMSId: 1, InstrumentId: 1, Depth: 10 });
    expect(text).toBe(
      '{"m":0,"i":2,"n":"SubscribeLevel2","o":"{\\"OMSId\\":1,\\"InstrumentId\\":1,\\"Depth\\":10}"}',
    );
    expect(JSON.parse((JSON.parse(text) as { o: string }).o)).toEqual({
      OMSId: 1,
      InstrumentId: 1,
      Depth: 10,
    });
  });

  it('decodes replies and events with numbers as exact text', () => {
    expect(
      decodeFrame(
        '{"m":3,"i":17,"n":"Level2UpdateEvent","o":"[[1,1,2,0,0.1,1,0.10000000000000000001,1,3,0]]"}',
      ),
    ).toEqual({
      ok: true,
      frame: {
        type: FrameType.Event,
        sequence: 17,
        name: 'Level2UpdateEvent',
        payload: [['1', '1', '2', '0', '0.1', '1', '0.10000000000000000001', '1', '3', '0']],
      },
    });
    expect(decodeFrame('{"m":1,"i":2,"n":"Ping","o":"{\\"msg\\":\\"PONG\\"}"}')).toMatchObject({
      ok: true,
      frame: { type: FrameType.Reply, payload: { msg: 'PONG' } },
    });
  });

  it('keeps the plain text of error frames and of the old PONG reply', () => {
    expect(decodeFrame('{"m":5,"i":26,"n":"NoSuchFunction","o":"Endpoint Not Found"}')).toMatchObject({
      ok: true,
      frame: { type: FrameType.Error, payload: 'Endpoint Not Found' },
    });
    expect(decodeFrame('{"m":1,"i":4,"n":"Ping","o":"PONG"}')).toMatchObject({
      ok: true,
      frame: { payload: 'PONG' },
    });
    expect(decodeFrame('{"m":1,"i":4,"n":"Ping","o":""}')).toMatchObject({
      ok: true,
      frame: { payload: null },
    });
  });

  it('reports frames it cannot read, with the answered request when the envelope was readable', () => {
    expect(decodeFrame('{"m":3,"i":0,"n":"Level2UpdateEvent","o":"[[1,1,')).toEqual({
      ok: false,
      kind: 'not-json',
      reason: 'the frame is not JSON',
    });
    expect(decodeFrame('[1]')).toMatchObject({ ok: false, reason: 'the frame is not a JSON object' });
    expect(decodeFrame('{"m":0,"i":2,"n":"Ping","o":"{}"}')).toMatchObject({
      ok: false,
      reason: 'unexpected frame type m=0',
    });
    expect(decodeFrame('{"m":1,"i":"2","n":"Ping","o":"{}"}')).toMatchObject({ ok: false });
    expect(decodeFrame('{"m":1,"i":6,"n":"GetProducts","o":"[{"}')).toEqual({
      ok: false,
      kind: 'payload-not-json',
      reason: '"o" of GetProducts is not JSON',
      answer: { sequence: 6, name: 'GetProducts' },
    });
    expect(decodeFrame('{"m":3,"i":6,"n":"Level2UpdateEvent","o":[]}')).toEqual({
      ok: false,
      kind: 'invalid-frame',
      reason: '"o" is not a string',
    });
  });
});
