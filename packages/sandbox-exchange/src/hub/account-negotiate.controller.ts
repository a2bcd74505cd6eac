import {
  Controller,
  Headers,
  HttpCode,
  HttpException,
  HttpStatus,
  Inject,
  Post,
  Query,
} from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { errorBody } from '../http/error-body';
import { AccountHubServer } from './account-hub-server';
import { NegotiateResponse } from './hub-negotiation';

/** `POST /ws/account/negotiate` (and under /frontoffice): admitted with the same headers as the websocket. */
@Controller()
export class AccountNegotiateController {
  constructor(@Inject(AccountHubServer) private readonly server: AccountHubServer) {}

  @Post(['ws/account/negotiate', 'frontoffice/ws/account/negotiate'])
  @HttpCode(HttpStatus.OK)
  negotiate(
    @Headers() headers: IncomingHttpHeaders,
    @Query('negotiateVersion') negotiateVersion?: string,
  ): NegotiateResponse {
    if (this.server.refusing)
      throw new HttpException(
        errorBody('', 'System is currently overloaded'),
        HttpStatus.SERVICE_UNAVAILABLE,
      );
    const admission = this.server.admit(headers);
    if (!admission.ok)
      throw new HttpException(errorBody(admission.code, admission.message), HttpStatus.UNAUTHORIZED);
    const version = Number(negotiateVersion ?? 0);
    return this.server.negotiate(Number.isInteger(version) ? version : 0);
  }
}
