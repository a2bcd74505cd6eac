import { MAX_MESSAGE_BYTES, RecordReader } from './hub-framing';
import { HubProtocolError } from './hub-protocol-error';

const RS = '\x1e';

describe('RecordReader', () => {
  it('returns each message of a frame without its separator', () => {
    const reader = new RecordReader();
    expect(reader.push(`{"protocol":"json","version":1}${RS}`)).toEqual(['{"protocol":"json","version":1}']);
    expect(reader.push(`{"type":6}${RS}{"type":5,"invocationId":"0"}${RS}{"type":7}${RS}`)).toEqual([
      '{"type":6}',
      '{"type":5,"invocationId":"0"}',
      '{"type":7}',
    ]);
    expect(reader.hasPending).toBe(false);
  });

  it('keeps an unterminated message until a later frame completes it', () => {
    const reader = new RecordReader();
    expect(reader.push(`{"type":6}${RS}{"type":4,"invoc`)).toEqual(['{"type":6}']);
    expect(reader.hasPending).toBe(true);
    expect(reader.push('ationId":"1",')).toEqual([]);
    expect(reader.push(`"target":"Book","arguments":["x"]}${RS}{"ty`)).toEqual([
      '{"type":4,"invocationId":"1","target":"Book","arguments":["x"]}',
    ]);
    expect(reader.push(`pe":6}${RS}`)).toEqual(['{"type":6}']);
  });

  it('passes garbage and empty messages through for the parser to refuse', () => {
    const reader = new RecordReader();
    expect(reader.push(`not json${RS}${RS}\u0000\u00ff${RS}`)).toEqual(['not json', '', '\u0000\u00ff']);
  });

  it('refuses a message above the size limit, terminated or not, counting UTF-8 bytes', () => {
    const limit = new RecordReader(100);
    expect(limit.push(`${'a'.repeat(100)}${RS}`)).toHaveLength(1);
    expect(() => limit.push(`${'a'.repeat(101)}${RS}`)).toThrow(
      new HubProtocolError('The maximum message size of 100B was exceeded.'),
    );
    const unterminated = new RecordReader(100);
    unterminated.push('a'.repeat(60));
    expect(() => unterminated.push('a'.repeat(60))).toThrow(HubProtocolError);
    // 40 characters of three bytes each: 120 bytes.
    expect(() => new RecordReader(100).push(`${'€'.repeat(40)}${RS}`)).toThrow(HubProtocolError);
  });

  it('allows 32 KiB per message by default, and frames that batch many smaller messages', () => {
    const reader = new RecordReader();
    const big = `{"type":6,"pad":"${'x'.repeat(MAX_MESSAGE_BYTES - 30)}"}`;
    expect(reader.push(`${big}${RS}${big}${RS}`)).toEqual([big, big]);
    expect(() => reader.push(`${'x'.repeat(MAX_MESSAGE_BYTES + 1)}${RS}`)).toThrow(HubProtocolError);
  });
});
