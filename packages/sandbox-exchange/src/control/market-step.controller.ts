import { Body, Controller, HttpCode, HttpStatus, Inject, Param, Post } from '@nestjs/common';
import { findMarket } from '../rest/find-market';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { jsonObject, numberField, rejectUnknownFields } from './request-body';

/** The most operations one call runs; they run synchronously and hold up every other request. */
export const MAX_STEP_COUNT = 100_000;

export interface StepView {
  readonly instrument: string;
  /** Book version after the operations. */
  readonly version: number;
}

@Controller('sandbox/markets/:instrument')
export class MarketStepController {
  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  /**
   * `{ count }` runs that many synthetic operations on the market at once, whatever its status or
   * the flow rate, so that a test can move a quiet market deterministically.
   */
  @Post('step')
  @HttpCode(HttpStatus.OK)
  step(@Param('instrument') instrument: string, @Body() body: unknown): StepView {
    const market = findMarket(this.exchange, instrument);
    const request = jsonObject(body);
    rejectUnknownFields(request, ['count']);
    const count = numberField(request, 'count', { min: 1, max: MAX_STEP_COUNT, integer: true });
    this.exchange.stepMarket(market, count);
    return { instrument: market.instrument, version: market.version };
  }
}
