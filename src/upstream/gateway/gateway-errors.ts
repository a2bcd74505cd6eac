import { ExactJson, isJsonObject } from '../exact-json';

/** Every failure of a gateway call or connection. */
export class GatewayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The gateway refused a call: an error frame (`m` 5), or a reply holding the failed generic result
 * `{result: false, errormsg, errorcode, detail}` (codes 20 Not Authorized, 100 Invalid Request,
 * 104 Resource Not Found, 909 Already Subscribed...).
 */
export class GatewayCallError extends GatewayError {
  constructor(
    readonly functionName: string,
    /** `errorcode`, undefined for an error frame without one ("Endpoint Not Found"). */
    readonly code: number | undefined,
    readonly errorMessage: string,
    readonly detail?: string,
  ) {
    super(
      `${functionName} failed${code === undefined ? '' : ` with ${code}`}: ${errorMessage}` +
        (detail ? ` (${detail})` : ''),
    );
  }

  /** The call's error when `payload` is the failed generic result, else undefined. */
  static fromResult(functionName: string, payload: ExactJson): GatewayCallError | undefined {
    if (!isJsonObject(payload) || payload.result !== false) return undefined;
    return GatewayCallError.of(functionName, payload);
  }

  /** The error an error frame's payload describes. */
  static of(functionName: string, payload: ExactJson): GatewayCallError {
    if (!isJsonObject(payload))
      return new GatewayCallError(functionName, undefined, typeof payload === 'string' ? payload : 'error');
    const code = typeof payload.errorcode === 'string' ? Number(payload.errorcode) : NaN;
    const text = (value: ExactJson | undefined) => (typeof value === 'string' ? value : undefined);
    return new GatewayCallError(
      functionName,
      Number.isSafeInteger(code) ? code : undefined,
      text(payload.errormsg) ?? 'error',
      text(payload.detail),
    );
  }
}

export const ErrorCode = {
  NotAuthorized: 20,
  ResourceNotFound: 104,
  AlreadySubscribed: 909,
} as const;

/** No answer in time: to a call, to a Ping, or no connection in time for a call. */
export class GatewayTimeoutError extends GatewayError {}

/** The connection closed (or was never there) before the call was answered. */
export class GatewayDisconnectedError extends GatewayError {}

/** The websocket could not be opened; `status` is the HTTP status of a refused upgrade. */
export class GatewayConnectError extends GatewayError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The login call failed; `status` is its HTTP status when it got one. Never holds the credentials. */
export class GatewayLoginError extends GatewayError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** WebAuthenticateUser answered `Authenticated: false`: the login's token is no longer valid. */
export class GatewayAuthenticationError extends GatewayError {}
