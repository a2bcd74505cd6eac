import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role } from './role';
import { ConfigValidationError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('gives the laptop defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.ROLE).toBe(Role.All);
    expect(config.PORT).toBe(3000);
    expect(config.SANDBOX_PORT).toBe(4000);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.SANDBOX_RATE_LIMITS).toBe(true);
  });

  it('converts numbers and booleans and treats empty values as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      SANDBOX_RATE_LIMITS: 'false',
      REDIS_URL: '  ',
      ROLE: 'sandbox',
    });
    expect(config.PORT).toBe(8080);
    expect(config.SANDBOX_RATE_LIMITS).toBe(false);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.ROLE).toBe(Role.Sandbox);
  });

  it('lists every bad key with its reason in one error', () => {
    let error: unknown;
    try {
      loadConfig({ ROLE: 'worker', PORT: 'eighty', REDIS_URL: 'http://x', SANDBOX_RATE_LIMITS: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('ROLE="worker"'))).toMatch(/all, api, ingest, sandbox/);
    expect(problems.find((p) => p.startsWith('PORT="eighty"'))).toMatch(/integer/);
    expect(problems.find((p) => p.startsWith('SANDBOX_RATE_LIMITS'))).toMatch(/true or false/);
    expect((error as Error).message.split('\n')).toHaveLength(5);
  });

  it('never shows secret values', () => {
    expect(() => loadConfig({ REDIS_URL: 'ftp://user:hunter2@host' })).toThrow(/REDIS_URL=<redacted>/);
    try {
      loadConfig({ REDIS_URL: 'ftp://user:hunter2@host', UPSTREAM_PASSWORD: 'hunter2' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('checks settings that belong together', () => {
    expect(() => loadConfig({ UPSTREAM_EMAIL: 'a@b.c' })).toThrow(/set both or neither/);
    expect(() => loadConfig({ UPSTREAM_WS_URL: 'ws://x' })).toThrow(/need UPSTREAM_BASE_URL/);
    expect(() => loadConfig({ SANDBOX_MARKET_COUNT: '5', SANDBOX_MARKETS_FILE: 'm.json' })).toThrow(
      /choose one/,
    );
  });
});

describe('loadConfig with secrets in files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdg-config-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each secret from the file its _FILE variable names, trimmed', () => {
    const config = loadConfig({
      UPSTREAM_BASE_URL: 'https://exchange.example',
      UPSTREAM_EMAIL_FILE: file('email', 'bot@example.com\n'),
      UPSTREAM_PASSWORD_FILE: file('password', '  s3cret-from-file \n'),
      REDIS_URL_FILE: file('redis', 'redis://:pw@redis:6379\n'),
    });
    expect(config.UPSTREAM_EMAIL).toBe('bot@example.com');
    expect(config.UPSTREAM_PASSWORD).toBe('s3cret-from-file');
    expect(config.REDIS_URL).toBe('redis://:pw@redis:6379');
  });

  it('names a missing, empty or doubly set secret, and never shows what a file holds', () => {
    let error: unknown;
    try {
      loadConfig({
        UPSTREAM_PASSWORD_FILE: join(dir, 'nope'),
        UPSTREAM_EMAIL_FILE: file('empty', ' \n'),
        REDIS_URL: 'redis://a',
        REDIS_URL_FILE: file('redis2', 'redis://b'),
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^UPSTREAM_PASSWORD_FILE=".*nope": cannot be read \(ENOENT\)$/),
        expect.stringMatching(/^UPSTREAM_EMAIL_FILE=".*empty": the file is empty$/),
        'REDIS_URL and REDIS_URL_FILE: set one or the other',
      ]),
    );
  });

  it('validates a secret read from a file without showing it', () => {
    expect(() => loadConfig({ REDIS_URL_FILE: file('bad-redis', 'http://user:hunter2@host') })).toThrow(
      /REDIS_URL=<redacted>: must be a URL starting with redis:\/\/ or rediss:\/\//,
    );
    try {
      loadConfig({ REDIS_URL_FILE: file('bad-redis2', 'http://user:hunter2@host') });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});

describe('loadConfig with data files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdg-config-files-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  afterAll(() => rm(dir));
  const problemsOf = (env: Record<string, string>): readonly string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      return (error as ConfigValidationError).problems;
    }
    return [];
  };

  it('reads the data files a process uses and accepts good ones', () => {
    const config = loadConfig({
      ASSETS_FILE: file('assets.json', '{"BTC":{"name":"Bitcoin","unified_cryptoasset_id":1}}'),
      SANDBOX_USERS_FILE: file('users.json', '[{"userId":7,"email":"a@b.c","password":"pw"}]'),
      SANDBOX_MARKETS_FILE: file(
        'markets.json',
        '[{"baseAsset":"btc","quoteAsset":"usdt","priceScale":2,"amountScale":4,"minAmount":"0.001","initialPrice":"100","typicalAmount":"1"}]',
      ),
    });
    expect(config.ASSETS_FILE).toMatch(/assets\.json$/);
  });

  it('names every bad file with its problems in the one error, beside the other bad keys', () => {
    const missing = join(dir, 'missing.json');
    const problems = problemsOf({
      PORT: 'eighty',
      ASSETS_FILE: missing,
      SANDBOX_MARKETS_FILE: file('markets-broken.json', '[{"baseAsset":'),
      SANDBOX_USERS_FILE: file('users-invalid.json', '[null]'),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^PORT="eighty"/),
      `ASSETS_FILE=${JSON.stringify(missing)}: cannot be read: ENOENT`,
      expect.stringMatching(/^SANDBOX_MARKETS_FILE=".*markets-broken\.json": not valid JSON/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: must be an object$/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: userId must be/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: email must be/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: password must be/),
    ]);
  });

  it('names an assets file that is not JSON or breaks its rules, at most ten problems of it', () => {
    const invalid = file('assets-invalid.json', '{"BTC":{"name":"","maker_fee":"2"}}');
    expect(problemsOf({ ASSETS_FILE: invalid })).toEqual([
      `ASSETS_FILE=${JSON.stringify(invalid)}: BTC.name: must be non-empty text, got ""`,
      `ASSETS_FILE=${JSON.stringify(invalid)}: BTC.maker_fee: a fee is a fraction of the traded value, 0 to 1 (0.001 is 0.1 %), got 2`,
    ]);
    expect(problemsOf({ ASSETS_FILE: file('assets-empty.json', '') })).toEqual([
      expect.stringMatching(/^ASSETS_FILE=".*assets-empty\.json": not valid JSON/),
    ]);
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`A${i}`, { name: '' }]));
    const problems = problemsOf({ ASSETS_FILE: file('assets-many.json', JSON.stringify(many)) });
    expect(problems).toHaveLength(11);
    expect(problems[10]).toMatch(/: and 15 more problems$/);
  });

  it('names a sandbox markets file whose entries are not objects', () => {
    expect(problemsOf({ SANDBOX_MARKETS_FILE: file('markets-junk.json', '[1]') })).toEqual(
      expect.arrayContaining([expect.stringMatching(/: market 0 \(undefined\): must be an object$/)]),
    );
  });

  it('leaves out the files a role does not read', () => {
    const missing = join(dir, 'missing.json');
    const redis = { REDIS_URL: 'redis://localhost:6379' };
    expect(problemsOf({ ROLE: 'api', ASSETS_FILE: missing, SANDBOX_USERS_FILE: missing, ...redis })).toEqual(
      [],
    );
    expect(problemsOf({ ROLE: 'sandbox', ASSETS_FILE: missing })).toEqual([]);
    expect(
      problemsOf({
        ROLE: 'ingest',
        SANDBOX_MARKETS_FILE: missing,
        UPSTREAM_BASE_URL: 'https://x.example',
        ...redis,
      }),
    ).toEqual([]);
    expect(problemsOf({ ROLE: 'sandbox', SANDBOX_MARKETS_FILE: missing })).toEqual([
      `SANDBOX_MARKETS_FILE=${JSON.stringify(missing)}: cannot be read: ENOENT`,
    ]);
  });
});

function rm(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
