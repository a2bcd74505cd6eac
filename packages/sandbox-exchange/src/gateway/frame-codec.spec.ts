import { jsonNumber } from '../http/json-number';
import { decodeFrame, decodePayload, EncodedPayload, encodeFrame, MessageType } from './frame-codec';

describe('gateway frame codec', () => {
  it('decodes a request frame, keeping o as sent', () => {
    expect(decodeFrame('{"m":0,"i":2,"n":"GetInstruments","o":"{\\"OMSId\\":1}"}')).toEqual({
      ok: true,
      frame: { type: MessageType.Request, sequence: 2, name: 'GetInstruments', payload: '{"OMSId":1}' },
    });
  });

  it('accepts subscribe and unsubscribe types, i 0 and a missing m or i', () => {
    const frame = (text: string) => {
      const decoded = decodeFrame(text);
      if (!decoded.ok) throw new Error(decoded.reason);
      return decoded.frame;
    };
    expect(frame('{"m":2,"i":0,"n":"SubscribeLevel2","o":""}').type).toBe(MessageType.Subscribe);
    expect(frame('{"m":4,"i":6,"n":"UnsubscribeLevel2"}').type).toBe(MessageType.Unsubscribe);
    expect(frame('{"n":"Ping"}')).toEqual({
      type: MessageType.Request,
      sequence: 0,
      name: 'Ping',
      payload: undefined,
    });
  });

  it.each([
    ['not json', 0, '', 'the frame is not JSON'],
    ['[1,2]', 0, '', 'the frame is not a JSON object'],
    ['"text"', 0, '', 'the frame is not a JSON object'],
    ['null', 0, '', 'the frame is not a JSON object'],
    ['{"m":0,"i":4,"o":"{}"}', 4, '', '"n" must name a function'],
    ['{"m":0,"i":4,"n":"","o":"{}"}', 4, '', '"n" must name a function'],
    ['{"m":0,"i":4,"n":7,"o":"{}"}', 4, '', '"n" must name a function'],
    ['{"m":0,"i":-2,"n":"Ping"}', 0, 'Ping', '"i" must be a non-negative integer'],
    ['{"m":0,"i":"2","n":"Ping"}', 0, 'Ping', '"i" must be a non-negative integer'],
    ['{"m":1,"i":2,"n":"Ping"}', 2, 'Ping', '"m" must be 0 (request), 2 (subscribe) or 4 (unsubscribe)'],
    ['{"m":"0","i":2,"n":"Ping"}', 2, 'Ping', '"m" must be 0 (request), 2 (subscribe) or 4 (unsubscribe)'],
  ])('rejects %s, echoing what it can', (text, sequence, name, reason) => {
    expect(decodeFrame(text)).toEqual({ ok: false, sequence, name, reason });
  });

  it('decodes a payload that is a JSON-encoded object; none at all is {}', () => {
    expect(decodePayload('{"OMSId":1,"InstrumentId":3}')).toEqual({
      ok: true,
      payload: { OMSId: 1, InstrumentId: 3 },
    });
    expect(decodePayload(undefined)).toEqual({ ok: true, payload: {} });
    expect(decodePayload(' ')).toEqual({ ok: true, payload: {} });
    expect(decodePayload('{ }')).toEqual({ ok: true, payload: {} });
  });

  it.each([
    [{ OMSId: 1 }, '"o" must be a JSON-encoded string'],
    [5, '"o" must be a JSON-encoded string'],
    ['{OMSId:1}', '"o" is not valid JSON'],
    ['[1]', '"o" must encode a JSON object'],
    ['"x"', '"o" must encode a JSON object'],
  ])('rejects the payload %j', (o, reason) => {
    expect(decodePayload(o)).toEqual({ ok: false, reason });
  });

  it('encodes o as a JSON string holding exact decimals', () => {
    const text = encodeFrame(
      MessageType.Reply,
      8,
      'GetL2Snapshot',
      EncodedPayload.of([[1, jsonNumber(4321987654n, 18), jsonNumber(6500012n, 2)]]),
    );
    expect(text).toBe('{"m":1,"i":8,"n":"GetL2Snapshot","o":"[[1,0.000000004321987654,65000.12]]"}');
    const frame = JSON.parse(text) as { o: string };
    expect(frame.o).toBe('[[1,0.000000004321987654,65000.12]]');
  });

  it('encodes a plain-text o and escapes names', () => {
    expect(encodeFrame(MessageType.Error, 3, 'No"Such', EncodedPayload.text('Endpoint Not Found'))).toBe(
      '{"m":5,"i":3,"n":"No\\"Such","o":"Endpoint Not Found"}',
    );
  });

  it('round-trips what it encodes', () => {
    const text = encodeFrame(MessageType.Request, 10, 'Ping', EncodedPayload.of({ a: 'quote " \\ \n' }));
    const decoded = decodeFrame(text);
    expect(decoded.ok && decodePayload(decoded.frame.payload)).toEqual({
      ok: true,
      payload: { a: 'quote " \\ \n' },
    });
  });
});
