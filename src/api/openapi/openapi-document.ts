import type { OpenAPIObject } from '@nestjs/swagger';
import { Contact, LICENSE } from '../schema/document-info';
import { ErrorBody } from '../schema/error-schemas';
import { schemaComponents } from '../schema/schema-components';
import { ASYNCAPI_PATH } from '../asyncapi/asyncapi-document';
import { packageVersion } from '../package-version';
import { CMC } from './cmc-paths';
import { COINGECKO } from './coingecko-paths';
import { EndpointFamily } from './endpoint-family';
import { HEALTH } from './health-paths';
import { LISTING_HEALTH } from './listing-health-paths';
import { LISTING } from './listing-paths';
import { MIRROR } from './mirror-paths';
import { TRADINGVIEW_STREAMING } from './tradingview-streaming-paths';
import { ERROR_RESPONSES, HEADERS } from './responses';
import { TRADINGVIEW } from './tradingview-paths';
import { UDF } from './udf-paths';

export const ENDPOINT_FAMILIES: readonly EndpointFamily[] = [
  LISTING,
  LISTING_HEALTH,
  CMC,
  COINGECKO,
  MIRROR,
  TRADINGVIEW,
  UDF,
  HEALTH,
  TRADINGVIEW_STREAMING,
];

const DESCRIPTION = `Aggregator listing endpoints of the exchange, CoinMarketCap's and CoinGecko's formats, a mirror of the
exchange's public REST, and health, all served from the gateway's state, never from a call to the exchange.

Decimals are JSON strings in plain notation (no exponent, no \`-0\`) at the market's scale: prices and quote
amounts at \`priceScale\`, base amounts at \`amountScale\`, rounded half away from zero, trailing zeros kept. The
mirror keeps the exchange's own shapes, with decimals as JSON numbers written with every digit. Times are Unix
milliseconds unless stated. 24-hour figures cover trades with \`now - 24h < time <= now\`. Hidden markets are
left out everywhere but the mirror's market list; halted and paused markets stay listed as frozen.

Errors are \`{ "errors": [ { "code", "message" } ] }\`. Responses are compressed (gzip, br) on request from
1 KiB on.

Books, trades and tickers are also pushed over a websocket at \`GET /stream\`, which OpenAPI cannot describe:
its AsyncAPI 3.0 document is served at \`${ASYNCAPI_PATH}\`.`;

/** The OpenAPI 3.1 document of every endpoint the API serves; its schemas are the wire schemas. */
export function openApiDocument(contact: Contact, version = packageVersion()): OpenAPIObject {
  const schemas = Object.assign({ ErrorBody }, ...ENDPOINT_FAMILIES.map((family) => family.schemas));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Market-data gateway',
      version,
      description: DESCRIPTION,
      contact,
      license: LICENSE,
    },
    // Relative: the document describes the gateway that serves it, wherever it is deployed.
    servers: [{ url: '/', description: 'the gateway that serves this document' }],
    // Every endpoint is public: no credentials are asked for.
    security: [],
    tags: ENDPOINT_FAMILIES.map((family) => family.tag),
    paths: Object.assign({}, ...ENDPOINT_FAMILIES.map((family) => family.paths)),
    components: {
      schemas: schemaComponents(schemas, '#/components/schemas/'),
      responses: ERROR_RESPONSES,
      headers: HEADERS,
    },
  } as OpenAPIObject;
}
