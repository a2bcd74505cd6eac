/** A server that could not listen, with what the operator should change. */
export class ListenFailure extends Error {
  constructor(
    message: string,
    /** The system error: `EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`. */
    readonly code: string,
    /** The setting to change. */
    readonly setting: string,
  ) {
    super(message);
    this.name = 'ListenFailure';
  }
}

/**
 * Runs `start`, which listens on `host`:`port` as set by the `setting` variable; a port in use, a
 * port the user may not open or an address that is not the machine's fails with a ListenFailure
 * that names the variable to change, instead of node's stack trace.
 */
export async function listenNamingSetting<T>(
  setting: string,
  host: string,
  port: number,
  start: () => Promise<T>,
): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw explainListenError(error, setting, host, port) ?? error;
  }
}

export function explainListenError(
  error: unknown,
  setting: string,
  host: string,
  port: number,
): ListenFailure | undefined {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (syscall !== 'listen' && syscall !== 'bind') return undefined;
  switch (code) {
    case 'EADDRINUSE':
      return new ListenFailure(
        `${setting} ${port} is already in use on ${host} (EADDRINUSE): set ${setting} to a free port`,
        code,
        setting,
      );
    case 'EACCES':
      return new ListenFailure(
        `${setting} ${port} may not be opened on ${host} by this user (EACCES): set ${setting} to a port above 1023`,
        code,
        setting,
      );
    case 'EADDRNOTAVAIL':
      return new ListenFailure(
        `HOST ${host} is no address of this machine (EADDRNOTAVAIL): set HOST to one of its addresses, or 0.0.0.0`,
        code,
        'HOST',
      );
    default:
      return undefined;
  }
}
