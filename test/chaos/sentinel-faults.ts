import { RunningSandbox } from 'sandbox-exchange';
import { SentinelSet, SetProcess } from '../sentinel/sentinel-set';
import { sleep } from '../support/fault-run';
import { setFault } from '../support/truth';
import { ScheduledFault, SENTINEL_FAULTS, SentinelFault } from './fault-schedule';

/** What a Redis fault did, for the report: the primary it hit and the one that took over. */
export interface PrimaryChange {
  readonly from: number;
  readonly to: number;
}

/** Longer than the Sentinels' failover timeout (5 s), after which a forced failover has ended or aborted. */
const FAILOVER_WAIT_MS = 15_000;

/** Lets the burst run a moment before the primary goes, so the kill lands in it. */
const BURST_LEAD_MS = 300;

/**
 * Injects one fault of a Redis behind Sentinels and ends it: a killed primary is started again
 * (empty) once a replica took its place and the hold is over. Returns the ports of the primary
 * before and after (the same when the Sentinels did not fail over). Expects a settled set.
 */
export async function injectSentinelFault(
  set: SentinelSet,
  sandbox: RunningSandbox,
  fault: ScheduledFault & { readonly kind: SentinelFault },
): Promise<PrimaryChange> {
  const old = await set.primary();
  switch (fault.kind) {
    case 'primary-kill':
      await old.kill();
      await killedAndReplaced(set, old, fault.holdMs);
      break;
    case 'primary-kill-in-burst':
      await setFault(sandbox, 'burst', true, fault.params);
      try {
        await sleep(BURST_LEAD_MS);
        await old.kill();
        await killedAndReplaced(set, old, fault.holdMs);
      } finally {
        await setFault(sandbox, 'burst', false);
      }
      break;
    case 'failover':
      await failOver(set, old);
      await sleep(fault.holdMs);
      break;
    case 'primary-pause': {
      const primary = set.connect(old);
      try {
        await primary.call('CLIENT', 'PAUSE', String(fault.holdMs), 'ALL');
      } finally {
        primary.disconnect();
      }
      await sleep(fault.holdMs);
      break;
    }
    case 'primary-sleep':
      await debugSleep(set, old, fault.holdMs);
      break;
  }
  return { from: old.port, to: (await set.primary()).port };
}

/**
 * Once a replica took the killed primary's place and every Sentinel names it (a Sentinel still
 * naming the old address would send clients to the node restarted empty), and after the hold, the
 * node starts again.
 */
async function killedAndReplaced(set: SentinelSet, old: SetProcess, holdMs: number): Promise<void> {
  await set.untilAllName(await set.untilFailedOver(old));
  await sleep(holdMs);
  await old.restart();
}

/**
 * SENTINEL FAILOVER until a replica has taken `old`'s place. A forced failover that aborts (a replica
 * slow to turn on a loaded host) is not tried again by the Sentinels, so it is asked for again.
 */
async function failOver(set: SentinelSet, old: SetProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await forceFailover(set, deadline);
    try {
      await set.untilFailedOver(old, FAILOVER_WAIT_MS);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** SENTINEL FAILOVER, tried again while the Sentinels refuse it (a failover under way, no good replica yet). */
async function forceFailover(set: SentinelSet, deadline: number): Promise<void> {
  for (;;) {
    try {
      return await set.forceFailover();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

/**
 * DEBUG SLEEP blocks the connection that sends it until the server wakes, so it goes on a connection
 * of its own. Resolves once the server has answered, or rejects, at most 10 s after it should have.
 */
async function debugSleep(set: SentinelSet, node: SetProcess, ms: number): Promise<void> {
  const connection = set.connect(node);
  connection.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`DEBUG SLEEP not answered within ${ms + 10_000} ms`)),
      ms + 10_000,
    );
  });
  try {
    await Promise.race([connection.call('DEBUG', 'SLEEP', (ms / 1000).toFixed(3)), late]);
  } finally {
    clearTimeout(timer);
    connection.disconnect();
  }
}

export function isSentinelFault(
  fault: ScheduledFault,
): fault is ScheduledFault & { readonly kind: SentinelFault } {
  return (SENTINEL_FAULTS as readonly string[]).includes(fault.kind);
}
