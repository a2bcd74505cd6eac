import { ApiError } from '../http/api-error';
import { echo, integerParam, MAX_DEPTH } from '../http/query-params';

/**
 * CoinMarketCap's `depth`: 0 or absent for the full book, else N orders in all, N/2 per side.
 * CoinMarketCap lists 5 among its values, so an odd N gives (N - 1) / 2 per side; 1 would leave none
 * and is refused.
 */
export function cmcDepthParam(value: unknown): number {
  const depth = integerParam(value, 'depth', 0, MAX_DEPTH);
  if (depth === 1) {
    throw ApiError.badRequest(
      'invalid_depth',
      `depth must be 0 (full book) or at least 2 (depth/2 per side), got ${echo(String(depth))}`,
    );
  }
  return Math.floor(depth / 2);
}
