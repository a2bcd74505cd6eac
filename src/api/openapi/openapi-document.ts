import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CMC } from './cmc-paths';
import { COINGECKO } from './coingecko-paths';
import { EndpointFamily } from './endpoint-family';
import { HEALTH } from './health-paths';
import { LISTING } from './listing-paths';
import { MIRROR } from './mirror-paths';
import { ERROR_BODY, ERROR_RESPONSES, HEADERS } from './responses';

export const ENDPOINT_FAMILIES: readonly EndpointFamily[] = [LISTING, CMC, COINGECKO, MIRROR, HEALTH];

/** The version in package.json, at the root above `src/` and `dist/` alike. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

const DESCRIPTION = `Aggregator listing endpoints of the exchange, CoinMarketCap's and CoinGecko's formats, a mirror of the
exchange's public REST, and health, all served from the gateway's state, never from a call to the exchange.

Decimals are JSON strings in plain notation (no exponent, no \`-0\`) at the market's scale: prices and quote
amounts at \`priceScale\`, base amounts at \`amountScale\`, rounded half away from zero, trailing zeros kept. The
mirror keeps the exchange's own shapes, with decimals as JSON numbers written with every digit. Times are Unix
milliseconds unless stated. 24-hour figures cover trades with \`now - 24h < time <= now\`. Hidden markets are
left out everywhere but the mirror's market list; halted and paused markets stay listed as frozen.

Errors are \`{ "errors": [ { "code", "message" } ] }\`. Responses are compressed (gzip, br) on request from
1 KiB on.`;

/** The OpenAPI 3.0 document of every endpoint the API serves. */
export function openApiDocument(version = packageVersion()): OpenAPIObject {
  return {
    openapi: '3.0.3',
    info: { title: 'Market-data gateway', version, description: DESCRIPTION },
    tags: ENDPOINT_FAMILIES.map((family) => family.tag),
    paths: Object.assign({}, ...ENDPOINT_FAMILIES.map((family) => family.paths)),
    components: {
      schemas: Object.assign({ ErrorBody: ERROR_BODY }, ...ENDPOINT_FAMILIES.map((family) => family.schemas)),
      responses: ERROR_RESPONSES,
      headers: HEADERS,
    },
  };
}
