import { dataNodeOptions, parseSentinels } from './redis-sentinels';

describe('parseSentinels', () => {
  it('reads comma-separated host:port pairs', () => {
    expect(parseSentinels('sentinel-0.redis:26379, 10.0.0.2:26380,')).toEqual([
      { host: 'sentinel-0.redis', port: 26379 },
      { host: '10.0.0.2', port: 26380 },
    ]);
  });
});

describe('dataNodeOptions', () => {
  it('takes credentials, database and TLS from the URL, never its host', () => {
    expect(dataNodeOptions('rediss://me:p%40ss@mymaster:6379/3')).toEqual({
      username: 'me',
      password: 'p@ss',
      db: 3,
      tls: {},
    });
    expect(dataNodeOptions('redis://mymaster')).toEqual({});
  });
});
