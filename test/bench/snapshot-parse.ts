import { MessageType, NullLogger, StreamItemMessage } from '@microsoft/signalr';
import { parseArgs } from 'node:util';
import { parseExactJson } from '../../src/upstream/exact-json';
import { bookMessageOf } from '../../src/upstream/hub/book-item-codec';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from '../../src/upstream/hub/exact-json-hub-protocol';
import { decodeDepth } from '../../src/upstream/rest/depth-codec';
import { describeMachine } from './machine';

/**
 * How long one call takes to read a deep snapshot as it arrives, before the book's sliced load: the
 * hub's first `Book` stream item (one SignalR record) and the REST depth body, each parsed exactly
 * and decoded in one call. Rounds after a warm-up; the median and the fastest.
 *
 *   node -r ./test/bench/swc-register.js test/bench/snapshot-parse.ts [--levels 20000] [--rounds 15]
 */
function main(): void {
  const { values } = parseArgs({
    options: { levels: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '15' } },
  });
  const depth = Number(values.levels);
  const rounds = Number(values.rounds);
  // Levels spelt as the exchange writes them, amount first: the hub reader matches that spelling
  // as it stands and reads any other key by key.
  const side = (from: number, step: number) =>
    Array.from(
      { length: depth },
      (_, i) => `{"amount":${(0.5 + (i % 97) / 1000).toFixed(8)},"price":${(from + i * step).toFixed(2)}}`,
    ).join(',');
  const book = `"instrument":"btc_usdt","bids":[${side(30_000 - depth * 0.01, 0.01)}],"asks":[${side(30_000.01, 0.01)}],"version":1000,"askTotalAmount":1.5,"bidTotalAmount":2.5`;
  const hubRecord = `{"type":2,"invocationId":"1","item":{${book},"snapshot":true}}${RECORD_SEPARATOR}`;
  const restBody = `{${book}}`;
  const protocol = new ExactJsonHubProtocol();

  const hub = (): void => {
    const [message] = protocol.parseMessages(hubRecord, NullLogger.instance) as StreamItemMessage[];
    if (message.type !== MessageType.StreamItem) throw new Error('not a stream item');
    bookMessageOf(message.item, Date.now(), 'btc_usdt');
  };
  const rest = (): void => {
    decodeDepth(parseExactJson(restBody), Date.now());
  };
  const timings = { hub: [] as number[], rest: [] as number[] };
  for (let round = -2; round < rounds; round++) {
    for (const [name, run] of [
      ['hub', hub],
      ['rest', rest],
    ] as const) {
      const started = performance.now();
      run();
      if (round >= 0) timings[name].push(performance.now() - started);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  process.stdout.write(
    [
      `Machine: ${describeMachine()}`,
      `Snapshot of ${depth} levels per side (${(hubRecord.length / 1e6).toFixed(2)} MB as a hub record); ${rounds} rounds after 2 of warm-up`,
      '',
      '| read in one call | median | fastest |',
      '| --- | ---: | ---: |',
      `| hub Book stream item: SignalR record parsed exactly and decoded | ${median(timings.hub).toFixed(1)} ms | ${Math.min(...timings.hub).toFixed(1)} ms |`,
      `| REST depth body: parsed exactly and decoded | ${median(timings.rest).toFixed(1)} ms | ${Math.min(...timings.rest).toFixed(1)} ms |`,
      '',
    ].join('\n'),
  );
}

main();
