import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { ExchangeError } from './exchange-error';

/** The market of a path's `{instrument}` (exact, lower case as the exchange spells it), or 404. */
export function findMarket(exchange: SandboxExchange, instrument: string): MarketSimulator {
  const market = exchange.market(instrument);
  if (!market) throw ExchangeError.notFound(`Instrument ${JSON.stringify(instrument)} not found`);
  return market;
}
