import type { Logger } from 'pino';
import { StateStore } from '../store/state-store';
import { Readiness, ReadinessReport } from './readiness';
import { readinessSummary, ReadinessSummary } from './readiness-report';

export interface ReadyAnnouncementOptions {
  readonly readiness: Readiness;
  readonly store: StateStore;
  readonly logger: Logger;
  readonly role: string;
  readonly url: string;
  /** How often readiness is evaluated until it holds; 250 ms by default. */
  readonly intervalMs?: number;
}

/** The fields of the ready line. */
export interface ReadyFields {
  readonly role: string;
  /** Listed markets. */
  readonly markets: number | null;
  /** Books this process keeps that are live (ingest roles only). */
  readonly booksLive?: number;
  /** Milliseconds from the start of the process. */
  readonly startupMs: number;
  readonly url: string;
  /** The data comes from the built-in sandbox exchange: simulated prices. */
  readonly sandbox?: true;
}

/**
 * Evaluates readiness as `/health/ready` does until it first holds (for an ingest, every listed
 * book it keeps is live), then logs one info line saying so, and stops. Returns what stops it
 * earlier; a shutdown does too.
 */
export function announceWhenReady(options: ReadyAnnouncementOptions): () => void {
  const { readiness, store, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const check = async (): Promise<void> => {
    if (stopped || readiness.isShuttingDown) return;
    const summary = await readinessSummary(store, readiness).catch(() => undefined);
    if (stopped) return;
    if (summary?.ready) {
      const fields = readyFields(summary, options);
      logger.info(fields, readyMessage(fields));
      return;
    }
    timer = setTimeout(() => void check(), options.intervalMs ?? 250);
    timer.unref();
  };
  void check();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export function readyFields(
  summary: ReadinessSummary,
  options: Pick<ReadyAnnouncementOptions, 'role' | 'url'>,
): ReadyFields {
  const ingest = summary.checks.ingest as (ReadinessReport & IngestDetail) | undefined;
  const api = summary.checks.api as (ReadinessReport & { markets?: number }) | undefined;
  const markets = ingest?.listed ?? api?.markets ?? null;
  return {
    role: options.role,
    markets,
    ...(ingest ? { booksLive: ingest.instruments - ingest.notLive.length } : {}),
    startupMs: Math.round(performance.now()),
    url: options.url,
    ...(summary.sandbox ? { sandbox: true as const } : {}),
  };
}

interface IngestDetail {
  readonly listed?: number;
  readonly instruments: number;
  readonly notLive: readonly string[];
}

function readyMessage(fields: ReadyFields): string {
  const what =
    fields.booksLive !== undefined
      ? `${fields.booksLive} books live of ${fields.markets ?? 'unknown'} listed markets`
      : `${fields.markets ?? 'no'} listed markets served`;
  const source = fields.sandbox
    ? '; the exchange is the built-in sandbox: simulated prices, for a trial only'
    : '';
  return `ready: ${what}, ${fields.startupMs} ms after start, on ${fields.url}${source}`;
}
