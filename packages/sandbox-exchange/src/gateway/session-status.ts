import { MarketStatus } from '../market/market-spec';
import { SandboxExchange } from '../simulation/sandbox-exchange';

/** The gateway's trading-session states (the Instrument record's `SessionStatus`). */
export type SessionStatus = 'Unknown' | 'Running' | 'Paused' | 'Stopped' | 'Starting';

const BY_MARKET_STATUS: Record<MarketStatus, SessionStatus> = {
  Open: 'Running',
  Paused: 'Paused',
  Halted: 'Stopped',
};

export function sessionStatusOf(status: MarketStatus): SessionStatus {
  return BY_MARKET_STATUS[status];
}

export interface SessionState {
  readonly current: SessionStatus;
  readonly previous: SessionStatus;
  /** ISO 8601 time of the last change. */
  readonly since: string;
}

/**
 * Each market's session status with the status before it and the time of the change, following the
 * markets' status changes. Before any change the previous status is Unknown and the time is when the
 * gateway started.
 */
export class SessionStatusBook {
  private readonly states = new Map<number, SessionState>();
  private readonly unsubscribe: () => void;

  constructor(private readonly exchange: SandboxExchange) {
    const since = new Date(exchange.clock.now()).toISOString();
    for (const market of exchange.all()) {
      this.states.set(market.spec.instrumentId, {
        current: sessionStatusOf(market.status),
        previous: 'Unknown',
        since,
      });
    }
    this.unsubscribe = exchange.statusChanges.subscribe((market) => {
      const current = sessionStatusOf(market.status);
      const state = this.states.get(market.spec.instrumentId);
      if (state?.current === current) return;
      this.states.set(market.spec.instrumentId, {
        current,
        previous: state?.current ?? 'Unknown',
        since: new Date(exchange.clock.now()).toISOString(),
      });
    });
  }

  of(instrumentId: number): SessionState {
    const state = this.states.get(instrumentId);
    if (state) return state;
    const market = this.exchange.marketById(instrumentId);
    return {
      current: market ? sessionStatusOf(market.status) : 'Unknown',
      previous: 'Unknown',
      since: new Date(0).toISOString(),
    };
  }

  close(): void {
    this.unsubscribe();
  }
}
