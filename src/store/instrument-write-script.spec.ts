import { EMPTY_STATS } from '../market/market-stats';
import { CALL_ARGUMENT_CHARS, instrumentWriteCalls, WRITES_PER_CALL } from './instrument-write-script';
import { StoreKeys } from './keys';
import { InstrumentWrite, PriceLevel } from './state-store';

const keys = new StoreKeys();

function write(instrument: string, bids: PriceLevel[] = [['1', '1']]): InstrumentWrite {
  return {
    instrument,
    replace: false,
    head: {
      instrument,
      bookVersion: 1,
      bookUpdatedAt: 0,
      syncState: 'live',
      stats: EMPTY_STATS,
      tradesRevision: 0,
      tradeFeed: 'live',
      lastEventAt: 0,
      confirmedAt: 0,
    },
    levels: { bids, asks: [] },
  };
}

/** The instruments each call carries, read back from its head keys. */
function instrumentsPerCall(calls: ReturnType<typeof instrumentWriteCalls>): string[][] {
  return calls.map(({ call, writes }) => {
    expect(call.keys).toHaveLength(6 * writes);
    expect(call.args).toHaveLength(1 + 7 * writes);
    expect(call.args[0]).toBe(keys.changes);
    return call.keys.filter((key) => key.endsWith(':head')).map((key) => key.slice(5, -6));
  });
}

describe('instrumentWriteCalls', () => {
  it('carries a batch in calls of at most WRITES_PER_CALL writes, in order', () => {
    const batch = Array.from({ length: 2 * WRITES_PER_CALL + 3 }, (_, i) => write(`m${i}_usdt`));
    const calls = instrumentWriteCalls(keys, batch);
    expect(calls.map(({ writes }) => writes)).toEqual([WRITES_PER_CALL, WRITES_PER_CALL, 3]);
    expect(instrumentsPerCall(calls).flat()).toEqual(batch.map(({ instrument }) => instrument));
    expect(calls.map(({ call }) => call.group)).toEqual([
      'm0_usdt',
      `m${WRITES_PER_CALL}_usdt`,
      `m${2 * WRITES_PER_CALL}_usdt`,
    ]);
  });

  it('closes a call once its arguments reach CALL_ARGUMENT_CHARS, so a deep book does not hold Redis for the rest', () => {
    const deep: PriceLevel[] = Array.from({ length: CALL_ARGUMENT_CHARS / 4 }, (_, i) => [`${i + 1}`, '1']);
    const batch = [write('a_usdt'), write('b_usdt', deep), write('c_usdt'), write('d_usdt', deep)];
    expect(instrumentsPerCall(instrumentWriteCalls(keys, batch))).toEqual([
      ['a_usdt', 'b_usdt'],
      ['c_usdt', 'd_usdt'],
    ]);
  });

  it('sends every write alone on a Cluster, where a call must keep to one slot', () => {
    const batch = [write('a_usdt'), write('b_usdt'), write('a_usdt')];
    const calls = instrumentWriteCalls(keys, batch, { oneWritePerCall: true });
    expect(instrumentsPerCall(calls)).toEqual([['a_usdt'], ['b_usdt'], ['a_usdt']]);
    expect(calls.map(({ call }) => call.group)).toEqual(['a_usdt', 'b_usdt', 'a_usdt']);
  });

  it('makes no call for an empty batch', () => {
    expect(instrumentWriteCalls(keys, [])).toEqual([]);
  });
});
