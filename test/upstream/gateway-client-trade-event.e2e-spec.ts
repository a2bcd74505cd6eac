import { Trade } from '../../src/market/trade';
import { RunningSandbox, Side } from 'sandbox-exchange';
import { formatUnits } from '../../src/market/fixed-point';
import { GatewayClient } from '../../src/upstream/gateway/gateway-client';
import { tradesSubscription } from '../../src/upstream/gateway/market-data-subscriptions';
import { waitUntil } from '../../src/upstream/gateway/testing/wait-until';
import { startTestSandbox } from '../support/start-test-sandbox';

describe('gateway client: trades under the real event name TradeDataUpdateEvent', () => {
  let sandbox: RunningSandbox;
  let client: GatewayClient | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_TRADE_EVENT: 'TradeDataUpdateEvent' });
  });

  afterAll(async () => {
    await client?.stop();
    await sandbox?.close();
  });

  it('receives the snapshot and every later trade once, as the market recorded them', async () => {
    client = new GatewayClient({
      wsUrl: sandbox.wsUrl,
      authUrl: sandbox.authUrl,
      credentials: { email: 'demo@example.com', password: 'demo' },
    });
    const eth = sandbox.exchange.market('eth_usdt')!;
    const snapshots: Trade[][] = [];
    const received: Trade[] = [];
    const spec = tradesSubscription(
      { instrument: { instrumentId: eth.spec.instrumentId, instrument: 'eth_usdt' }, includeLastCount: 5 },
      { onSnapshot: (trades) => snapshots.push(trades), onTrades: (trades) => received.push(...trades) },
    );
    const eventNames = new Set<string>();
    client.subscribe({
      ...spec,
      onEvent: (name, payload, receivedAt) => {
        eventNames.add(name);
        spec.onEvent(name, payload, receivedAt);
      },
    });
    client.start();
    await waitUntil(() => snapshots.length === 1, 5_000, 'snapshot');
    const before = eth.tradeLog.size;

    sandbox.exchange.setFlowRate(400);
    await waitUntil(() => eth.tradeLog.size >= before + 30, 10_000, 'thirty trades');
    sandbox.exchange.setFlowRate(0);
    const last = String(eth.tradeLog.last()!.id);
    await waitUntil(() => received[received.length - 1]?.id === last, 5_000, 'last trade');

    const { priceScale, amountScale } = eth.spec;
    const truth: Trade[] = eth.tradeLog.between(-Infinity, Infinity).map((trade) => ({
      id: String(trade.id),
      instrument: 'eth_usdt',
      price: formatUnits(trade.price, priceScale),
      amount: formatUnits(trade.amount, amountScale),
      side: trade.takerSide === Side.Buy ? 'buy' : 'sell',
      time: trade.time,
    }));
    expect(snapshots).toEqual([truth.slice(before - 5, before)]);
    expect(received).toEqual(truth.slice(before));
    expect([...eventNames]).toEqual(['TradeDataUpdateEvent']);
  });
});
