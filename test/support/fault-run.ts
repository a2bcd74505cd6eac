import { RunningSandbox } from 'sandbox-exchange';
import { setFault, setFlow } from './truth';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface FaultRun {
  /** Parameters of the fault (`count`, `intervalMs`, `allowReconnect`, ...). */
  readonly params?: Record<string, unknown>;
  /** How long the fault stays on while the market moves. */
  readonly onMs: number;
  /** How long the market keeps moving after the fault is off (0: it stops at once). */
  readonly afterMs?: number;
  /** Synthetic orders per second per market while the fault is on. */
  readonly flowRate: number;
  /** A pulse acts once when switched on and needs no switching off. */
  readonly pulse?: boolean;
}

/** Switches a fault on while the market moves, holds it for a while, and switches it off again. */
export async function runFault(sandbox: RunningSandbox, name: string, run: FaultRun): Promise<void> {
  await setFlow(sandbox, run.flowRate);
  await setFault(sandbox, name, true, run.params);
  await sleep(run.onMs);
  if (!run.pulse) await setFault(sandbox, name, false);
  if (run.afterMs) await sleep(run.afterMs);
}

/** Polls `condition` until it holds and gives the milliseconds it took; throws with `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
  pollMs = 50,
): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(pollMs);
  }
  return Date.now() - started;
}

/**
 * Convergence times per fault, printed at the end of a suite when `CONVERGENCE_REPORT` is set, so
 * that a run can be measured without the tests printing anything by default.
 */
export class ConvergenceLog {
  private readonly times = new Map<string, number[]>();

  record(fault: string, ms: number): void {
    this.times.set(fault, [...(this.times.get(fault) ?? []), ms]);
  }

  report(title: string): void {
    if (!process.env.CONVERGENCE_REPORT) return;
    const lines = [...this.times].map(([fault, times]) => `  ${fault}: ${times.join(', ')} ms`);
    process.stdout.write(`${title}\n${lines.join('\n')}\n`);
  }
}
