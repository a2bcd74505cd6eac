import fc from 'fast-check';
import { dotNetTicks } from './dotnet-ticks';

describe('dotNetTicks', () => {
  it('counts 100 ns ticks from 0001-01-01T00:00:00Z', () => {
    const yearOne = new Date(0);
    yearOne.setUTCFullYear(1, 0, 1);
    expect(dotNetTicks(yearOne.getTime())).toBe(0n);
    expect(dotNetTicks(0)).toBe(621_355_968_000_000_000n);
  });

  it("gives the exchange sample's serverTime, an 18-digit count, to the millisecond", () => {
    // The sample 636880696809972288 is 2019-03-13T10:28:00.9972288Z; ticks of whole milliseconds end in 0000.
    const ticks = dotNetTicks(Date.parse('2019-03-13T10:28:00.997Z'));
    expect(ticks).toBe(636_880_696_809_970_000n);
    expect(636_880_696_809_972_288n - ticks).toBe(2_288n);
    expect(ticks.toString()).toHaveLength(18);
    expect(ticks > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('counts before the Unix epoch too', () => {
    expect(dotNetTicks(-1)).toBe(621_355_968_000_000_000n - 10_000n);
  });

  it.each([1.5, NaN, Infinity, -0.25])('refuses %p, which is no whole millisecond', (ms) => {
    expect(() => dotNetTicks(ms)).toThrow(RangeError);
  });

  const instant = fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 });

  it('grows by 10,000 ticks a millisecond', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 1e12 }), (ms, later) => {
        expect(dotNetTicks(ms + later) - dotNetTicks(ms)).toBe(BigInt(later) * 10_000n);
      }),
    );
  });

  it('agrees with the calendar: whole days since 0001-01-01 times 864 billion', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        const date = new Date(ms);
        const midnight = new Date(0);
        midnight.setUTCFullYear(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
        const yearOne = new Date(0);
        yearOne.setUTCFullYear(1, 0, 1);
        const days = BigInt((midnight.getTime() - yearOne.getTime()) / 86_400_000);
        expect(dotNetTicks(ms)).toBe(days * 864_000_000_000n + BigInt(ms - midnight.getTime()) * 10_000n);
      }),
    );
  });
});
