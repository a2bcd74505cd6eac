import { ListingFlag } from '../../market/listing-health/listing-flag';
import { DAY_MS } from '../../market/trade-window';
import { BackfillState, BarArchive } from '../../store/bar-archive';

/** States read at once during a refresh, as for the books. */
const PARALLEL_READS = 8;
/** A mismatch found within this long flags the market: about as long as the hours it found stay in the window. */
export const MISMATCH_FLAG_MS = DAY_MS;

interface StatesRead {
  readonly at: number;
  readonly states: ReadonlyMap<string, BackfillState>;
}

/**
 * The `chart_bars_mismatch` flag of each market, from what the ingest's check of trade-built
 * 1-minute bars against the exchange's candles wrote into the bar archive's backfill state. Read
 * again, a few at a time, when asked for and older than the refresh interval; served meanwhile.
 */
export class ChartMismatchFlags {
  private read?: StatesRead;
  private reading?: Promise<StatesRead>;

  constructor(
    private readonly archive: Pick<BarArchive, 'readBackfill'>,
    private readonly refreshMs: number,
  ) {}

  /** The flag of each of `instruments` that has one, as last read (waiting only for the first read). */
  async flags(instruments: readonly string[], now: number): Promise<Map<string, ListingFlag>> {
    const age = this.read ? now - this.read.at : Number.POSITIVE_INFINITY;
    if (age >= this.refreshMs)
      this.reading ??= this.readStates(instruments, now).finally(() => (this.reading = undefined));
    const read = this.read ?? (await this.reading!);
    const flags = new Map<string, ListingFlag>();
    for (const [instrument, state] of read.states) {
      const flag = mismatchFlag(state, now);
      if (flag) flags.set(instrument, flag);
    }
    return flags;
  }

  private async readStates(instruments: readonly string[], at: number): Promise<StatesRead> {
    const states = new Map<string, BackfillState>();
    let next = 0;
    const reader = async () => {
      while (next < instruments.length) {
        const instrument = instruments[next++];
        // An unreadable state raises no flag: the check's counter still tells.
        const state = await this.archive.readBackfill(instrument).catch(() => undefined);
        if (state?.mismatchFoundAt !== undefined) states.set(instrument, state);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_READS }, reader));
    return (this.read = { at, states });
  }
}

export function mismatchFlag(state: BackfillState, now: number): ListingFlag | undefined {
  const { mismatchFoundAt, mismatchFrom, mismatchTo, mismatchBars } = state;
  if (mismatchFoundAt === undefined || now - mismatchFoundAt >= MISMATCH_FLAG_MS) return undefined;
  const hours =
    mismatchFrom !== undefined && mismatchTo !== undefined
      ? ` of ${utcText(mismatchFrom)} to ${utcText(mismatchTo)}`
      : '';
  return {
    code: 'chart_bars_mismatch',
    message: `${mismatchBars ?? 'some'} 1-minute chart bars${hours} built from the gateway's trades differ from the exchange's candles (checked ${Math.round((now - mismatchFoundAt) / 60_000)} min ago)`,
  };
}

function utcText(time: number): string {
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
