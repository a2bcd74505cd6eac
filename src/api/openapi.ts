import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document at `/docs-json` and a browsable page for it at `/docs`. */
export function setUpOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Market-data gateway')
    .setDescription(
      'Aggregator listing endpoints of the exchange, CoinMarketCap and CoinGecko formats, and a mirror of the ' +
        "exchange's public REST, all served from the gateway's state. Decimals are strings in plain notation " +
        'at the market scale; errors are `{ "errors": [{ "code", "message" }] }`.',
    )
    .setVersion('1')
    .build();
  SwaggerModule.setup('docs', app, SwaggerModule.createDocument(app, config), {
    jsonDocumentUrl: 'docs-json',
  });
}
