import { AccountOrder } from './account-order';
import { AccountTrade } from './account-trade';
import { AssetBalance } from './balance-book';
import { AccountStopOrder } from './stop-order';

/**
 * What changed in an account, emitted once per change after the operation that made it completed:
 * an order's new state, a new execution, a balance's new figures, a stop order's new state.
 */
export type AccountEvent =
  | { readonly kind: 'order'; readonly accountId: number; readonly order: AccountOrder }
  | { readonly kind: 'trade'; readonly accountId: number; readonly trade: AccountTrade }
  | { readonly kind: 'balance'; readonly accountId: number; readonly balance: AssetBalance }
  | { readonly kind: 'stopOrder'; readonly accountId: number; readonly stopOrder: AccountStopOrder };
