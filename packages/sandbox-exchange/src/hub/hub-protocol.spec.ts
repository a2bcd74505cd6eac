import { jsonNumber } from '../http/json-number';
import {
  completionFrame,
  handshakeResponseFrame,
  MessageType,
  parseHandshakeRequest,
  parseHubMessage,
  PING_FRAME,
  serializeHubMessage,
  streamItemFrame,
} from './hub-protocol';
import { HubProtocolError } from './hub-protocol-error';

const RS = '\x1e';

describe('hub protocol messages', () => {
  it('parses an invocation, with and without an invocation id', () => {
    expect(
      parseHubMessage('{"type":1,"invocationId":"4","target":"Send","arguments":[1,"a"],"streamIds":[]}'),
    ).toEqual({
      type: MessageType.Invocation,
      invocationId: '4',
      target: 'Send',
      arguments: [1, 'a'],
      streamIds: [],
    });
    expect(parseHubMessage('{"type":1,"target":"Send","arguments":[]}')).toEqual({
      type: MessageType.Invocation,
      target: 'Send',
      arguments: [],
    });
  });

  it('parses a stream invocation as the official client sends it', () => {
    expect(
      parseHubMessage(
        '{"arguments":["btc_usdt"],"invocationId":"0","streamIds":[],"target":"Book","type":4}',
      ),
    ).toEqual({
      type: MessageType.StreamInvocation,
      invocationId: '0',
      target: 'Book',
      arguments: ['btc_usdt'],
      streamIds: [],
    });
  });

  it('parses stream items, completions, cancel, ping and close', () => {
    expect(parseHubMessage('{"type":2,"invocationId":"1","item":{"a":1}}')).toEqual({
      type: MessageType.StreamItem,
      invocationId: '1',
      item: { a: 1 },
    });
    expect(parseHubMessage('{"type":3,"invocationId":"1","result":null}')).toEqual({
      type: MessageType.Completion,
      invocationId: '1',
      result: null,
    });
    expect(parseHubMessage('{"type":3,"invocationId":"1","error":"boom"}')).toEqual({
      type: MessageType.Completion,
      invocationId: '1',
      error: 'boom',
    });
    expect(parseHubMessage('{"type":5,"invocationId":"0"}')).toEqual({
      type: MessageType.CancelInvocation,
      invocationId: '0',
    });
    expect(parseHubMessage('{"type":6}')).toEqual({ type: MessageType.Ping });
    expect(parseHubMessage('{"type":7}')).toEqual({ type: MessageType.Close });
    expect(parseHubMessage('{"type":7,"error":"bye","allowReconnect":true}')).toEqual({
      type: MessageType.Close,
      error: 'bye',
      allowReconnect: true,
    });
  });

  it('ignores message types it does not know', () => {
    expect(parseHubMessage('{"type":8,"sequenceId":3}')).toBeUndefined();
    expect(parseHubMessage('{"type":99}')).toBeUndefined();
  });

  it.each([
    ['not json', 'Error reading JSON.'],
    ['', 'Error reading JSON.'],
    ['{"type":4', 'Error reading JSON.'],
    ['[1,2]', 'Unexpected JSON Token Type. Expected a JSON Object.'],
    ['"text"', 'Unexpected JSON Token Type. Expected a JSON Object.'],
    ['{}', "Missing required property 'type'."],
    ['{"type":"4"}', "Expected 'type' to be of type Integer."],
    ['{"type":1.5}', "Expected 'type' to be of type Integer."],
    ['{"type":4,"target":"Book","arguments":[]}', "Missing required property 'invocationId'."],
    ['{"type":4,"invocationId":"0","arguments":[]}', "Missing required property 'target'."],
    ['{"type":4,"invocationId":"0","target":"Book"}', "Missing required property 'arguments'."],
    [
      '{"type":4,"invocationId":"0","target":"Book","arguments":"x"}',
      "Expected 'arguments' to be of type Array.",
    ],
    [
      '{"type":4,"invocationId":0,"target":"Book","arguments":[]}',
      "Expected 'invocationId' to be of type String.",
    ],
    [
      '{"type":1,"target":"a","arguments":[],"streamIds":[1]}',
      "Expected 'streamIds' to be an Array of String.",
    ],
    ['{"type":5}', "Missing required property 'invocationId'."],
    ['{"type":2,"invocationId":"1"}', "Missing required property 'item'."],
    [
      '{"type":3,"invocationId":"1","result":1,"error":"x"}',
      "The 'error' and 'result' properties are mutually exclusive.",
    ],
    ['{"type":7,"allowReconnect":"yes"}', "Expected 'allowReconnect' to be of type Boolean."],
  ])('refuses %j: %s', (record, message) => {
    expect(() => parseHubMessage(record)).toThrow(new HubProtocolError(message));
  });

  it('serialises every message with its separator, prices as bare numbers', () => {
    expect(serializeHubMessage({ type: MessageType.Close, error: 'bye', allowReconnect: false })).toBe(
      `{"type":7,"error":"bye","allowReconnect":false}${RS}`,
    );
    expect(
      serializeHubMessage({
        type: MessageType.StreamItem,
        invocationId: '0',
        item: { price: jsonNumber(123456789012345678901n, 18) },
      }),
    ).toBe(`{"type":2,"invocationId":"0","item":{"price":123.456789012345678901}}${RS}`);
    expect(serializeHubMessage({ type: MessageType.CancelInvocation, invocationId: '2' })).toBe(
      `{"type":5,"invocationId":"2"}${RS}`,
    );
    expect(serializeHubMessage({ type: MessageType.Invocation, target: 'a', arguments: [1] })).toBe(
      `{"type":1,"target":"a","arguments":[1]}${RS}`,
    );
    expect(PING_FRAME).toBe(`{"type":6}${RS}`);
    expect(completionFrame('3')).toBe(`{"type":3,"invocationId":"3"}${RS}`);
    expect(completionFrame('\u00011')).toBe(`{"type":3,"invocationId":"\\u00011"}${RS}`);
    expect(completionFrame('3', "Unknown hub method 'X'")).toBe(
      `{"type":3,"invocationId":"3","error":"Unknown hub method 'X'"}${RS}`,
    );
  });

  it('wraps an item that is already JSON into a stream item, escaping the invocation id', () => {
    expect(streamItemFrame('0', '{"version":1}')).toBe(
      `{"type":2,"invocationId":"0","item":{"version":1}}${RS}`,
    );
    const frame = streamItemFrame('a"b', '[1]');
    expect(parseHubMessage(frame.slice(0, -1))).toEqual({
      type: MessageType.StreamItem,
      invocationId: 'a"b',
      item: [1],
    });
  });

  it('round-trips every message type', () => {
    const messages = [
      { type: MessageType.Invocation, invocationId: '1', target: 'T', arguments: ['a', 2] },
      { type: MessageType.StreamItem, invocationId: '1', item: { x: [1, 2] } },
      { type: MessageType.Completion, invocationId: '1', result: 5 },
      { type: MessageType.StreamInvocation, invocationId: '2', target: 'Book', arguments: ['btc_usdt'] },
      { type: MessageType.CancelInvocation, invocationId: '2' },
      { type: MessageType.Ping },
      { type: MessageType.Close, error: 'e', allowReconnect: true },
    ] as const;
    for (const message of messages) {
      const frame = serializeHubMessage(message);
      expect(frame.endsWith(RS)).toBe(true);
      expect(parseHubMessage(frame.slice(0, -1))).toEqual(message);
    }
  });
});

describe('hub protocol handshake', () => {
  it('reads the protocol and version', () => {
    expect(parseHandshakeRequest('{"protocol":"json","version":1}')).toEqual({
      protocol: 'json',
      version: 1,
    });
    expect(parseHandshakeRequest('{"protocol":"messagepack","version":1}')).toEqual({
      protocol: 'messagepack',
      version: 1,
    });
  });

  it.each([
    ['{"protocol":"json"', 'Error reading JSON.'],
    ['{"version":1}', "Missing required property 'protocol'."],
    ['{"protocol":"json"}', "Missing required property 'version'."],
    ['{"protocol":1,"version":1}', "Expected 'protocol' to be of type String."],
    ['{"protocol":"json","version":"1"}', "Expected 'version' to be of type Integer."],
  ])('refuses %j: %s', (record, message) => {
    expect(() => parseHandshakeRequest(record)).toThrow(new HubProtocolError(message));
  });

  it('answers {} or an error, with the separator', () => {
    expect(handshakeResponseFrame()).toBe(`{}${RS}`);
    expect(handshakeResponseFrame("Requested protocol 'x' is not available.")).toBe(
      `{"error":"Requested protocol 'x' is not available."}${RS}`,
    );
  });
});
