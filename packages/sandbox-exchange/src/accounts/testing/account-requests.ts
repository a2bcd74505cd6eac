import { Side } from '../../engine/side';
import { formatUnits } from '../../engine/units';
import { BALANCE_SCALE } from '../balance-units';
import { PlaceOrderRequest, SandboxAccounts } from '../sandbox-accounts';

/** A good-till-cancelled limit order on btc_usdt. */
export const limit = (
  side: Side,
  price: string,
  amount: string,
  extra: Partial<PlaceOrderRequest> = {},
): PlaceOrderRequest => ({
  instrument: 'btc_usdt',
  side,
  type: 'limit',
  price,
  amount,
  timeInForce: 'gtc',
  ...extra,
});

/** A balance as plain decimal text. */
export function balanceOf(
  accounts: SandboxAccounts,
  accountId: number,
  asset: string,
): { available: string; locked: string } {
  const { available, locked } = accounts.balance(accountId, asset);
  return { available: formatUnits(available, BALANCE_SCALE), locked: formatUnits(locked, BALANCE_SCALE) };
}
