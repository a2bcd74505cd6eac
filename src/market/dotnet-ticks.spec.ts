import { dotNetTicks, UNIX_EPOCH_TICKS, unixMsFromDotNetTicks } from './dotnet-ticks';

describe('dotNetTicks', () => {
  it('puts the Unix epoch at 621355968000000000 ticks', () => {
    expect(dotNetTicks(0)).toBe(UNIX_EPOCH_TICKS);
  });

  it('converts the exchange sample exactly', () => {
    // 636880696809972288 ticks in the exchange's documentation is 2019-03-13T10:28:00.997Z.
    const ms = Date.parse('2019-03-13T10:28:00.997Z');
    expect(dotNetTicks(ms)).toBe(636880696809970000n);
    expect(new Date(unixMsFromDotNetTicks(636880696809972288n)!).toISOString()).toBe(
      '2019-03-13T10:28:00.997Z',
    );
  });

  it('matches the .NET calendar and gives values beyond 2^53', () => {
    const ticks = dotNetTicks(Date.parse('2025-06-01T12:34:56.789Z'));
    expect(ticks > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(ticks.toString()).toBe('638843780967890000');
  });

  it('round-trips every millisecond, before the epoch too', () => {
    for (const ms of [-86_400_001, -1, 0, 1, 1_700_000_000_123, 253_402_300_799_999]) {
      expect(unixMsFromDotNetTicks(dotNetTicks(ms))).toBe(ms);
    }
  });

  it('rejects fractions of a millisecond', () => {
    expect(() => dotNetTicks(1.5)).toThrow(RangeError);
  });

  it('reads tick counts given as text, and nothing else', () => {
    expect(unixMsFromDotNetTicks('636880696809972288')).toBe(Date.parse('2019-03-13T10:28:00.997Z'));
    for (const text of ['', '1.5', '6e17', 'abc', '99999999999999999999999']) {
      expect(unixMsFromDotNetTicks(text)).toBeUndefined();
    }
  });
});
