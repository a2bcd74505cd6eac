import fc from 'fast-check';
import { CallPacer } from './call-pacer';

describe('CallPacer', () => {
  it('never runs more than its limit at once, starts calls in arrival order, and runs every one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ delayMs: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() }), {
          maxLength: 30,
        }),
        async (limit, calls) => {
          const pacer = new CallPacer(limit);
          let running = 0;
          let most = 0;
          const started: number[] = [];
          const results = await Promise.allSettled(
            calls.map((call, index) =>
              pacer.run(async () => {
                started.push(index);
                running += 1;
                most = Math.max(most, running);
                await new Promise((resolve) => setTimeout(resolve, call.delayMs));
                running -= 1;
                if (call.fails) throw new Error(`call ${index} failed`);
                return index;
              }),
            ),
          );
          expect(most).toBeLessThanOrEqual(limit);
          expect(started).toEqual(calls.map((_, index) => index));
          results.forEach((result, index) => {
            if (calls[index].fails) expect(result.status).toBe('rejected');
            else expect(result).toEqual({ status: 'fulfilled', value: index });
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a call that arrives while a freed slot passes to a waiter waits its turn', async () => {
    const pacer = new CallPacer(1);
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = pacer.run(() =>
      new Promise<void>((resolve) => (releaseFirst = resolve)).then(() => order.push('first')),
    );
    const second = pacer.run(async () => order.push('second'));
    releaseFirst();
    await Promise.resolve();
    const third = pacer.run(async () => order.push('third'));
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('refuses a limit below one', () => {
    expect(() => new CallPacer(0)).toThrow(/positive integer/);
  });
});
