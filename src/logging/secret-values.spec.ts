import { REDACTED, registerSecret, registerUrlPassword, scrubSecrets } from './secret-values';

describe('scrubSecrets', () => {
  it('replaces a registered value, also JSON- and URL-encoded, and a value inside a longer one', () => {
    registerSecret('pa"ss word&1');
    registerSecret('pa"ss');
    const line = JSON.stringify({ msg: 'login with pa"ss word&1 failed', url: '/x?p=pa%22ss%20word%261' });
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toContain('pa\\"ss');
    expect(scrubbed).not.toContain('word');
    expect(scrubbed).not.toContain('pa%22ss');
    expect(JSON.parse(scrubbed)).toEqual({ msg: `login with ${REDACTED} failed`, url: `/x?p=${REDACTED}` });
  });

  it('ignores values too short to be told from ordinary text', () => {
    registerSecret('ab');
    expect(scrubSecrets('about abc')).toBe('about abc');
  });

  it('registers the password of a Redis URL, decoded and as written', () => {
    registerUrlPassword('redis://user:s%40cret-99@redis:6379/0');
    expect(scrubSecrets('AUTH s@cret-99 and s%40cret-99')).toBe(`AUTH ${REDACTED} and ${REDACTED}`);
    expect(() => registerUrlPassword('not a url')).not.toThrow();
  });

  it('replaces secrets recognisable by their names whatever their values', () => {
    expect(scrubSecrets('GET /WSGateway/?session_token=abc.DEF-123&x=1')).toBe(
      `GET /WSGateway/?session_token=${REDACTED}&x=1`,
    );
    expect(scrubSecrets('wss://h/hub?id=1&access_token=eyJhbGciOi')).toBe(
      `wss://h/hub?id=1&access_token=${REDACTED}`,
    );
    expect(scrubSecrets('Authorization: Bearer eyJhbGciOi.x.y')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(scrubSecrets('{"Password":"hunter22","user":"u"}')).toBe(`{"Password":"${REDACTED}","user":"u"}`);
    expect(scrubSecrets(JSON.stringify({ msg: '{"SessionToken":"tok-1"}' }))).toBe(
      JSON.stringify({ msg: `{"SessionToken":"${REDACTED}"}` }),
    );
    expect(scrubSecrets('redis://default:pw-77@10.0.0.1:6379')).toBe(
      `redis://default:${REDACTED}@10.0.0.1:6379`,
    );
  });

  it('leaves ordinary text alone', () => {
    const text = '{"level":"warn","msg":"hub: reconnecting in 500 ms","instrument":"BTC_USDT"}';
    expect(scrubSecrets(text)).toBe(text);
  });
});
