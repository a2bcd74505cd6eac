import { FrameType, IncomingFrame } from './gateway-frame';
import {
  GatewaySubscriptionSpec,
  InstrumentReader,
  Subscription,
  SubscriptionHost,
} from './gateway-subscription';
import { SubscriptionRouter } from './subscription-router';

const host: SubscriptionHost = {
  requestTimeoutMs: 1000,
  liveSocket: () => undefined,
  remove: () => undefined,
  report: () => undefined,
  paced: (_socket, call) => call(),
};

const rowsOf: InstrumentReader = (payload) =>
  Array.isArray(payload) ? payload.map((row) => (Array.isArray(row) ? Number(row[0]) : NaN)) : [];

function subscription(events: string[], routing?: { instrumentId: number; instrumentsOf: InstrumentReader }) {
  const spec: GatewaySubscriptionSpec = {
    subscribe: { name: 'Subscribe', payload: {} },
    unsubscribe: { name: 'Unsubscribe', payload: {} },
    events,
    matches: () => true,
    onReply: () => undefined,
    onEvent: () => undefined,
    ...(routing ? { routing } : {}),
  };
  return new Subscription(spec, host);
}

const event = (name: string, payload: IncomingFrame['payload']): IncomingFrame => ({
  type: FrameType.Event,
  sequence: 0,
  name,
  payload,
});

describe('SubscriptionRouter', () => {
  it('offers an event only to the routed subscriptions of its instruments, and to every unrouted one', () => {
    const router = new SubscriptionRouter();
    const one = subscription(['Trade'], { instrumentId: 1, instrumentsOf: rowsOf });
    const two = subscription(['Trade'], { instrumentId: 2, instrumentsOf: rowsOf });
    const three = subscription(['Trade'], { instrumentId: 3, instrumentsOf: rowsOf });
    const unrouted = subscription(['Trade']);
    for (const s of [one, two, three, unrouted]) router.add(s);

    expect([...router.candidates(event('Trade', [['2'], ['3'], ['2']]))]).toEqual([unrouted, two, three]);
    expect([...router.candidates(event('Trade', 'junk'))]).toEqual([unrouted]);
    expect([...router.candidates(event('Other', [['1']]))]).toEqual([unrouted]);
    expect(router.size).toBe(4);
  });

  it('asks for every event a subscription that reads an event name otherwise than those before it', () => {
    const router = new SubscriptionRouter();
    const first = subscription(['Trade'], { instrumentId: 1, instrumentsOf: rowsOf });
    const other = subscription(['Trade'], { instrumentId: 2, instrumentsOf: () => [2] });
    router.add(first);
    router.add(other);
    expect([...router.candidates(event('Trade', [['1']]))]).toEqual([other, first]);
  });

  it('forgets removed subscriptions', () => {
    const router = new SubscriptionRouter();
    const routed = subscription(['Trade'], { instrumentId: 1, instrumentsOf: rowsOf });
    const unrouted = subscription(['Trade']);
    router.add(routed);
    router.add(unrouted);
    router.delete(routed);
    router.delete(unrouted);
    expect([...router.candidates(event('Trade', [['1']]))]).toEqual([]);
    expect([...router]).toEqual([]);
  });
});
