import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { FaultRequestError, FaultState } from '../faults/fault-switchboard';
import { ExchangeError } from '../rest/exchange-error';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { jsonObject } from './request-body';

@Controller('sandbox/faults')
export class FaultsController {
  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  /** Every fault with whether it is on, what it does and, while on, its parameters. */
  @Get()
  list(): FaultState[] {
    return this.exchange.faults.list();
  }

  /** `{ name, enabled, ...params }` switches one fault; answers its new state. */
  @Post()
  @HttpCode(HttpStatus.OK)
  switch(@Body() body: unknown): FaultState {
    const { name, enabled, ...params } = jsonObject(body);
    try {
      return this.exchange.faults.set(name, enabled, params);
    } catch (error) {
      if (error instanceof FaultRequestError) throw ExchangeError.badRequest(error.message);
      throw error;
    }
  }
}
