import Redis from 'ioredis';
import { describeRedisFailure, redisAddress } from './redis-failure';

const OFFLINE = new Error("Stream isn't writeable and enableOfflineQueue options is false");

function systemError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 10.0.0.5:6390`), { code });
}

describe('describeRedisFailure', () => {
  it('says why a command failed while the connection is down, from the connection error', () => {
    expect(describeRedisFailure('10.0.0.5:6390', OFFLINE, systemError('ECONNREFUSED'))).toBe(
      'Redis unreachable at 10.0.0.5:6390: connection refused',
    );
    expect(describeRedisFailure('10.0.0.5:6390', OFFLINE, systemError('ENOTFOUND'))).toBe(
      'Redis unreachable at 10.0.0.5:6390: host name not found',
    );
    expect(describeRedisFailure('10.0.0.5:6390', OFFLINE)).toBe(
      'Redis unreachable at 10.0.0.5:6390: not connected',
    );
  });

  it('names refused credentials without repeating them', () => {
    const wrongPassword = new Error('WRONGPASS invalid username-password pair or user is disabled.');
    expect(describeRedisFailure('10.0.0.5:6390', OFFLINE, wrongPassword)).toBe(
      'Redis at 10.0.0.5:6390 refused the credentials of REDIS_URL (WRONGPASS)',
    );
  });

  it('says when Redis did not answer', () => {
    expect(describeRedisFailure('10.0.0.5:6390', new Error('PING timed out'))).toBe(
      'Redis at 10.0.0.5:6390 did not answer in time (PING timed out)',
    );
  });
});

describe('redisAddress', () => {
  it('gives host and port, never the password of the URL', () => {
    const client = new Redis('redis://user:s3cret@10.0.0.5:6390/2', { lazyConnect: true });
    expect(redisAddress(client)).toBe('10.0.0.5:6390');
    client.disconnect();
  });
});
