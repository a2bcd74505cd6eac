/** A client-visible failure with its status and the exchange's error body code (spec 7.1). */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 405 | 406 | 413 | 426 | 429 | 503,
    readonly code: string,
    message: string,
    /** Headers the response must carry, such as `Allow` with a 405. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static badRequest(code: string, message: string): ApiError {
    return new ApiError(400, code, message);
  }

  static forbidden(code: string, message: string): ApiError {
    return new ApiError(403, code, message);
  }

  static notFound(code: string, message: string): ApiError {
    return new ApiError(404, code, message);
  }

  static methodNotAllowed(message: string, allowed: readonly string[]): ApiError {
    return new ApiError(405, 'method_not_allowed', message, { allow: allowed.join(', ') });
  }

  static notAcceptable(message: string): ApiError {
    return new ApiError(406, 'not_acceptable', message);
  }

  /** A websocket endpoint asked without the upgrade: the answer names the protocol it needs. */
  static upgradeRequired(message: string): ApiError {
    return new ApiError(426, 'upgrade_required', message, { upgrade: 'websocket', connection: 'Upgrade' });
  }

  static unavailable(code: string, message: string): ApiError {
    return new ApiError(503, code, message);
  }
}

export interface ErrorBody {
  readonly errors: readonly { readonly code: string; readonly message: string }[];
}

export function errorBody(code: string, message: string): ErrorBody {
  return { errors: [{ code, message }] };
}
