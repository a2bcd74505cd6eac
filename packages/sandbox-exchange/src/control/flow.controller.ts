import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { jsonObject, numberField, rejectUnknownFields } from './request-body';

/** The highest synthetic flow accepted, as for SANDBOX_FLOW_RATE; beyond it the sandbox would stall. */
export const MAX_FLOW_RATE = 100_000;

export interface FlowView {
  /** Synthetic operations per second on each open market; 0 means paused. */
  readonly ratePerSecond: number;
}

@Controller('sandbox/flow')
export class FlowController {
  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  @Get()
  flow(): FlowView {
    return { ratePerSecond: this.exchange.flowRate };
  }

  /** `{ ratePerSecond }` sets the synthetic order flow per open market; 0 pauses it. */
  @Post()
  @HttpCode(HttpStatus.OK)
  setFlow(@Body() body: unknown): FlowView {
    const request = jsonObject(body);
    rejectUnknownFields(request, ['ratePerSecond']);
    this.exchange.setFlowRate(numberField(request, 'ratePerSecond', { min: 0, max: MAX_FLOW_RATE }));
    return this.flow();
  }
}
