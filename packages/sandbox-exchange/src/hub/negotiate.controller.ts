import { Controller, HttpCode, HttpException, HttpStatus, Inject, Post, Query } from '@nestjs/common';
import { errorBody } from '../http/error-body';
import { HubNegotiation, NegotiateResponse } from './hub-negotiation';
import { HUB_PATH, HubServer } from './hub-server';

/** `POST /marketdata/info/negotiate`: what a client asks before it opens the hub's websocket. */
@Controller(HUB_PATH)
export class NegotiateController {
  constructor(
    @Inject(HubNegotiation) private readonly negotiation: HubNegotiation,
    @Inject(HubServer) private readonly server: HubServer,
  ) {}

  @Post('negotiate')
  @HttpCode(HttpStatus.OK)
  negotiate(@Query('negotiateVersion') negotiateVersion?: string): NegotiateResponse {
    if (this.server.refusing) {
      throw new HttpException(
        errorBody('', 'System is currently overloaded'),
        HttpStatus.SERVICE_UNAVAILABLE,
      );
    }
    const version = Number(negotiateVersion ?? 0);
    return this.negotiation.negotiate(Number.isInteger(version) ? version : 0);
  }
}
