import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { RecordedItem } from '../recording/recording-format';
import { RecordingReader } from '../recording/recording-reader';
import { GatewayClient } from '../upstream/gateway/gateway-client';
import { HubClient } from '../upstream/hub/hub-client';
import { UpstreamTap } from '../upstream/upstream-tap';
import { IngestedInstruments } from './ingested-instruments';
import { IngestRecorder } from './ingest-recorder';

const T0 = Date.UTC(2026, 11, 4, 10, 9, 59);
const INSTRUMENTS = '{"m":1,"i":4,"n":"GetInstruments","o":"[{\\"InstrumentId\\":1,\\"Symbol\\":\\"BTCUSDT\\"}]"}';
const TRADE = '{"m":3,"i":1,"n":"OrderTradeEvent","o":"[[7,1,0.5,65000,1,2,1796416207860,0,1,false,0]]"}';

describe('IngestRecorder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ingest-recorder-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens each file with every market and what the gateway said once per session, for that file alone', async () => {
    const tap = new UpstreamTap();
    const feeds = { onStateChange: () => () => undefined };
    const pipeline = {
      instrument: 'btc_usdt',
      bookNow: () => ({ version: 3, state: 'live', bids: [], asks: [] }),
      newestTrades: () => [],
    };
    const recorder = new IngestRecorder(
      Object.assign(new AppConfig(), { RECORD_DIR: dir, INSTANCE_ID: 'ingest-0' }),
      tap,
      feeds as unknown as HubClient,
      feeds as unknown as GatewayClient,
      { pipelines: () => [pipeline] } as unknown as IngestedInstruments,
    );
    recorder.start();
    tap.frame(INSTRUMENTS, T0);
    tap.frame(TRADE, T0 + 500);
    // Past the ten minutes: the next file opens after this turn.
    tap.frame(TRADE, T0 + 1_000);
    await new Promise((resolve) => setImmediate(resolve));
    tap.frame(TRADE, T0 + 1_500);
    await recorder.stop();

    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    const items: RecordedItem[] = [];
    for await (const item of new RecordingReader(join(dir, files[1])).items()) items.push(item);
    expect(items.map((item) => [item.kind, item.instrument ?? item.data])).toEqual([
      ['checkpoint', 'btc_usdt'],
      ['frame', INSTRUMENTS],
      ['frame', TRADE],
    ]);
  });
});
