import { FAULT_CASES, FaultCase, LISTED } from './fault-cases';
import { ConvergenceLog } from './fault-run';
import { startTestStack, TestStack, TestStackOptions } from './start-test-stack';
import { expectConverges } from './truth';

/**
 * One stack for a list of faults: each is switched on while the market moves and off again, then
 * the store must equal the truth (books at the same version, every 24-hour trade once) within 10 s.
 */
export function describeConvergenceAfterFaults(
  title: string,
  options: TestStackOptions,
  cases: readonly FaultCase[],
): void {
  describe(title, () => {
    let stack: TestStack;
    const log = new ConvergenceLog();

    beforeAll(async () => {
      stack = await startTestStack(options);
      await expectConverges(stack.sandbox, stack.store, LISTED, 15_000);
    });
    afterAll(async () => {
      log.report(title);
      await stack?.close();
    });

    it.each(cases)('%s', async (fault) => {
      await FAULT_CASES[fault](stack.sandbox);
      log.record(fault, await expectConverges(stack.sandbox, stack.store, LISTED, 10_000));
    });
  });
}
