/** Error codes of the gateway's generic result object (spec 7.4, plus the real gateway's 909). */
export enum GatewayErrorCode {
  NotAuthorized = 20,
  InvalidRequest = 100,
  OperationFailed = 101,
  ServerError = 102,
  ResourceNotFound = 104,
  AlreadySubscribed = 909,
}

const MESSAGES: Record<GatewayErrorCode, string> = {
  [GatewayErrorCode.NotAuthorized]: 'Not Authorized',
  [GatewayErrorCode.InvalidRequest]: 'Invalid Request',
  [GatewayErrorCode.OperationFailed]: 'Operation Failed',
  [GatewayErrorCode.ServerError]: 'Server Error',
  [GatewayErrorCode.ResourceNotFound]: 'Resource Not Found',
  [GatewayErrorCode.AlreadySubscribed]: 'Already Subscribed.',
};

/** `{result, errormsg, errorcode, detail}`: the reply of unsubscribe calls and of every failed call. */
export interface GatewayResult {
  readonly result: boolean;
  readonly errormsg: string | null;
  readonly errorcode: number;
  readonly detail: string | null;
}

export function succeeded(): GatewayResult {
  return { result: true, errormsg: null, errorcode: 0, detail: null };
}

export function failed(code: GatewayErrorCode, detail: string | null = null): GatewayResult {
  return { result: false, errormsg: MESSAGES[code], errorcode: code, detail };
}

/** Thrown by a call to reply with a failed result. */
export class GatewayCallError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    readonly detail: string | null = null,
  ) {
    super(`${MESSAGES[code]}${detail ? `: ${detail}` : ''}`);
    this.name = 'GatewayCallError';
  }

  get result(): GatewayResult {
    return failed(this.code, this.detail);
  }
}
