/** System error codes of a connection attempt, in the words an operator acts on. */
const CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ECONNABORTED: 'connection aborted',
  ETIMEDOUT: 'connection timed out',
  ESOCKETTIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted (self-signed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted (self-signed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host name',
};

/**
 * Why a connection could not be made or was lost, in plain words ("connection refused"), from the
 * system error code of `error`, of its `cause` or of the first of its `errors` (node tries each
 * address of a host and reports them together); undefined when no known code is found.
 */
export function networkCause(error: unknown): string | undefined {
  const code = systemCode(error);
  return code === undefined ? undefined : CAUSES[code];
}

function systemCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 3) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && code in CAUSES) return code;
  return (
    systemCode(cause, depth + 1) ?? (Array.isArray(errors) ? systemCode(errors[0], depth + 1) : undefined)
  );
}
