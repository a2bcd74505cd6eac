import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigValidationError } from './config/load-config';
import { loadStartConfig } from './start-config';

describe('loadStartConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdg-config-files-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  afterAll(() => rm(dir));
  const problemsOf = (env: Record<string, string>): readonly string[] => {
    try {
      loadStartConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      return (error as ConfigValidationError).problems;
    }
    return [];
  };

  it('reads the data files a process uses and accepts good ones', () => {
    const { gateway, sandbox } = loadStartConfig({
      SANDBOX: 'true',
      ASSETS_FILE: file('assets.json', '{"BTC":{"name":"Bitcoin","unified_cryptoasset_id":1}}'),
      SANDBOX_USERS_FILE: file('users.json', '[{"userId":7,"email":"a@b.c","password":"pw"}]'),
      SANDBOX_MARKETS_FILE: file(
        'markets.json',
        '[{"baseAsset":"btc","quoteAsset":"usdt","priceScale":2,"amountScale":4,"minAmount":"0.001","initialPrice":"100","typicalAmount":"1"}]',
      ),
    });
    expect(gateway.ASSETS_FILE).toMatch(/assets\.json$/);
    expect(sandbox?.SANDBOX_USERS_FILE).toMatch(/users\.json$/);
  });

  it("names every bad file and key, the gateway's and the sandbox's, in the one error", () => {
    const missing = join(dir, 'missing.json');
    const problems = problemsOf({
      SANDBOX: 'true',
      PORT: 'eighty',
      SANDBOX_SEED: 'x',
      ASSETS_FILE: missing,
      SANDBOX_MARKETS_FILE: file('markets-broken.json', '[{"baseAsset":'),
      SANDBOX_USERS_FILE: file('users-invalid.json', '[null]'),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^PORT="eighty"/),
      `ASSETS_FILE=${JSON.stringify(missing)}: cannot be read: ENOENT`,
      'SANDBOX_SEED="x": must be an integer, 0 or more',
      expect.stringMatching(/^SANDBOX_MARKETS_FILE=".*markets-broken\.json": not valid JSON/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: must be an object$/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: userId must be/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: email must be/),
      expect.stringMatching(/^SANDBOX_USERS_FILE=".*users-invalid\.json": user 0: password must be/),
    ]);
  });

  it('names an assets file that is not JSON or breaks its rules, at most ten problems of it', () => {
    const invalid = file('assets-invalid.json', '{"BTC":{"name":"","maker_fee":"2"}}');
    expect(problemsOf({ SANDBOX: 'true', ASSETS_FILE: invalid })).toEqual([
      `ASSETS_FILE=${JSON.stringify(invalid)}: BTC.name: must be non-empty text, got ""`,
      `ASSETS_FILE=${JSON.stringify(invalid)}: BTC.maker_fee: a fee is a fraction of the traded value, 0 to 1 (0.001 is 0.1 %), got 2`,
    ]);
    expect(problemsOf({ SANDBOX: 'true', ASSETS_FILE: file('assets-empty.json', '') })).toEqual([
      expect.stringMatching(/^ASSETS_FILE=".*assets-empty\.json": not valid JSON/),
    ]);
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`A${i}`, { name: '' }]));
    const problems = problemsOf({
      SANDBOX: 'true',
      ASSETS_FILE: file('assets-many.json', JSON.stringify(many)),
    });
    expect(problems).toHaveLength(11);
    expect(problems[10]).toMatch(/: and 15 more problems$/);
  });

  it('runs the sandbox in-process only when asked, on loopback unless SANDBOX_HOST opens it', () => {
    const exchange = { UPSTREAM_BASE_URL: 'https://exchange.example' };
    expect(loadStartConfig({ ...exchange, HOST: '0.0.0.0' }).sandbox).toBeUndefined();
    expect(loadStartConfig({ SANDBOX: 'true', HOST: '0.0.0.0' }).sandbox).toMatchObject({
      HOST: '0.0.0.0',
      SANDBOX_HOST: '127.0.0.1',
    });
    expect(loadStartConfig({ SANDBOX: 'true', SANDBOX_HOST: '0.0.0.0' }).sandbox?.SANDBOX_HOST).toBe(
      '0.0.0.0',
    );
    // Alone, the sandbox is a service of its own and binds to HOST as before.
    expect(loadStartConfig({ ROLE: 'sandbox', HOST: '0.0.0.0' }).sandbox?.SANDBOX_HOST).toBeUndefined();
    expect(problemsOf({ SANDBOX: 'maybe' })).toEqual([
      expect.stringMatching(/^SANDBOX="maybe": must be true or false/),
    ]);
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
