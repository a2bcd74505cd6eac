import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSandboxConfig, SandboxConfigError } from './load-sandbox-config';

describe('loadSandboxConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const problemsOf = (env: Record<string, string>): readonly string[] => {
    try {
      loadSandboxConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(SandboxConfigError);
      return (error as SandboxConfigError).problems;
    }
    return [];
  };

  it('gives the laptop defaults for an empty environment and ignores the gateway keys', () => {
    const config = loadSandboxConfig({ PORT: 'not ours', REDIS_URL: 'redis://x' });
    expect(config).toMatchObject({
      HOST: '0.0.0.0',
      SANDBOX_PORT: 4000,
      SANDBOX_SEED: 1,
      SANDBOX_FLOW_RATE: 4,
      SANDBOX_HISTORY_HOURS: 24,
      SANDBOX_TRADE_EVENT: 'OrderTradeEvent',
      SANDBOX_RATE_LIMITS: true,
    });
    expect(config.SANDBOX_MARKETS_FILE).toBeUndefined();
    expect(config.SANDBOX_HISTORY_RATE).toBeUndefined();
  });

  it('reads numbers, fractions, flags and names, and treats empty values as unset', () => {
    const config = loadSandboxConfig({
      SANDBOX_PORT: '0',
      SANDBOX_FLOW_RATE: '0.5',
      SANDBOX_HISTORY_RATE: ' 4 ',
      SANDBOX_RATE_LIMITS: 'FALSE',
      SANDBOX_TRADE_EVENT: 'TradeDataUpdateEvent',
      SANDBOX_SEED: '  ',
    });
    expect(config).toMatchObject({
      SANDBOX_PORT: 0,
      SANDBOX_FLOW_RATE: 0.5,
      SANDBOX_HISTORY_RATE: 4,
      SANDBOX_RATE_LIMITS: false,
      SANDBOX_TRADE_EVENT: 'TradeDataUpdateEvent',
      SANDBOX_SEED: 1,
    });
  });

  it('names every bad key with its reason in one error', () => {
    expect(
      problemsOf({
        SANDBOX_PORT: '70000',
        SANDBOX_SEED: '1.5',
        SANDBOX_FLOW_RATE: 'fast',
        SANDBOX_HISTORY_HOURS: '337',
        SANDBOX_TRADE_EVENT: 'Trades',
        SANDBOX_RATE_LIMITS: 'maybe',
      }),
    ).toEqual([
      'SANDBOX_PORT="70000": must be an integer port number from 0 to 65535',
      'SANDBOX_SEED="1.5": must be an integer, 0 or more',
      'SANDBOX_FLOW_RATE="fast": must be a number of orders per second from 0 to 100000',
      'SANDBOX_HISTORY_HOURS="337": must be a number of hours from 0 to 336',
      'SANDBOX_TRADE_EVENT="Trades": must be one of OrderTradeEvent, TradeDataUpdateEvent',
      'SANDBOX_RATE_LIMITS="maybe": must be true or false',
    ]);
  });

  it('refuses a variable that is no longer a setting', () => {
    expect(problemsOf({ SANDBOX_KEEPALIVE_MS: '500' })).toEqual([
      'SANDBOX_KEEPALIVE_MS: no longer a setting, its value is built in; remove it',
    ]);
  });

  it('refuses a market count beside a markets file', () => {
    const markets = file('markets-choice.json', '[]');
    expect(problemsOf({ SANDBOX_MARKET_COUNT: '3', SANDBOX_MARKETS_FILE: markets })).toContain(
      'SANDBOX_MARKET_COUNT and SANDBOX_MARKETS_FILE: choose one',
    );
  });

  it('names each bad data file with its problems, at most ten of one file', () => {
    const missing = join(dir, 'missing.json');
    expect(problemsOf({ SANDBOX_MARKETS_FILE: missing })).toEqual([
      `SANDBOX_MARKETS_FILE=${JSON.stringify(missing)}: cannot be read: ENOENT`,
    ]);
    expect(problemsOf({ SANDBOX_MARKETS_FILE: file('markets-junk.json', '[1]') })).toEqual(
      expect.arrayContaining([expect.stringMatching(/: market 0 \(undefined\): must be an object$/)]),
    );
    const users = file('users-many.json', JSON.stringify(Array.from({ length: 12 }, () => null)));
    const problems = problemsOf({ SANDBOX_USERS_FILE: users });
    expect(problems).toHaveLength(11);
    expect(problems[10]).toMatch(/: and \d+ more problems$/);
  });
});
