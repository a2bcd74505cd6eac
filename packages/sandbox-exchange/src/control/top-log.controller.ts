import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  OnModuleDestroy,
  Param,
  Post,
} from '@nestjs/common';
import { ExchangeError } from '../rest/exchange-error';
import { findMarket } from '../rest/find-market';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { TopOfBookChange, TopOfBookLog } from '../simulation/top-of-book-log';
import { jsonObject, rejectUnknownFields } from './request-body';

export interface TopLogView {
  readonly instrument: string;
  /** The market's book version now. */
  readonly version: number;
  /** Every change of the best bid or ask since the recording started, oldest first. */
  readonly changes: readonly TopOfBookChange[];
}

/**
 * Records when each state of the top of the book was emitted, so that a benchmark can tell how long
 * the gateway took to show it.
 */
@Controller('sandbox/top-log')
export class TopLogController implements OnModuleDestroy {
  private readonly log = new TopOfBookLog();

  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  /** `{ instruments: [...] }` starts recording those markets, ending any earlier recording. */
  @Post()
  @HttpCode(HttpStatus.OK)
  record(@Body() body: unknown): { instruments: string[] } {
    const request = jsonObject(body);
    rejectUnknownFields(request, ['instruments']);
    const { instruments } = request;
    if (!Array.isArray(instruments) || !instruments.every((name) => typeof name === 'string'))
      throw ExchangeError.badRequest('instruments: must be an array of instrument names');
    const markets = (instruments as string[]).map((name) => findMarket(this.exchange, name));
    this.log.record(markets);
    return { instruments: markets.map((market) => market.instrument) };
  }

  @Get(':instrument')
  changes(@Param('instrument') instrument: string): TopLogView {
    const market = findMarket(this.exchange, instrument);
    const changes = this.log.changes(market.instrument);
    if (!changes) throw ExchangeError.notFound(`${market.instrument} is not being recorded`);
    return { instrument: market.instrument, version: market.version, changes };
  }

  onModuleDestroy(): void {
    this.log.clear();
  }
}
