import { networkCause } from './network-cause';

function systemError(code: string, message = `connect ${code} 127.0.0.1:6379`): Error {
  return Object.assign(new Error(message), { code });
}

describe('networkCause', () => {
  it('names the usual failures of a connection in plain words', () => {
    expect(networkCause(systemError('ECONNREFUSED'))).toBe('connection refused');
    expect(networkCause(systemError('ECONNRESET'))).toBe('connection reset');
    expect(networkCause(systemError('ETIMEDOUT'))).toBe('connection timed out');
    expect(networkCause(systemError('ENOTFOUND'))).toBe('host name not found');
  });

  it('finds the code in a cause or in the first of several attempts', () => {
    const fetchFailed = new TypeError('fetch failed', { cause: systemError('ECONNREFUSED') });
    expect(networkCause(fetchFailed)).toBe('connection refused');
    const everyAddress = new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNREFUSED')]);
    expect(networkCause(everyAddress)).toBe('connection refused');
  });

  it('knows nothing of other errors', () => {
    expect(networkCause(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(
      undefined,
    );
    expect(networkCause('ECONNREFUSED')).toBe(undefined);
    expect(networkCause(systemError('EWHATEVER'))).toBe(undefined);
  });
});
