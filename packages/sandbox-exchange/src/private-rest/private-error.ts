import { HttpException, HttpStatus } from '@nestjs/common';
import { AccountRejection, RejectionReason } from '../accounts/account-rejection';
import { errorBody } from '../http/error-body';

/** An error of the private REST: the exchange's error body (spec 7.1) with a code naming the case. */
export function privateError(status: HttpStatus, code: string, message: string): HttpException {
  return new HttpException(errorBody(code, message), status);
}

const NOT_FOUND: readonly RejectionReason[] = ['order_not_found', 'stop_order_not_found'];

/** A refusal of the accounts as a reply: 404 for what does not exist, 400 for everything else; the code is the reason. */
export function rejectionError(rejection: AccountRejection): HttpException {
  const status = NOT_FOUND.includes(rejection.reason) ? HttpStatus.NOT_FOUND : HttpStatus.BAD_REQUEST;
  return privateError(status, rejection.reason, rejection.message);
}

/** Runs a call of the accounts, turning its refusals into replies. */
export function orRejection<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof AccountRejection) throw rejectionError(error);
    throw error;
  }
}

export function badRequest(message: string): HttpException {
  return privateError(HttpStatus.BAD_REQUEST, 'bad_request', message);
}
