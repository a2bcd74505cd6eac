import { Controller, Get, Header, Inject } from '@nestjs/common';
import { toJson } from '../http/json-number';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { JSON_CONTENT_TYPE } from './json-content-type';
import { exchangeInfo } from './market-info-view';

@Controller('frontoffice/api')
export class MarketInfoController {
  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  /** Every market with its trading parameters, and the server time in .NET ticks (spec 2.1). */
  @Get('info')
  @Header('content-type', JSON_CONTENT_TYPE)
  info(): string {
    return toJson(exchangeInfo(this.exchange.all(), Math.floor(this.exchange.clock.now())));
  }
}
