import { parseUnits } from '../engine/units';
import { SandboxMarketSpec } from '../market/market-spec';
import { SandboxUser } from '../users/sandbox-user';
import { BALANCE_SCALE, quoteValue, toBalanceUnits } from './balance-units';

/** Typical orders' worth of each asset an account holds at start when its user names no balances. */
const TYPICAL_ORDERS_HELD = 100n;

/**
 * The default starting balance of every asset the markets trade: a hundred typical orders' worth,
 * in base terms (typical amount) and in quote terms (typical amount x initial price), the larger
 * over every market of the asset.
 */
export function defaultStartingBalances(markets: readonly SandboxMarketSpec[]): Map<string, bigint> {
  const balances = new Map<string, bigint>();
  const raise = (asset: string, units: bigint) => {
    if (units > (balances.get(asset) ?? 0n)) balances.set(asset, units);
  };
  for (const spec of markets) {
    const typical = parseUnits(spec.typicalAmount, spec.amountScale) * TYPICAL_ORDERS_HELD;
    const price = parseUnits(spec.initialPrice, spec.priceScale);
    raise(spec.baseAsset, toBalanceUnits(typical, spec.amountScale));
    raise(spec.quoteAsset, quoteValue(price, typical, spec.priceScale, spec.amountScale));
  }
  return balances;
}

/** What each account of `user` holds at start, in balance units. */
export function startingBalancesOf(
  user: SandboxUser,
  defaults: ReadonlyMap<string, bigint>,
): Map<string, bigint> {
  if (!user.balances) return new Map(defaults);
  return new Map(
    Object.entries(user.balances).map(([asset, text]) => [asset, parseUnits(text, BALANCE_SCALE)]),
  );
}
