import type { ParameterObject } from '@nestjs/swagger';

/** Parameters shared by the endpoints. */

export function instrumentPath(name: string, example: string): ParameterObject {
  return {
    name,
    in: 'path',
    required: true,
    description:
      'the market as `base_quote`, in any letter case, with `_` or `-` between the assets; an unknown or ' +
      'hidden market is a 404',
    schema: { type: 'string', pattern: '^[A-Za-z0-9]+[_-][A-Za-z0-9]+$', examples: [example] },
  };
}

export const TICKER_ID: ParameterObject = {
  name: 'ticker_id',
  in: 'query',
  required: true,
  description:
    'the market as `BASE_QUOTE`, in any letter case, with `_` or `-`; absent, empty or repeated is a 400',
  schema: { type: 'string', examples: ['BTC_USDT'] },
};

export const EVEN_DEPTH: ParameterObject = {
  name: 'depth',
  in: 'query',
  required: false,
  description:
    'levels in all: 0 or absent for the full book, an even N for N/2 levels per side; an odd N is a 400',
  schema: { type: 'integer', minimum: 0, maximum: 999999999, multipleOf: 2, default: 0, examples: [100] },
};

export const CMC_DEPTH: ParameterObject = {
  name: 'depth',
  in: 'query',
  required: false,
  description:
    "levels in all: 0 or absent for the full book, else N for N/2 levels per side; CoinMarketCap's own list of " +
    'values includes 5, so an odd N gives (N - 1)/2 per side, and 1, which would give none, is a 400',
  schema: {
    type: 'integer',
    minimum: 0,
    maximum: 999999999,
    not: { enum: [1] },
    default: 0,
    examples: [100],
  },
};

export const LEVEL: ParameterObject = {
  name: 'level',
  in: 'query',
  required: false,
  description: '1: the best bid and ask only; 2 (default): every price level',
  schema: { type: 'integer', enum: [1, 2], default: 2 },
};

export const CMC_LEVEL: ParameterObject = {
  name: 'level',
  in: 'query',
  required: false,
  description:
    '1: the best bid and ask only; 2 (default): every price level; 3: the finest book the exchange gives, ' +
    'which is its price levels (it publishes no single orders)',
  schema: { type: 'integer', enum: [1, 2, 3], default: 2 },
};
