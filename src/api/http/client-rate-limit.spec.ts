import { ClientRateLimit } from './client-rate-limit';

describe('ClientRateLimit', () => {
  it('allows `limit` requests per client in a window, then refuses with the time to wait', () => {
    const limit = new ClientRateLimit(3, 60_000);
    const decisions = [0, 1_000, 2_000, 30_500].map((at) => limit.hit('a', at));
    expect(decisions.map((d) => d.limited)).toEqual([false, false, false, true]);
    expect(decisions.map((d) => d.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(decisions[0].headers).toEqual({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'x-ratelimit-reset': '60',
    });
    // The window opened at 0: 29.5 s are left, rounded up.
    expect(decisions[3].headers['retry-after']).toBe('30');
    expect(decisions[3].headers['x-ratelimit-reset']).toBe('30');
    expect(limit.error(decisions[3])).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      message: 'rate limit of 3 requests per minute exceeded; retry in 30 s',
    });
  });

  it('gives each client a budget of its own and a whole one again when its window ends', () => {
    const limit = new ClientRateLimit(1, 60_000);
    expect(limit.hit('a', 0).limited).toBe(false);
    expect(limit.hit('a', 1).limited).toBe(true);
    expect(limit.hit('b', 2).limited).toBe(false);
    expect(limit.hit('a', 59_999).limited).toBe(true);
    expect(limit.hit('a', 60_000).limited).toBe(false);
    expect(limit.hit('a', 60_001).headers['x-ratelimit-reset']).toBe('60');
  });

  it('forgets clients whose windows have ended', () => {
    const limit = new ClientRateLimit(1, 1_000);
    for (let i = 0; i < 1_000; i++) limit.hit(`client ${i}`, 0);
    limit.hit('later', 5_000);
    const windows = (limit as unknown as { windows: Map<string, unknown> }).windows;
    expect([...windows.keys()]).toEqual(['later']);
  });
});
